import { formatRupiah } from "../../supplier/amounts.ts";
import type { H2hRefusal } from "../h2h/orders.ts";
import { wireStatusOf } from "../h2h/records.ts";
import type { Order } from "../orders/types.ts";
import type { TextRefusal } from "./text-orders.ts";

// the OtomaX-family door's plain-text replies (docs/center.md#replies), one line each, so a
// reseller's software reads every one with the one pattern docs/center.md gives:
//   R#<refID> <product>.<dest> PROSES. Harga <price>. Saldo <balance>
//   R#<refID> <product>.<dest> SUKSES. SN: <sn>. Harga <price>. Saldo <balance>
//   R#<refID> <product>.<dest> GAGAL. Alasan: <reason>. Saldo <balance>
// These words are the wire format (the software's parser matches them), not chat text: they
// don't follow the user's language.

const STATUS_WORD = { pending: "PROSES", success: "SUKSES", failed: "GAGAL" } as const;

/** the status word an order's answer says now */
export function statusWord(order: Order): (typeof STATUS_WORD)[keyof typeof STATUS_WORD] {
  return STATUS_WORD[wireStatusOf(order)];
}

/** 1234567 → "1.234.567" */
export function dotted(n: number): string {
  return formatRupiah(n).replace("Rp", "");
}

/** an SN or a reason is one line, and never carries the ". Saldo" the pattern splits on */
function oneLine(s: string): string {
  return s.replace(/\s+/g, " ").trim();
}

export function orderText(order: Order, refId: string, balance: number): string {
  const status = wireStatusOf(order);
  const head = `R#${refId} ${order.productCode}.${order.destination} ${STATUS_WORD[status]}.`;
  if (status === "failed") {
    return `${head} Alasan: transaksi gagal, saldo dikembalikan. Saldo ${dotted(balance)}`;
  }
  const sn = status === "success" ? ` SN: ${oneLine(order.sn ?? "-")}.` : "";
  return `${head}${sn} Harga ${dotted(order.price)}. Saldo ${dotted(balance)}`;
}

/**
 * a refID held by a request still before its order (its claim): PROSES for the request as
 * that request named it; its order's answer (a repeat, check=1) and report follow
 */
export function inFlightText(
  row: { refId: string; productCode: string; customerNo: string },
  balance: number,
): string {
  return `R#${row.refId} ${row.productCode}.${row.customerNo} PROSES. Saldo ${dotted(balance)}`;
}

const REASONS: Record<H2hRefusal["code"], string> = {
  PRODUCT_NOT_FOUND: "kode produk tidak ada",
  PRODUCT_INACTIVE: "produk sedang gangguan",
  INVALID_CUSTOMER_NO: "nomor tujuan salah",
  INSUFFICIENT_BALANCE: "saldo tidak cukup",
  INQUIRY_FAILED: "tagihan tidak bisa dibayar",
  INQUIRY_NOT_FOUND: "tagihan tidak ditemukan",
  INQUIRY_EXPIRED: "tagihan kedaluwarsa",
  INQUIRY_MISMATCH: "tagihan tidak cocok",
  VALIDATION_ERROR: "refID sudah dipakai transaksi lain",
  SERVER_ERROR: "sedang gangguan, coba lagi",
};

/** a request that made no order: nothing was held, and the refID stays free */
export function refusalText(
  r: H2hRefusal,
  req: { refId: string; product: string; dest: string },
  balance: number,
): string {
  return `R#${req.refId} ${req.product}.${req.dest} GAGAL. Alasan: ${REASONS[r.code]}. Saldo ${dotted(balance)}`;
}

// the chat's text commands answer in the same form (docs/center.md#text-commands): the
// R# slot holds the reseller's own reference, else kios's order reference, else "-"

const TEXT_REASONS: Record<TextRefusal, string> = {
  unknown_code: REASONS.PRODUCT_NOT_FOUND,
  bill_code: "produk tagihan, bayar lewat menu Tagihan",
  inactive: REASONS.PRODUCT_INACTIVE,
  invalid_destination: REASONS.INVALID_CUSTOMER_NO,
  insufficient_balance: REASONS.INSUFFICIENT_BALANCE,
  bought_today: "sudah dibeli hari ini, ulangi dengan KODE.<ke-berapa>.TUJUAN.PIN",
  try_again: REASONS.SERVER_ERROR,
};

/** a text order that made no order: nothing was held, and its R# stays free */
export function textRefusalText(
  reason: TextRefusal,
  req: { ref?: string | undefined; product: string; dest: string; boughtToday?: number },
  balance: number,
): string {
  const why =
    reason === "bought_today" && req.boughtToday !== undefined
      ? `sudah dibeli ${req.boughtToday}x hari ini, ulangi dengan ${req.product}.${req.boughtToday + 1}.${req.dest}.PIN`
      : TEXT_REASONS[reason];
  return `R#${req.ref ?? "-"} ${req.product}.${req.dest} GAGAL. Alasan: ${oneLine(why)}. Saldo ${dotted(balance)}`;
}

/** the balance line both doors answer */
export function balanceText(balance: number): string {
  return `Saldo ${dotted(balance)}`;
}

/** a reference kios has no order for: not GAGAL, a request with it may be on its way */
export function notFoundText(ref: string, balance: number): string {
  return `R#${ref} TIDAK DITEMUKAN. Saldo ${dotted(balance)}`;
}
