import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import {
  PICTURE_MAX_PAGES,
  PICTURE_MAX_ROWS,
  priceListPictureOf,
  priceListPicturePages,
  priceListText,
} from "../../../src/bot/price-list/content.ts";
import { priceListPng, priceListSvg } from "../../../src/bot/price-list/picture.ts";
import { createI18n, translator } from "../../../src/bot/ui/i18n.ts";
import type { CatalogueItem } from "../../../src/commerce/catalogue/queries.ts";
import { pngSize } from "../../helpers/png.ts";

// /harga's words and picture from known products: the text page groups rows and marks a
// closed one; the picture says the shop, each price with the reseller's amount added, and
// decodes as a PNG in bounds (saved under test-results/ to look at).

const t = translator(createI18n(), "id");
const NOW = Date.parse("2026-11-25T09:00:00Z"); // 16:00 WIB

function item(over: Partial<CatalogueItem> & Pick<CatalogueItem, "code" | "name">): CatalogueItem {
  return {
    category: "Pulsa",
    brand: "TELKOMSEL",
    type: "prepaid",
    operator: "telkomsel",
    description: "",
    startCutOff: null,
    endCutOff: null,
    pausedUntil: null,
    supplierPrice: 0,
    price: 10_000,
    ...over,
  };
}

const ITEMS: CatalogueItem[] = [
  item({ code: "TSEL5", name: "Telkomsel 5.000", price: 5_600 }),
  item({ code: "TSEL10", name: "Telkomsel 10.000", price: 10_600 }),
  item({
    code: "TSEL20",
    name: "Telkomsel 20.000",
    price: 20_300,
    // closed for the day's cut-off, 15:30–16:30 WIB
    startCutOff: "15:30",
    endCutOff: "16:30",
  }),
  item({ code: "ISAT10", name: "Indosat 10.000", brand: "INDOSAT", price: 10_800 }),
];

/** the text elements of an SVG, in order */
const textsOf = (svg: string) => [...svg.matchAll(/<text[^>]*>([^<]*)<\/text>/g)].map((m) => m[1]);

describe("the price list's words and picture", () => {
  it("writes a page grouped by brand, codes for resellers, a closed product marked", () => {
    const text = priceListText(t, {
      scope: { category: "Pulsa" },
      items: ITEMS,
      total: 40,
      page: 0,
      pages: 3,
      tier: "reseller",
      now: NOW,
    });
    expect(text.split("\n")).toEqual([
      "📋 <b>Pulsa</b> · 40 produk · 1/3",
      "Harga reseller kamu.",
      "",
      "<b>Telkomsel</b>",
      "<code>TSEL5</code> Telkomsel 5.000 · Rp5.600",
      "<code>TSEL10</code> Telkomsel 10.000 · Rp10.600",
      "⛔ <code>TSEL20</code> Telkomsel 20.000 · Rp20.300 · tutup s/d 16:30 WIB",
      "",
      "<b>Indosat</b>",
      "<code>ISAT10</code> Indosat 10.000 · Rp10.800",
    ]);
    const bills = priceListText(t, {
      scope: { category: "PDAM", brand: "PDAM" },
      items: [item({ code: "PDAMJKT", name: "PAM Jaya", type: "pasca", price: 2_500 })],
      total: 1,
      page: 0,
      pages: 1,
      tier: "customer",
      now: NOW,
    });
    // a bill kind is its brand too: said once, in the shop's words
    expect(bills).toBe("📋 <b>PDAM (air)</b> · 1 produk · 1/1\n\nPAM Jaya · admin Rp2.500");
  });

  it("draws the whole list for buyers: the reseller's name and prices", async () => {
    const picture = priceListPictureOf(t, {
      shop: "Rina Cell",
      scope: { category: "Pulsa" },
      items: ITEMS,
      total: ITEMS.length,
      now: NOW,
      markup: 1_500,
    });
    const texts = textsOf(priceListSvg(picture));
    expect(texts).toEqual(
      expect.arrayContaining([
        "Rina Cell",
        "Daftar Harga Pulsa",
        "Per 25/11/2026 16:00 WIB",
        "Telkomsel",
        "Telkomsel 5.000",
        "Rp7.100",
        "Telkomsel 20.000",
        "tutup s/d 16:30 WIB",
        "Indosat",
        "Rp12.300",
      ]),
    );
    expect(texts).not.toContain("Rp5.600");
    const png = await priceListPng(picture);
    const { width, height } = pngSize(png);
    expect(width).toBe(600);
    expect(height).toBeGreaterThan(300);
    expect(png.length).toBeLessThan(200 * 1024);
    mkdirSync("test-results", { recursive: true });
    writeFileSync(join("test-results", "harga.png"), png);
  });

  it(`keeps a long list to ${PICTURE_MAX_ROWS} rows that Telegram shows as a photo`, async () => {
    const many = Array.from({ length: 400 }, (_, i) =>
      item({ code: `D${i}`, name: `Telkomsel Data ${i} GB`, category: "Data", price: 1000 * i }),
    );
    const picture = priceListPictureOf(t, {
      shop: "Toko Sari",
      scope: { brand: "TELKOMSEL" },
      items: many,
      total: 400,
      now: NOW,
      markup: 0,
    });
    expect(picture.groups.flatMap((g) => g.rows)).toHaveLength(PICTURE_MAX_ROWS);
    expect(picture.more).toMatch(/250 produk lagi/);
    const { width, height } = pngSize(await priceListPng(picture));
    // a photo: width + height at most 10,000 and at most 20 times as tall as wide
    expect(width + height).toBeLessThanOrEqual(10_000);
    expect(height / width).toBeLessThanOrEqual(20);
  });

  it(`splits a list past ${PICTURE_MAX_ROWS} rows into numbered pictures, ${PICTURE_MAX_PAGES} at most`, () => {
    const many = (n: number) =>
      Array.from({ length: n }, (_, i) =>
        item({ code: `D${i}`, name: `Telkomsel Data ${i} GB`, category: "Data", price: 1000 * i }),
      );
    const o = { shop: "Toko Sari", scope: { brand: "TELKOMSEL" }, now: NOW, markup: 0 };
    const pages = priceListPicturePages(t, { ...o, items: many(429), total: 429 });
    expect(pages.map((p) => p.title)).toEqual([
      "Daftar Harga Telkomsel (1/3)",
      "Daftar Harga Telkomsel (2/3)",
      "Daftar Harga Telkomsel (3/3)",
    ]);
    expect(pages.map((p) => p.groups.flatMap((g) => g.rows).length)).toEqual([150, 150, 129]);
    // every row once, in order, and nothing said to be left out
    expect(pages.flatMap((p) => p.groups.flatMap((g) => g.rows.map((r) => r.name)))).toEqual(
      many(429).map((i) => i.name),
    );
    expect(pages.map((p) => p.more)).toEqual([undefined, undefined, undefined]);

    const longest = priceListPicturePages(t, { ...o, items: many(1_600), total: 1_700 });
    expect(longest).toHaveLength(PICTURE_MAX_PAGES);
    expect(longest.at(-1)!.more).toMatch(/200 produk lagi/);
    expect(longest.slice(0, -1).every((p) => p.more === undefined)).toBe(true);

    const one = priceListPicturePages(t, { ...o, items: many(3), total: 3 });
    expect(one.map((p) => p.title)).toEqual(["Daftar Harga Telkomsel"]);
  });

  it("draws names stored with control characters, which SVG cannot carry", async () => {
    // names a supplier sent (or a reseller typed) before kios refused them at the door
    const picture = priceListPictureOf(t, {
      shop: "Rina\u0001 Cell",
      scope: { category: "Pulsa" },
      items: [item({ code: "TSEL5", name: "Telkomsel\u000b 5.000\u007f", price: 5_600 })],
      total: 1,
      now: NOW,
      markup: 0,
    });
    const texts = textsOf(priceListSvg(picture));
    expect(texts).toEqual(expect.arrayContaining(["Rina Cell", "Telkomsel 5.000"]));
    const { width } = pngSize(await priceListPng(picture));
    expect(width).toBe(600);
  });
});
