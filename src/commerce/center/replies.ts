import { formatRupiah } from "../../supplier/amounts.ts";
import type { FailureReason } from "../../supplier/types.ts";
import type { H2hRefusal } from "../h2h/orders.ts";
import { wireStatusOf } from "../h2h/records.ts";
import { type Failure, failureOf } from "../orders/failure.ts";
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

// why a failed order failed, in words a reseller can act on (send to another number, pick
// another product, try later): the supplier's reason on the order's last attempt when it
// gave one (OUT_OF_STOCK, WRONG_OPERATOR, …), else the kind the chat tells the buyer
// (orders/failure.ts). Never the supplier's own text: it is for admins only.

const ATTEMPT_REASON_WORDS: Record<FailureReason, string> = {
  OUT_OF_STOCK: "stok produk habis",
  PRODUCT_DISRUPTED: "produk sedang gangguan",
  SUPPLIER_ERROR: "gangguan di supplier, coba lagi nanti",
  INVALID_CUSTOMER_NO: "nomor tujuan salah",
  WRONG_OPERATOR: "nomor bukan operator produk ini",
  WRONG_METER: "nomor meter salah",
};

const KIND_WORDS: Record<Failure["kind"], string> = {
  destination: "nomor tujuan salah",
  product: "produk tidak tersedia atau sedang cut-off",
  bill: "sesi tagihan habis, cek ulang tagihannya",
  "not-processed": "tidak diproses supplier",
  service: "layanan supplier sedang gangguan, coba lagi nanti",
  supplier: "gagal di supplier",
  unknown: "transaksi gagal",
};

/** every reason a failed order's answer may give (docs/center.md lists them) */
export const FAILED_ORDER_REASONS: readonly string[] = [
  ...new Set([...Object.values(ATTEMPT_REASON_WORDS), ...Object.values(KIND_WORDS)]),
  "dibatalkan admin",
].map((w) => `${w}, saldo dikembalikan`);

/**
 * a failed order's reason; `attemptReason` is its last attempt's machine-readable reason
 * (order_attempts.reason, lookups.ts failedOrderReason), null when the supplier gave none
 */
export function failedReasonText(order: Order, attemptReason?: string | null): string {
  const given =
    attemptReason && attemptReason in ATTEMPT_REASON_WORDS
      ? ATTEMPT_REASON_WORDS[attemptReason as FailureReason]
      : undefined;
  const admin = order.failureReason?.startsWith("refunded by admin")
    ? "dibatalkan admin"
    : undefined;
  return `${given ?? admin ?? KIND_WORDS[failureOf(order).kind]}, saldo dikembalikan`;
}

/**
 * an order's answer line. `attemptReason`: see failedReasonText; the callers read it with
 * the order (lookups.ts orderReply), so every answer and report of a failure says why
 */
export function orderText(
  order: Order,
  refId: string,
  balance: number,
  attemptReason?: string | null,
): string {
  const status = wireStatusOf(order);
  const head = `R#${refId} ${order.productCode}.${order.destination} ${STATUS_WORD[status]}.`;
  if (status === "failed") {
    return `${head} Alasan: ${failedReasonText(order, attemptReason)}. Saldo ${dotted(balance)}`;
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

/**
 * why an order text was not run at all (its PIN, or its form): each of its orders is
 * answered GAGAL with this, its R# echoed, so the reseller's software matches the answer
 */
export type OrderNotRun =
  | { why: "pin_wrong"; left: number }
  /** until: a WIB time ("14:05 WIB"); justLocked: this very text's wrong PIN locked it */
  | { why: "pin_locked"; until: string; justLocked: boolean }
  | { why: "no_pin" }
  | { why: "pin_changed" }
  | { why: "format" }
  | { why: "pin_only_last" }
  | { why: "ref_repeated"; ref: string }
  | { why: "too_many"; max: number };

function notRunWords(r: OrderNotRun): string {
  switch (r.why) {
    case "pin_wrong":
      return `PIN salah (sisa ${r.left})`;
    case "pin_locked":
      return r.justLocked
        ? `PIN salah 5 kali, terkunci sampai ${r.until}`
        : `PIN terkunci sampai ${r.until}`;
    case "no_pin":
      return "PIN belum dibuat, buat dengan /pin";
    case "pin_changed":
      return "PIN baru saja diganti, kirim lagi";
    case "format":
      return "format salah, pakai KODE.TUJUAN.PIN";
    case "pin_only_last":
      return "PIN cukup sekali, di akhir pesan";
    case "ref_repeated":
      return `R#${r.ref} dipakai dua kali dalam satu pesan`;
    case "too_many":
      return `paling banyak ${r.max} pesanan dalam satu pesan`;
  }
}

/** the answer of an order text that was not run: one GAGAL line per order, nothing held */
export function notRunText(
  lines: readonly { ref?: string | undefined; product: string; dest: string }[],
  r: OrderNotRun,
  balance: number,
): string {
  const why = oneLine(notRunWords(r));
  return lines
    .map(
      (l) =>
        `R#${oneLine(l.ref ?? "-")} ${l.product}.${l.dest} GAGAL. Alasan: ${why}. Saldo ${dotted(balance)}`,
    )
    .join("\n");
}

/** the balance line both doors answer */
export function balanceText(balance: number): string {
  return `Saldo ${dotted(balance)}`;
}

/** a reference kios has no order for: not GAGAL, a request with it may be on its way */
export function notFoundText(ref: string, balance: number): string {
  return `R#${ref} TIDAK DITEMUKAN. Saldo ${dotted(balance)}`;
}
