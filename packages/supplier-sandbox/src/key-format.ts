import { createHash } from "node:crypto";
import { failureReason } from "./results.ts";
import type { InquirySession, StoredTransaction } from "./store.ts";
import { formatIsoWib } from "./time.ts";
import type { HttpStatus, KeyEnvelope, KeyReply, Reply } from "./types.ts";

// the key-based interface's wire shapes: the envelope (status, rc, message, data), the rc of
// each code of kios's supplier decisions, the transaction record and the inquiry result. The handlers behind it
// are the signature interface's; their answers are translated here.

/** the codes as the key interface's rc (docs/supplier.md) */
export const KEY_RC: Readonly<Record<string, string>> = {
  SUCCESS: "00",
  INQUIRY_SUCCESS: "00",
  ORDER_SUCCESS: "00",
  BILL_PAYMENT_SUCCESS: "00",
  ORDER_FAILED: "02",
  BILL_PAYMENT_FAILED: "02",
  ORDER_PENDING: "03",
  BILL_PAYMENT_PENDING: "03",
  VALIDATION_ERROR: "10",
  UNAUTHORIZED: "20",
  INVALID_API_KEY: "21",
  INSUFFICIENT_BALANCE: "30",
  PRODUCT_NOT_FOUND: "31",
  PRODUCT_INACTIVE: "32",
  INVALID_CUSTOMER_NO: "33",
  INQUIRY_FAILED: "40",
  INQUIRY_NOT_FOUND: "41",
  INQUIRY_EXPIRED: "42",
  INQUIRY_MISMATCH: "43",
  TRANSACTION_NOT_FOUND: "50",
  GONE: "60",
  RATE_LIMITED: "70",
  NOT_FOUND: "80",
  SERVER_ERROR: "99",
};

function envelopeStatus(rc: string): KeyEnvelope["status"] {
  if (rc === "00") return "success";
  return rc === "03" ? "pending" : "failed";
}

export function keyOk(
  data: unknown,
  message: string,
  extra: Pick<KeyEnvelope, "meta"> = {},
): KeyReply {
  return { status: 200, body: { status: "success", rc: "00", message, data, ...extra } };
}

/** an answer without data: a refusal or a fault, by code */
export function keyFailure(
  status: HttpStatus,
  code: string,
  message: string,
  errors?: Record<string, string[]>,
): KeyReply {
  const rc = KEY_RC[code] ?? "99";
  return {
    status,
    body: { status: envelopeStatus(rc), rc, message, data: null, errors },
  };
}

export function keyValidationError(errors: Record<string, string[]>): KeyReply {
  return keyFailure(
    400,
    "VALIDATION_ERROR",
    `invalid request: ${Object.keys(errors).join(", ")}`,
    errors,
  );
}

export const KEY_SERVER_ERROR_BODY: KeyEnvelope = {
  status: "failed",
  rc: "99",
  message: "internal server error",
  data: null,
};

// the signature handlers speak of code and customer_no; the key interface names them so
const KEY_FIELD: Readonly<Record<string, string>> = {
  code: "product_code",
  customer_no: "customer_id",
};

function keyWords(text: string): string {
  return text.replace(/\bcustomer_no\b/g, "customer_id").replace(/\bcode\b/g, "product_code");
}

/** a signature handler's refusal (any non-transaction answer) in the key interface's form */
export function keyFromReply(reply: Reply): KeyReply {
  const { code, message, errors } = reply.body;
  const renamed = errors
    ? Object.fromEntries(Object.entries(errors).map(([f, list]) => [KEY_FIELD[f] ?? f, list]))
    : undefined;
  return keyFailure(reply.status, code, keyWords(message), renamed);
}

/** the supplier's own transaction id: stable per account and ref_id */
export function trxIdFor(apiId: string, refId: string): string {
  const hash = createHash("sha256").update(`${apiId}\u0000${refId}`, "utf8").digest("hex");
  return `T${hash.slice(0, 19).toUpperCase()}`;
}

/**
 * the transaction record (docs/supplier.md#the-transaction-record), plus `type` and, for bill payments, the bill. A
 * pending transaction is `pending` in the reply that created it and `processing` after.
 */
function keyRecord(t: StoredTransaction, view: "created" | "later"): Record<string, unknown> {
  const status = t.status === "pending" && view === "later" ? "processing" : t.status;
  const record: Record<string, unknown> = {
    trx_id: trxIdFor(t.apiId, t.refId),
    ref_id: t.refId,
    product_code: t.code,
    product_name: t.name,
    customer_id: t.customerNo,
    type: t.kind === "bill" ? "pasca" : t.cmd,
    price: t.price,
    status,
    // sn is a string: empty until success (docs/supplier.md#the-transaction-record)
    sn: t.status === "success" ? t.serial : "",
    ...failureReason(t),
    created_at: formatIsoWib(t.createdAt),
  };
  if (t.kind === "bill" && t.bill) {
    Object.assign(record, {
      customer_name: t.bill.customerName,
      tagihan: t.bill.tagihan,
      admin: t.bill.admin,
      total: t.bill.total,
      desc: t.bill.desc,
    });
  }
  return record;
}

const MESSAGES = {
  pending: "transaction is being processed",
  success: "transaction succeeded",
  failed: "transaction failed; the balance was refunded",
} as const;

const STATE_RC = { success: "00", pending: "03", failed: "02" } as const;

/** a transaction answer: rc 00 success, 03 pending, 02 failed; always with the record */
export function keyTransactionReply(t: StoredTransaction, view: "created" | "later"): KeyReply {
  const rc = STATE_RC[t.status];
  return {
    status: 200,
    body: { status: envelopeStatus(rc), rc, message: MESSAGES[t.status], data: keyRecord(t, view) },
  };
}

export function keyInquiryReply(s: InquirySession): KeyReply {
  return keyOk(
    {
      ref_id: s.refId,
      product_code: s.code,
      customer_id: s.customerNo,
      customer_name: s.bill.customerName,
      tagihan: s.bill.tagihan,
      admin: s.bill.admin,
      total: s.bill.total,
      desc: s.bill.desc,
      expires_at: formatIsoWib(s.expiresAt),
    },
    "bill found",
  );
}
