import { plainText } from "../../commerce/plain-text.ts";
import { INTER_FILES } from "../ui/pictures/layout.ts";
import type { PriceListPicture } from "./content.ts";

// a price list as a PNG: a table has no layout to work out (rows of one height, names on
// the left, prices aligned right), so it is written as SVG text and resvg draws it with
// Inter, off the event loop (renderAsync runs on libuv's pool). Laying 150 rows out with
// satori instead turned every glyph into a path: seconds of the bot's thread and a 2.5 MB SVG.

const PRICE_LIST_PICTURE_WIDTH = 600;
const PAD = 24;
const ROW = 30;
const NOTE = 16;
const HEADING = 28;
const NAME_CHARS = 44;

// a name stored before kios refused control characters must not stop the drawing
const xml = (s: string) =>
  plainText(s)
    .replace(/&/g, "&amp;")
    .replace(/</g, "&lt;")
    .replace(/>/g, "&gt;")
    .replace(/"/g, "&quot;");
const clip = (s: string, n: number) => (s.length > n ? `${s.slice(0, n - 1)}…` : s);

function text(
  x: number,
  y: number,
  size: number,
  content: string,
  o: { bold?: boolean; fill?: string; anchor?: "start" | "middle" | "end" } = {},
): string {
  const weight = o.bold ? ' font-weight="700"' : "";
  const anchor = o.anchor && o.anchor !== "start" ? ` text-anchor="${o.anchor}"` : "";
  const fill = o.fill ? ` fill="${o.fill}"` : "";
  return `<text x="${x}" y="${y}" font-size="${size}"${weight}${anchor}${fill}>${xml(content)}</text>`;
}

/** the picture as SVG (its text is real text, so tests can read it) */
export function priceListSvg(p: PriceListPicture): string {
  const W = PRICE_LIST_PICTURE_WIDTH;
  const left = PAD + 10;
  const right = W - PAD - 10;
  const parts: string[] = [];
  let y = PAD;
  if (p.logo) {
    const { dataUri, width, height } = p.logo;
    parts.push(
      `<image href="${dataUri}" x="${(W - width) / 2}" y="${y}" width="${width}" height="${height}"/>`,
    );
    y += height + 6;
  }
  parts.push(text(W / 2, y + 28, 28, p.shop, { bold: true, anchor: "middle" }));
  y += 40;
  parts.push(text(W / 2, y + 19, 19, p.title, { anchor: "middle" }));
  y += 28;
  parts.push(text(W / 2, y + 14, 14, p.asOf, { anchor: "middle", fill: "#666" }));
  y += 30;
  for (const g of p.groups) {
    if (g.heading) {
      y += 8;
      parts.push(
        `<rect x="${PAD}" y="${y}" width="${W - 2 * PAD}" height="${HEADING}" rx="4" fill="#2e7d5b"/>`,
        text(left, y + 19, 15, g.heading, { bold: true, fill: "#fff" }),
      );
      y += HEADING;
    }
    g.rows.forEach((r, i) => {
      const height = ROW + (r.closed ? NOTE : 0);
      if (i % 2 === 1) {
        parts.push(
          `<rect x="${PAD}" y="${y}" width="${W - 2 * PAD}" height="${height}" fill="#f5f7f6"/>`,
        );
      }
      const fill = r.closed ? "#999" : undefined;
      parts.push(
        text(left, y + 21, 17, clip(r.name, NAME_CHARS), { fill }),
        text(right, y + 21, 17, r.price, { bold: true, anchor: "end", fill }),
      );
      if (r.closed) parts.push(text(left, y + 21 + NOTE, 13, r.closed, { fill: "#b33" }));
      y += height;
    });
  }
  if (p.more) {
    parts.push(text(left, y + 24, 14, p.more, { fill: "#666" }));
    y += 30;
  }
  y += 12;
  parts.push(`<line x1="${PAD}" y1="${y}" x2="${W - PAD}" y2="${y}" stroke="#ddd"/>`);
  parts.push(text(W / 2, y + 22, 13, p.footer, { anchor: "middle", fill: "#666" }));
  const height = y + 22 + PAD;
  return [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${height}" viewBox="0 0 ${W} ${height}">`,
    `<rect width="${W}" height="${height}" fill="#fff"/>`,
    `<g font-family="Inter" fill="#111">`,
    ...parts,
    "</g></svg>",
  ].join("");
}

export async function priceListPng(p: PriceListPicture): Promise<Buffer> {
  // loaded on the first picture: a start does not need the rasteriser
  const { renderAsync } = await import("@resvg/resvg-js");
  const image = await renderAsync(priceListSvg(p), {
    font: {
      fontFiles: Object.values(INTER_FILES),
      loadSystemFonts: false,
      defaultFontFamily: "Inter",
    },
  });
  return image.asPng();
}
