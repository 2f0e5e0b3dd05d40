import { readFileSync, statSync } from "node:fs";
import { imageSize } from "image-size";
import { ConfigError } from "../../../config.ts";

// the shop's logo (SHOP_LOGO) on receipts and price-list pictures: read once at start, as
// a data URI both satori and resvg draw, with its size scaled to LOGO_HEIGHT. image-size
// reads the size from the file's header for each format, so kios parses none by hand.

const LOGO_HEIGHT = 56;
const MAX_BYTES = 1024 * 1024;
const TYPES: Record<string, string> = { png: "image/png", jpg: "image/jpeg", svg: "image/svg+xml" };

export interface Logo {
  dataUri: string;
  /** drawn size, px */
  width: number;
  height: number;
}

/** the logo file at `path`, or a ConfigError naming what is wrong with it */
export function readLogo(path: string): Logo {
  const problem = (what: string) => new ConfigError([`SHOP_LOGO: ${path} ${what}`]);
  let bytes: Buffer;
  try {
    if (statSync(path).size > MAX_BYTES) throw problem("is larger than 1 MB");
    bytes = readFileSync(path);
  } catch (err) {
    if (err instanceof ConfigError) throw err;
    throw problem("can't be read");
  }
  let size: ReturnType<typeof imageSize> | undefined;
  try {
    size = imageSize(bytes);
  } catch {
    size = undefined;
  }
  const mime = size?.type ? TYPES[size.type] : undefined;
  if (!size || !mime || !size.width || !size.height) {
    throw problem("is not a PNG, JPEG or SVG picture");
  }
  return {
    dataUri: `data:${mime};base64,${bytes.toString("base64")}`,
    width: Math.round((size.width / size.height) * LOGO_HEIGHT),
    height: LOGO_HEIGHT,
  };
}
