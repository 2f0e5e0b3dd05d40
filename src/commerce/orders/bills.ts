import { and, eq, ne } from "drizzle-orm";
import type { Executor } from "../../db/client.ts";
import { inquiries, orders } from "../../db/schema.ts";
import type { BillDetails } from "../../supplier/types.ts";
import type { BillAlreadyPaid, Order } from "./types.ts";

// one bill, one payment: a bill (product + customer number, in its billing period) has at
// most one payment that is open or succeeded, whoever asks. The database holds the rule
// (a unique index on orders.bill_key over every order that is not failed); these helpers
// name the key and find the payment that holds it.

/** the periods the inquiry lists, oldest first, as the supplier wrote them */
export function billPeriodsOf(details: BillDetails | null | undefined): string[] {
  return (details?.detail ?? [])
    .map((d) => d.periode?.trim())
    .filter((p): p is string => Boolean(p))
    .sort();
}

/** the billing period: the periods the inquiry lists, else the calendar month (WIB) */
function billPeriod(details: BillDetails | null | undefined, inquiredAt: Date): string {
  const periods = billPeriodsOf(details);
  if (periods.length > 0) return periods.join("+");
  const wib = new Date(inquiredAt.getTime() + 7 * 3600_000);
  return `${wib.getUTCFullYear()}${String(wib.getUTCMonth() + 1).padStart(2, "0")}`;
}

export function billKeyOf(bill: {
  productCode: string;
  customerNo: string;
  details: BillDetails | null | undefined;
  inquiredAt: Date;
}): string {
  return `${bill.productCode}:${bill.customerNo}:${billPeriod(bill.details, bill.inquiredAt)}`;
}

/** the open or successful payment of this bill, if any */
export async function billPayment(exec: Executor, billKey: string): Promise<Order | undefined> {
  const [row] = await exec
    .select()
    .from(orders)
    .where(and(eq(orders.billKey, billKey), ne(orders.status, "failed")));
  return row;
}

/**
 * the refusal a second payer sees: being paid now, or paid at …; naming the payment when it
 * is the asker's own
 */
export function alreadyPaid(payment: Order, askerId: number): BillAlreadyPaid {
  const own = payment.userId === askerId ? { ownOrderId: payment.id } : {};
  return payment.status === "success"
    ? {
        ok: false,
        reason: "bill_already_paid",
        state: "success",
        at: payment.finalAt ?? payment.updatedAt,
        ...own,
      }
    : { ok: false, reason: "bill_already_paid", state: "open", at: payment.createdAt, ...own };
}

/** a bill's inquiry as stored: what the supplier said the bill holds */
export async function findInquiry(exec: Executor, inquiryId: number) {
  const [inquiry] = await exec.select().from(inquiries).where(eq(inquiries.id, inquiryId));
  return inquiry ? { ...inquiry, details: inquiry.details as BillDetails | null } : undefined;
}
