import { billFor, hasBill } from "./bill-data.ts";
import { validBillCustomer } from "./customer.ts";
import { declined, failure, ok, validationError } from "./envelope.ts";
import { type Caller, type OrderDeps, record } from "./orders.ts";
import { transactionReply } from "./results.ts";
import { serialFor } from "./serial.ts";
import type { InquirySession } from "./store.ts";
import { formatWib } from "./time.ts";
import type { Reply } from "./types.ts";
import { inquiryParams, parseParams, payParams } from "./validation.ts";

// cmd inquiry and pay-pasca on /v1/order: a 5-minute session, then one payment per ref_id.

const INQUIRY_WINDOW_MS = 5 * 60 * 1000;

function inquiryReply(s: InquirySession): Reply {
  return ok("INQUIRY_SUCCESS", "bill found", {
    ref_id: s.refId,
    customer_no: s.customerNo,
    customer_name: s.bill.customerName,
    code: s.code,
    tagihan: s.bill.tagihan,
    admin: s.bill.admin,
    total: s.bill.total,
    desc: s.bill.desc,
    expires_at: formatWib(s.expiresAt),
  });
}

export function inquire(deps: OrderDeps, caller: Caller, body: Record<string, unknown>): Reply {
  const parsed = parseParams(inquiryParams, body);
  if (!parsed.ok) return parsed.reply;
  const { code, customer_no: customerNo } = parsed.value;
  const apiId = caller.account.apiId;
  const givenRef = parsed.value.ref_id || undefined;

  if (givenRef) {
    // the same session, even after it expired: a fresh inquiry needs a fresh ref_id
    const existing = deps.store.inquiry(apiId, givenRef);
    if (existing) return inquiryReply(existing);
    if (deps.store.transaction(apiId, givenRef)) {
      return validationError({ ref_id: ["is already used by an order"] });
    }
  }

  const entry = deps.catalogue.get(code);
  if (entry?.product.type !== "pasca") {
    return failure(404, "PRODUCT_NOT_FOUND", `no pasca product with code ${code}`);
  }
  if (entry.product.status !== "active") {
    return declined("PRODUCT_INACTIVE", `product ${code} is not available now`);
  }
  if (!validBillCustomer(customerNo)) {
    return declined("INVALID_CUSTOMER_NO", `customer_no is not valid for ${code}`);
  }
  if (!hasBill(customerNo)) return declined("INQUIRY_FAILED", "no bill is due for this customer");

  const now = deps.clock.now();
  const session: InquirySession = {
    apiId,
    refId: givenRef ?? deps.store.newRefId(now),
    code,
    customerNo,
    bill: billFor(entry, customerNo, now),
    createdAt: now,
    expiresAt: now + INQUIRY_WINDOW_MS,
  };
  deps.store.addInquiry(session);
  return inquiryReply(session);
}

export function payBill(deps: OrderDeps, caller: Caller, body: Record<string, unknown>): Reply {
  const parsed = parseParams(payParams, body);
  if (!parsed.ok) return parsed.reply;
  const { code, customer_no: customerNo, ref_id: refId, testing = false } = parsed.value;
  const apiId = caller.account.apiId;

  const session = deps.store.inquiry(apiId, refId);
  if (!session) return failure(404, "INQUIRY_NOT_FOUND", `no inquiry with ref_id ${refId}`);
  // paying twice returns the first payment, whatever else the repeat says
  const existing = deps.store.transaction(apiId, refId);
  if (existing) {
    deps.store.noteRepeat(existing, deps.clock.now());
    return transactionReply(existing, "submit");
  }
  if (session.code !== code || session.customerNo !== customerNo) {
    return declined("INQUIRY_MISMATCH", "code or customer_no differ from the inquiry");
  }
  const now = deps.clock.now();
  if (now > session.expiresAt) {
    return declined("INQUIRY_EXPIRED", "the inquiry expired after 5 minutes; inquire again");
  }
  const entry = deps.catalogue.get(code)!;
  const { bill } = session;
  if (!testing && caller.account.balance < bill.total) {
    return declined("INSUFFICIENT_BALANCE", "balance is not enough for this bill");
  }

  return record(deps, caller, {
    kind: "bill",
    refId,
    cmd: "pay-pasca",
    code,
    name: entry.product.name,
    customerNo,
    price: bill.total,
    testing,
    serial: serialFor(entry, refId, customerNo),
    bill,
  });
}
