import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import type satoriType from "satori";
import type { Logo } from "./logo.ts";

// pictures drawn in-process, without a browser: satori lays a tree of flexbox boxes out to
// SVG with the Inter font from npm, resvg rasterises it. Receipts and price lists use it;
// the charts share the font files.

const require = createRequire(import.meta.url);

/** Inter as TrueType (satori and resvg both read it), regular and bold */
export const INTER_FILES = {
  400: require.resolve("@expo-google-fonts/inter/400Regular/Inter_400Regular.ttf"),
  700: require.resolve("@expo-google-fonts/inter/700Bold/Inter_700Bold.ttf"),
} as const;

let fonts: { name: string; data: Buffer; weight: 400 | 700; style: "normal" }[] | undefined;

function loadFonts() {
  fonts ??= ([400, 700] as const).map((weight) => ({
    name: "Inter",
    data: readFileSync(INTER_FILES[weight]),
    weight,
    style: "normal" as const,
  }));
  return fonts;
}

/** an element as satori takes it: React-shaped, without React */
export interface PictureNode {
  type: string;
  props: { style?: Record<string, unknown>; children?: unknown; [attribute: string]: unknown };
}

/** a flex box (satori lays out every div with more than one child as flex) */
export const box = (style: Record<string, unknown>, children: unknown): PictureNode => ({
  type: "div",
  props: { style: { display: "flex", ...style }, children },
});

/** the shop's logo, centred */
export const logoNode = (logo: Logo): PictureNode =>
  box({ justifyContent: "center", marginBottom: 6 }, [
    { type: "img", props: { src: logo.dataUri, width: logo.width, height: logo.height } },
  ]);

/** the tree as a PNG `width` pixels wide, as tall as it lays out */
export async function picturePng(tree: PictureNode, width: number): Promise<Buffer> {
  // the layout engine and the rasteriser, loaded on the first picture: a start needs neither
  const [{ default: satori }, { renderAsync }] = await Promise.all([
    import("satori"),
    import("@resvg/resvg-js"),
  ]);
  const svg = await satori(tree as unknown as Parameters<typeof satoriType>[0], {
    width,
    fonts: loadFonts(),
  });
  // rasterised on libuv's pool: the bot's thread is free meanwhile
  const image = await renderAsync(svg, { fitTo: { mode: "width", value: width } });
  return image.asPng();
}
