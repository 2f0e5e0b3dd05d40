import { describe, expect, it } from "vitest";
import {
  FAILED_ORDER_REASONS,
  failedReasonText,
  notRunText,
  orderText,
} from "../../../src/commerce/center/replies.ts";
import type { Order } from "../../../src/commerce/orders/types.ts";

// a failed order's answer says why in words a reseller can act on (the same on the chat's
// text commands, the OtomaX door's replies and its reports): the supplier's reason on the
// order's last attempt, else the kind the chat tells its buyer; never the supplier's text

const failed = (o: Partial<Order>): Order =>
  ({
    status: "failed",
    productCode: "TSEL10",
    destination: "081234567890",
    price: 10_350,
    sn: null,
    supplierCode: null,
    supplierMessage: null,
    failureReason: null,
    ...o,
  }) as Order;

describe("a failed order's reason", () => {
  it.each([
    [{ supplierCode: "ORDER_FAILED", supplierMessage: "x" }, "OUT_OF_STOCK", "stok produk habis"],
    [{ supplierCode: "53", supplierMessage: "Stok kosong" }, "OUT_OF_STOCK", "stok produk habis"],
    [{ supplierCode: "ORDER_FAILED" }, "PRODUCT_DISRUPTED", "produk sedang gangguan"],
    [{ supplierCode: "ORDER_FAILED" }, "SUPPLIER_ERROR", "gangguan di supplier, coba lagi nanti"],
    [{ supplierCode: "ORDER_FAILED" }, "INVALID_CUSTOMER_NO", "nomor tujuan salah"],
    [{ supplierCode: "52" }, "WRONG_OPERATOR", "nomor bukan operator produk ini"],
    [{ supplierCode: "73" }, "WRONG_METER", "nomor meter salah"],
    // no reason on the attempt: the order's own code, as the chat reads it
    [{ supplierCode: "INVALID_CUSTOMER_NO" }, null, "nomor tujuan salah"],
    [{ supplierCode: "PRODUCT_INACTIVE" }, null, "produk tidak tersedia atau sedang cut-off"],
    [{ supplierCode: "INQUIRY_EXPIRED" }, null, "sesi tagihan habis, cek ulang tagihannya"],
    [
      { supplierCode: "INSUFFICIENT_BALANCE" },
      null,
      "layanan supplier sedang gangguan, coba lagi nanti",
    ],
    [{ supplierCode: "ORDER_FAILED", supplierMessage: "Gagal" }, null, "gagal di supplier"],
    [
      { failureReason: "interrupted before it was sent to the supplier" },
      null,
      "tidak diproses supplier",
    ],
    [
      {
        supplierCode: "TRANSACTION_NOT_FOUND",
        failureReason: "refunded by admin 1: the supplier has no record of it",
      },
      null,
      "dibatalkan admin",
    ],
    [{}, null, "transaksi gagal"],
    // a reason kios does not know is no reason
    [{ supplierCode: "INVALID_CUSTOMER_NO" }, "SOMETHING_NEW", "nomor tujuan salah"],
  ])("%j with %s: %s", (order, attemptReason, words) => {
    const o = failed(order as Partial<Order>);
    expect(failedReasonText(o, attemptReason)).toBe(`${words}, saldo dikembalikan`);
    expect(FAILED_ORDER_REASONS).toContain(`${words}, saldo dikembalikan`);
    expect(orderText(o, "A1", 5_000, attemptReason)).toBe(
      `R#A1 TSEL10.081234567890 GAGAL. Alasan: ${words}, saldo dikembalikan. Saldo 5.000`,
    );
  });

  it("never shows the supplier's own words", () => {
    const o = failed({ supplierCode: "ORDER_FAILED", supplierMessage: "Internal error 0xDEAD" });
    expect(orderText(o, "A1", 0, null)).not.toContain("0xDEAD");
  });
});

describe("an order text not run", () => {
  it("answers each order with its R# (or -), one line each", () => {
    const text = notRunText(
      [
        { ref: "A1", product: "TSEL10", dest: "081234567890" },
        { product: "XL5", dest: "081299990000" },
      ],
      { why: "pin_wrong", left: 3 },
      12_500,
    );
    expect(text.split("\n")).toEqual([
      "R#A1 TSEL10.081234567890 GAGAL. Alasan: PIN salah (sisa 3). Saldo 12.500",
      "R#- XL5.081299990000 GAGAL. Alasan: PIN salah (sisa 3). Saldo 12.500",
    ]);
  });
});
