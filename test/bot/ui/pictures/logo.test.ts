import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Resvg } from "@resvg/resvg-js";
import { describe, expect, it } from "vitest";
import { priceListPictureOf } from "../../../../src/bot/price-list/content.ts";
import { priceListPng, priceListSvg } from "../../../../src/bot/price-list/picture.ts";
import { receiptOf } from "../../../../src/bot/receipts/receipt.ts";
import { receiptPng } from "../../../../src/bot/receipts/render.ts";
import { createI18n, translator } from "../../../../src/bot/ui/i18n.ts";
import { picturePng } from "../../../../src/bot/ui/pictures/layout.ts";
import { readLogo } from "../../../../src/bot/ui/pictures/logo.ts";
import type { Order } from "../../../../src/commerce/orders/types.ts";
import { ConfigError } from "../../../../src/config.ts";
import { pngSize } from "../../../helpers/png.ts";

// SHOP_LOGO: a PNG, JPEG or SVG file read once at start, scaled to the pictures' logo
// height; anything else stops the start with a line saying what is wrong.

const dir = mkdtempSync(join(tmpdir(), "kios-logo-"));
const SVG = `<svg xmlns="http://www.w3.org/2000/svg" width="200" height="100"><rect width="200" height="100" fill="#2e7d5b"/></svg>`;

describe("the shop's logo", () => {
  it("reads an SVG or a PNG with its size, scaled to 56 px high", async () => {
    const svgPath = join(dir, "logo.svg");
    writeFileSync(svgPath, SVG);
    const svg = readLogo(svgPath);
    expect(svg).toMatchObject({ width: 112, height: 56 });
    expect(svg.dataUri).toMatch(/^data:image\/svg\+xml;base64,/);

    // a PNG drawn by kios itself: 240 wide, as tall as its content
    const png = await picturePng(
      {
        type: "div",
        props: { style: { display: "flex", width: 240, height: 80, background: "#c33" } },
      },
      240,
    );
    const pngPath = join(dir, "logo.png");
    writeFileSync(pngPath, png);
    expect(pngSize(png)).toEqual({ width: 240, height: 80 });
    expect(readLogo(pngPath)).toMatchObject({ width: 168, height: 56 });
    expect(readLogo(pngPath).dataUri).toMatch(/^data:image\/png;base64,iVBOR/);
  });

  it("stops the start with a clear line for a missing, foreign or too large file", () => {
    const text = join(dir, "notes.txt");
    writeFileSync(text, "not a picture");
    const big = join(dir, "big.png");
    writeFileSync(big, Buffer.alloc(2 * 1024 * 1024));
    for (const [path, says] of [
      [join(dir, "missing.png"), /SHOP_LOGO: .*missing\.png can't be read/],
      [text, /SHOP_LOGO: .*notes\.txt is not a PNG, JPEG or SVG picture/],
      [big, /SHOP_LOGO: .*big\.png is larger than 1 MB/],
    ] as const) {
      let error: unknown;
      try {
        readLogo(path);
      } catch (err) {
        error = err;
      }
      expect(error).toBeInstanceOf(ConfigError);
      expect((error as ConfigError).problems.join("\n")).toMatch(says);
    }
  });

  it("stands above the shop's name on a receipt and a price list", async () => {
    const path = join(dir, "mark.svg");
    writeFileSync(path, SVG);
    const logo = readLogo(path);
    const t = translator(createI18n(), "id");
    const order = {
      refId: "K01LOGO",
      kind: "prepaid",
      productName: "Telkomsel 10.000",
      destination: "081234567901",
      price: 10_400,
      sn: "123",
      createdAt: new Date("2026-11-25T03:00:00Z"),
      finalAt: new Date("2026-11-25T03:00:00Z"),
    } as Order;
    const plain = pngSize(await receiptPng(receiptOf(t, { order, shop: "Toko Sari" })));
    const marked = await receiptPng(receiptOf(t, { order, shop: "Toko Sari", logo }));
    expect(pngSize(marked).height - plain.height).toBeGreaterThanOrEqual(logo.height);
    mkdirSync("test-results", { recursive: true });
    writeFileSync(join("test-results", "receipt-logo.png"), marked);

    const list = priceListPictureOf(t, {
      shop: "Toko Sari",
      logo,
      scope: { category: "Pulsa" },
      items: [],
      total: 0,
      now: Date.parse("2026-11-25T03:00:00Z"),
      markup: 0,
    });
    // the logo's green, in the middle of the top of the picture
    const image = new Resvg(priceListSvg(list)).render();
    const at = (24 + logo.height / 2) * image.width + image.width / 2;
    expect([...image.pixels.subarray(at * 4, at * 4 + 3)]).toEqual([0x2e, 0x7d, 0x5b]);
    const without = pngSize(await priceListPng({ ...list, logo: undefined }));
    expect(pngSize(await priceListPng(list)).height - without.height).toBe(logo.height + 6);
  });
});
