import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { type BillInquiry, receiptOf } from "../../../src/bot/receipts/receipt.ts";
import { receiptPng } from "../../../src/bot/receipts/render.ts";
import { createI18n, translator } from "../../../src/bot/ui/i18n.ts";
import type { Order } from "../../../src/commerce/orders/types.ts";
import { pngSize } from "../../helpers/png.ts";

// receipts (struk) from known orders: an airtime order, a PLN token and a two-period bill.
// Each is checked as text (what the receipt says) and as a picture (a PNG that decodes, in
// bounds), and saved under test-results/ to look at.

const t = translator(createI18n(), "id");
const SCREENSHOTS = "test-results";

function order(over: Partial<Order>): Order {
  const at = new Date("2026-11-24T03:15:00Z");
  return {
    id: 1,
    refId: "K01TESTRECEIPT0000000000001",
    confirmKey: "Q1",
    userId: 100,
    chatId: 100,
    messageId: 10,
    kind: "prepaid",
    productCode: "TSEL10",
    productName: "Telkomsel 10.000",
    destination: "081234567901",
    price: 10_400,
    cost: 10_100,
    status: "success",
    testing: false,
    inquiryId: null,
    billKey: null,
    bill: null,
    requestTimestamp: null,
    sn: "98765432101234567890",
    supplierCode: null,
    supplierMessage: null,
    failureReason: null,
    supplierPrice: 10_100,
    checks: 0,
    nextCheckAt: null,
    flaggedAt: null,
    decision: null,
    decidedBy: null,
    decidedAt: null,
    createdAt: at,
    submittedAt: at,
    finalAt: at,
    updatedAt: at,
    ...over,
  } as Order;
}

async function drawn(name: string, r: ReturnType<typeof receiptOf>) {
  const png = await receiptPng(r);
  mkdirSync(SCREENSHOTS, { recursive: true });
  writeFileSync(join(SCREENSHOTS, `receipt-${name}.png`), png);
  const size = pngSize(png);
  expect(size.width).toBe(480);
  expect(size.height).toBeGreaterThan(300);
  expect(size.height).toBeLessThan(1400);
  expect(png.length).toBeLessThan(100 * 1024);
  return png;
}

describe("receipts", () => {
  it("an airtime order: shop, WIB time, product, number, price, SN and ref", async () => {
    const r = receiptOf(t, { order: order({}), shop: "Toko Kios" });
    expect(r).toMatchObject({
      shop: "Toko Kios",
      title: "Struk pembelian",
      when: "24/11/2026 10:15 WIB",
    });
    expect(r.rows).toEqual([
      ["Produk", "Telkomsel 10.000"],
      ["Tujuan", "081234567901"],
      ["SN", "98765432101234567890"],
      ["Ref", "K01TESTRECEIPT0000000000001"],
    ]);
    expect(r.total).toEqual(["Total bayar", "Rp10.400"]);
    await drawn("airtime", r);
    // a reseller prints their own price
    expect(receiptOf(t, { order: order({}), shop: "Toko Budi", price: 12_000 }).total[1]).toBe(
      "Rp12.000",
    );
  });

  it("a PLN token: grouped in fours, with name, tariff/power and kWh", async () => {
    const r = receiptOf(t, {
      order: order({
        productCode: "PLN20",
        productName: "PLN 20.000",
        destination: "12345678901",
        sn: "12345678901234567890/BUDI SANTOSO/R1/1300/13.4",
        price: 20_500,
      }),
      shop: "Toko Kios",
    });
    expect(r.token).toBe("1234 5678 9012 3456 7890");
    expect(r.rows).toContainEqual(["Nama", "BUDI SANTOSO"]);
    expect(r.rows).toContainEqual(["Tarif/Daya", "R1 / 1300"]);
    expect(r.rows).toContainEqual(["kWh", "13.4"]);
    await drawn("pln-token", r);
  });

  it("a bill of two periods: name, each period with its penalty, the admin fee and the total", async () => {
    const bill: BillInquiry = {
      customerName: "SITI AMINAH",
      tagihan: 250_000,
      admin: 5_000,
      total: 255_000,
      details: {
        lembarTagihan: 2,
        detail: [
          { periode: "202610", nilaiTagihan: 120_000, denda: 5_000 },
          { periode: "202611", nilaiTagihan: 125_000 },
        ],
      },
    };
    const r = receiptOf(t, {
      order: order({
        kind: "bill",
        productCode: "PLNPOST",
        productName: "PLN Pascabayar",
        destination: "532100004901",
        sn: "BILL-REF-778899",
        price: 255_000,
      }),
      shop: "Toko Kios",
      bill,
    });
    expect(r.rows).toContainEqual(["No. pelanggan", "532100004901"]);
    expect(r.rows).toContainEqual(["Nama", "SITI AMINAH"]);
    expect(r.periods).toEqual([
      ["Periode Oktober 2026 (denda Rp5.000)", "Rp125.000"],
      ["Periode November 2026", "Rp125.000"],
      ["Biaya admin", "Rp5.000"],
    ]);
    expect(r.total).toEqual(["Total bayar", "Rp255.000"]);
    await drawn("bill", r);
  });

  it("speaks the buyer's language", () => {
    const en = translator(createI18n(), "en");
    const r = receiptOf(en, { order: order({}), shop: "Kios" });
    expect(r.title).toBe("Purchase receipt");
    expect(r.total[0]).toBe("Total paid");
  });
});
