import { declined, ok } from "./envelope.ts";
import type { StoredTransaction } from "./store.ts";
import { formatWib } from "./time.ts";
import type { Reply } from "./types.ts";

// the wire shapes of an order result and a bill payment result, and the codes they go with.

const CAPITALISED = { pending: "Pending", success: "Success", failed: "Failed" } as const;

/** as sent in a reply, a status query or a callback; `as` shows an earlier state (stale callbacks) */
export function wireResult(
  t: StoredTransaction,
  as: StoredTransaction["status"] = t.status,
): Record<string, unknown> {
  const sn = as === "success" ? t.serial : null;
  if (t.kind === "order") {
    return {
      ref_id: t.refId,
      status: CAPITALISED[as],
      customer_no: t.customerNo,
      code: t.code,
      name: t.name,
      price: t.price,
      sn,
      ...failureReason(t, as),
      created_at: formatWib(t.createdAt),
    };
  }
  const bill = t.bill!;
  return {
    ref_id: t.refId,
    status: as,
    customer_no: t.customerNo,
    customer_name: bill.customerName,
    code: t.code,
    tagihan: bill.tagihan,
    admin: bill.admin,
    total: bill.total,
    sn,
    // desc is absent in the pending result (docs/supplier.md#replies)
    ...(as === "pending" ? {} : { desc: bill.desc }),
    ...failureReason(t, as),
    created_at: formatWib(t.createdAt),
  };
}

/** a failed record's machine-readable reason, when its outcome has one (docs/supplier.md) */
export function failureReason(
  t: StoredTransaction,
  as: StoredTransaction["status"] = t.status,
): { reason?: string } {
  return as === "failed" && t.rule.reason ? { reason: t.rule.reason } : {};
}

const MESSAGES = {
  order: {
    pending: "order is being processed",
    success: "order succeeded",
    failed: "order failed; the balance was refunded",
  },
  bill: {
    pending: "bill payment is being processed",
    success: "bill paid",
    failed: "bill payment failed; the balance was refunded",
  },
} as const;

/**
 * the reply carrying a transaction. `via: "pay"` follows docs/supplier.md#replies for a failed bill
 * payment (data null); a status query always shows the record.
 */
export function transactionReply(t: StoredTransaction, via: "submit" | "status"): Reply {
  const prefix = t.kind === "order" ? "ORDER" : "BILL_PAYMENT";
  const code = `${prefix}_${t.status.toUpperCase()}`;
  const message = MESSAGES[t.kind][t.status];
  if (t.status === "failed") {
    const data = t.kind === "bill" && via === "submit" ? null : wireResult(t);
    return declined(code, message, data);
  }
  return ok(code, message, wireResult(t));
}
