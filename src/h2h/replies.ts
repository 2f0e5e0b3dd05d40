import {
  type BillOfOrder,
  formatWib,
  wireDesc,
  wireRecord,
  wireStatusOf,
} from "../commerce/h2h/records.ts";
import type { Order, Quote } from "../commerce/orders/types.ts";
import { declined, ok, type Reply } from "./envelope.ts";

// the replies that carry a transaction or an inquiry (docs/supplier.md#replies)

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

/** the reply carrying a transaction; a failed bill payment's own answer has data null */
export function transactionReply(
  order: Order,
  refId: string,
  bill: BillOfOrder | undefined,
  via: "submit" | "status",
): Reply {
  const kind = order.kind === "bill" ? "bill" : "order";
  const status = wireStatusOf(order);
  const code = `${kind === "order" ? "ORDER" : "BILL_PAYMENT"}_${status.toUpperCase()}`;
  const message = MESSAGES[kind][status];
  if (status === "failed") {
    return declined(
      code,
      message,
      kind === "bill" && via === "submit" ? null : wireRecord(order, refId, bill),
    );
  }
  return ok(code, message, wireRecord(order, refId, bill));
}

/**
 * ORDER_PENDING for a ref_id held by a request still before its order (its claim): the
 * request as that request named it, at the reseller's listed price for it (0 when the code
 * lists nothing: that request will be refused and the ref_id let go)
 */
export function inFlightReply(
  row: { refId: string; productCode: string; customerNo: string; claimedAt: Date },
  product: { code: string; name: string; price: number } | undefined,
): Reply {
  return ok("ORDER_PENDING", MESSAGES.order.pending, {
    ref_id: row.refId,
    status: "Pending",
    customer_no: row.customerNo,
    code: product?.code ?? row.productCode,
    name: product?.name ?? row.productCode,
    price: product?.price ?? 0,
    sn: null,
    created_at: formatWib(row.claimedAt.getTime()),
  });
}

/** INQUIRY_SUCCESS: the bill at the reseller's price */
export function inquiryReply(quote: Quote, refId: string): Reply {
  const bill = quote.bill!;
  return ok("INQUIRY_SUCCESS", "bill found", {
    ref_id: refId,
    customer_no: quote.destination,
    customer_name: bill.customerName,
    code: quote.productCode,
    tagihan: bill.tagihan,
    admin: bill.admin,
    total: quote.price,
    desc: wireDesc(bill.details),
    expires_at: formatWib(quote.expiresAt.getTime()),
  });
}
