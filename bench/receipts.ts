// receipt and price-list picture benchmark: how long kios takes to draw one receipt (satori layout + resvg PNG) and
// how big it is, for an airtime order, a PLN token and a two-period bill; against resvg alone
// drawing an SVG of the same size (the floor of any SVG-to-PNG receipt), in the same run.
// Goal (issue 17): under 150 ms and 100 KB a receipt.
// run: npx tsx bench/receipts.ts [--reps 30]

import { parseArgs } from "node:util";
import { Resvg } from "@resvg/resvg-js";
import { priceListPictureOf } from "../src/bot/price-list/content.ts";
import { priceListPng } from "../src/bot/price-list/picture.ts";
import { receiptOf } from "../src/bot/receipts/receipt.ts";
import { receiptPng } from "../src/bot/receipts/render.ts";
import { createI18n, translator } from "../src/bot/ui/i18n.ts";
import type { Order } from "../src/commerce/orders/types.ts";
import { median, printTable } from "./table.ts";

const { values } = parseArgs({ options: { reps: { type: "string", default: "30" } } });
const REPS = Number(values.reps);
const t = translator(createI18n(), "id");
const at = new Date("2026-11-24T03:15:00Z");
const base = {
  id: 1,
  refId: "K01BENCHRECEIPT000000000001",
  confirmKey: "Q1",
  userId: 1,
  chatId: 1,
  messageId: 1,
  kind: "prepaid",
  productCode: "TSEL10",
  productName: "Telkomsel 10.000",
  destination: "081234567901",
  price: 10_400,
  cost: 10_100,
  status: "success",
  testing: false,
  inquiryId: null,
  sn: "98765432101234567890",
  supplierPrice: 10_100,
  createdAt: at,
  finalAt: at,
} as unknown as Order;
const receipts = {
  airtime: receiptOf(t, { order: base, shop: "Toko Kios" }),
  "PLN token": receiptOf(t, {
    order: { ...base, productName: "PLN 20.000", sn: "12345678901234567890/BUDI/R1/1300/13.4" },
    shop: "Toko Kios",
  }),
  "bill, two periods": receiptOf(t, {
    order: { ...base, kind: "bill", productName: "PLN Pascabayar", sn: "REF-1" },
    shop: "Toko Kios",
    bill: {
      customerName: "SITI",
      tagihan: 245_000,
      admin: 5_000,
      total: 250_000,
      details: {
        lembarTagihan: 2,
        detail: [
          { periode: "202610", nilaiTagihan: 120_000, denda: 5_000 },
          { periode: "202611", nilaiTagihan: 120_000 },
        ],
      },
    },
  }),
};
const FLOOR_SVG = `<svg xmlns="http://www.w3.org/2000/svg" width="480" height="560"><rect width="480" height="560" fill="#fff"/><rect x="28" y="28" width="424" height="40" fill="#eee"/></svg>`;

await receiptPng(receipts.airtime); // fonts loaded once, as a running bot has them
const rows: string[][] = [];
for (const [name, r] of Object.entries(receipts)) {
  const ms: number[] = [];
  const floor: number[] = [];
  let bytes = 0;
  for (let i = 0; i < REPS; i++) {
    let began = performance.now();
    bytes = (await receiptPng(r)).length;
    ms.push(performance.now() - began);
    began = performance.now();
    new Resvg(FLOOR_SVG).render().asPng();
    floor.push(performance.now() - began);
  }
  const m = median(ms);
  rows.push([
    name,
    m.toFixed(1),
    median(floor).toFixed(1),
    (m / median(floor)).toFixed(1),
    (bytes / 1024).toFixed(1),
    "< 150 ms, < 100 KB",
    m < 150 && bytes < 100 * 1024 ? "yes" : "no",
  ]);
}
printTable(
  `one receipt drawn (medians of ${REPS})`,
  ["receipt", "ms", "resvg alone, ms", "ratio", "KB", "goal", "met"],
  rows,
);

// the /harga picture: 150 rows (a picture's most) written as SVG text and drawn by resvg
// on libuv's pool. "event loop" is the part the bot's thread spends before it is free
// again; the floor is resvg drawing a blank picture of the same size.
const ROWS = 150;
const list = priceListPictureOf(t, {
  shop: "Toko Kios",
  scope: { brand: "TELKOMSEL" },
  items: Array.from({ length: ROWS }, (_, i) => ({
    code: `TSELD${i}`,
    name: `Telkomsel Data ${i + 1} GB 30 Hari`,
    category: i < 40 ? "Pulsa" : "Data",
    brand: "TELKOMSEL",
    type: "prepaid" as const,
    operator: "telkomsel" as const,
    description: "",
    startCutOff: i % 25 === 0 ? "00:00" : null,
    endCutOff: i % 25 === 0 ? "23:59" : null,
    pausedUntil: null,
    supplierPrice: 0,
    price: 5_000 + i * 1_000,
  })),
  total: 300,
  now: at.getTime(),
  markup: 0,
});
await priceListPng(list);
const total: number[] = [];
const sync: number[] = [];
const blank: number[] = [];
let listBytes = 0;
let listHeight = 0;
for (let i = 0; i < Math.max(5, Math.floor(REPS / 3)); i++) {
  let began = performance.now();
  const pending = priceListPng(list);
  sync.push(performance.now() - began);
  const png = await pending;
  total.push(performance.now() - began);
  listBytes = png.length;
  listHeight = png.readUInt32BE(20);
  began = performance.now();
  new Resvg(
    `<svg xmlns="http://www.w3.org/2000/svg" width="600" height="${listHeight}"><rect width="600" height="${listHeight}" fill="#fff"/></svg>`,
  )
    .render()
    .asPng();
  blank.push(performance.now() - began);
}
printTable(
  `a ${ROWS}-row price-list picture, 600×${listHeight} (medians)`,
  ["measure", "ms", "blank picture, ms", "ratio", "KB"],
  [
    [
      "drawn, in all",
      median(total).toFixed(1),
      median(blank).toFixed(1),
      (median(total) / median(blank)).toFixed(1),
      (listBytes / 1024).toFixed(1),
    ],
    ["of it on the event loop", median(sync).toFixed(1), "", "", ""],
  ],
);
