import { and, eq, gt, isNull, lt, or, sql } from "drizzle-orm";
import type { Executor } from "../../db/client.ts";
import { products } from "../../db/schema.ts";
import { rowsOf, toNumber } from "../../db/sql-rows.ts";
import { enqueueNotification } from "../notifications/outbox.ts";

// a product the supplier refuses as inactive, or whose recent orders keep failing, is
// closed to buyers for a while (availability.ts) and the admins are told, instead of
// taking more buyers' money into refunds.

export interface PausePolicy {
  /** pause after this many failures … */
  failures: number;
  /** … among the product's last this many final orders (of the last day) */
  of: number;
  /** for this long */
  minutes: number;
}

const DEFAULT_PAUSE_POLICY: PausePolicy = { failures: 3, of: 5, minutes: 30 };

/** failures that say something about the buyer or the shop, not about the product */
const NOT_THE_PRODUCT = [
  "INVALID_CUSTOMER_NO",
  "VALIDATION_ERROR",
  "INSUFFICIENT_BALANCE",
  "RATE_LIMITED",
  "UNAUTHORIZED",
  "INVALID_SIGNATURE",
  "INVALID_API_KEY",
  "TIMESTAMP_EXPIRED",
  // kios's own refunds of orders the supplier never had
  "TRANSACTION_NOT_FOUND",
];

/** counts the product's recent failures after a failed order; pauses it when warranted */
export async function pauseIfFailing(
  tx: Executor,
  o: {
    productCode: string;
    supplierCode: string | null;
    now: Date;
    policy?: PausePolicy | undefined;
    adminIds: readonly number[];
  },
): Promise<void> {
  const policy = o.policy ?? DEFAULT_PAUSE_POLICY;
  let reason: "inactive" | "failing" | undefined;
  if (o.supplierCode === "PRODUCT_INACTIVE") reason = "inactive";
  else {
    const dayAgo = new Date(o.now.getTime() - 24 * 3600_000).toISOString();
    const result = await tx.execute(sql`
      select count(*) filter (where status = 'failed' and supplier_code is not null
        and supplier_code not in (${sql.join(
          NOT_THE_PRODUCT.map((c) => sql`${c}`),
          sql`, `,
        )})) as failures
      from (select status, supplier_code from orders
        where product_code = ${o.productCode} and not testing and final_at is not null
          and final_at > ${dayAgo}::timestamptz
        order by final_at desc limit ${policy.of}) recent`);
    if (toNumber(rowsOf(result)[0]?.failures) >= policy.failures) reason = "failing";
  }
  if (!reason) return;
  const until = new Date(o.now.getTime() + policy.minutes * 60_000);
  // only a product not paused already: one pause, one alert
  const [paused] = await tx
    .update(products)
    .set({ pausedUntil: until, pauseReason: reason })
    .where(
      and(
        eq(products.code, o.productCode),
        or(isNull(products.pausedUntil), lt(products.pausedUntil, o.now)),
      ),
    )
    .returning({ code: products.code, name: products.name });
  if (!paused) return;
  for (const adminId of o.adminIds) {
    await enqueueNotification(tx, {
      key: `product:${paused.code}:paused:${until.getTime()}:${adminId}`,
      chatId: adminId,
      payload: {
        type: "product_paused",
        code: paused.code,
        name: paused.name,
        until: until.getTime(),
        reason,
      },
    });
  }
}

/**
 * opens a paused product again before its time (an admin's decision; its code in any
 * case). Returns it, or undefined when it was not paused.
 */
export async function resumeProduct(
  db: Executor,
  code: string,
  now: Date,
): Promise<{ code: string; name: string } | undefined> {
  const [resumed] = await db
    .update(products)
    .set({ pausedUntil: null, pauseReason: null })
    .where(and(sql`lower(${products.code}) = lower(${code.trim()})`, gt(products.pausedUntil, now)))
    .returning({ code: products.code, name: products.name });
  return resumed;
}
