import { and, eq, gt, isNull, lt, or, sql } from "drizzle-orm";
import type { Executor } from "../../db/client.ts";
import { productRoutes, products } from "../../db/schema.ts";
import { rowsOf, toNumber } from "../../db/sql-rows.ts";
import { enqueueNotification } from "../notifications/outbox.ts";
import { materialiseFirstRoute, routePaused, routesOf } from "./routes.ts";

// a product the supplier refuses as inactive, or whose recent orders keep failing, is
// closed to buyers for a while (availability.ts) and the admins are told, instead of
// taking more buyers' money into refunds. With several suppliers the failures are counted
// per supplier, and what closes is that supplier's route while the product has another
// (docs/reconciliation.md#honest-product-status).

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

/** the first supplier's name when the caller does not say (SUPPLIER_NAME's default) */
const DEFAULT_FIRST_SUPPLIER = "main";

/**
 * the supplier of the order's attempt that just failed, and how many of the product's last
 * final orders AT THAT SUPPLIER failed for the product's sake (in one statement)
 */
async function failuresAtSupplier(
  tx: Executor,
  o: {
    orderId?: number | undefined;
    refId?: string | undefined;
    productCode: string;
    now: Date;
    policy: PausePolicy;
  },
): Promise<{ supplier: string | null; failures: number }> {
  const dayAgo = new Date(o.now.getTime() - 24 * 3600_000).toISOString();
  // a final attempt (success or failed) is its order's last: the order's code is its answer
  const result = await tx.execute(sql`
    with this as (
      select supplier from order_attempts
      where order_id = ${o.orderId ?? null}::bigint and ref_id = ${o.refId ?? null}::text
      limit 1)
    select (select supplier from this) as supplier,
      (select count(*) filter (where status = 'failed' and supplier_code is not null
          and supplier_code not in (${sql.join(
            NOT_THE_PRODUCT.map((c) => sql`${c}`),
            sql`, `,
          )}))
        from (select o.status, o.supplier_code
          from order_attempts a join orders o on o.id = a.order_id
          where o.product_code = ${o.productCode} and not o.testing
            and a.supplier = (select supplier from this)
            and a.status in ('success', 'failed') and a.final_at > ${dayAgo}::timestamptz
          order by a.final_at desc limit ${o.policy.of}) recent) as failures`);
  const row = rowsOf(result)[0] ?? {};
  return {
    supplier: row.supplier === null || row.supplier === undefined ? null : String(row.supplier),
    failures: toNumber(row.failures),
  };
}

/**
 * counts the product's recent failures at the failed order's supplier; pauses when
 * warranted. A product failing at one supplier pauses THAT ROUTE (that supplier for that
 * product) while another of its routes can still be tried; with none left, the product
 * itself closes (as with one supplier). One pause, one alert.
 */
export async function pauseIfFailing(
  tx: Executor,
  o: {
    /** the order that failed, and the ref_id of its attempt that failed (absent: the first supplier's) */
    orderId?: number | undefined;
    refId?: string | undefined;
    productCode: string;
    supplierCode: string | null;
    /** what the order sold at: another route counts only when it can sell at it */
    price?: number | undefined;
    now: Date;
    policy?: PausePolicy | undefined;
    adminIds: readonly number[];
    /** the first supplier's name (default "main"): its route may have no row of its own */
    firstSupplier?: string | undefined;
  },
): Promise<void> {
  const policy = o.policy ?? DEFAULT_PAUSE_POLICY;
  const first = o.firstSupplier ?? DEFAULT_FIRST_SUPPLIER;
  const at = await failuresAtSupplier(tx, { ...o, policy });
  let reason: "inactive" | "failing" | undefined;
  if (o.supplierCode === "PRODUCT_INACTIVE") reason = "inactive";
  else if (at.failures >= policy.failures) reason = "failing";
  if (!reason) return;
  const until = new Date(o.now.getTime() + policy.minutes * 60_000);
  const supplier = at.supplier ?? first;
  const [product] = await tx.select().from(products).where(eq(products.code, o.productCode));
  if (!product) return;
  const routes = await routesOf(tx, product, first);
  const others = routes.filter(
    (r) =>
      r.supplier !== supplier &&
      r.enabled &&
      r.active &&
      !routePaused(r, o.now.getTime()) &&
      (o.price === undefined || r.cost <= o.price),
  );
  if (others.length > 0) {
    await pauseRoute(tx, { product, supplier, first, until, reason, now: o.now }, o.adminIds);
    return;
  }
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
 * closes one route (a supplier for a product) until `until`; the product stays on sale
 * through its other routes. The first supplier's route gets a row of its own to hold the
 * pause (as when an admin moves it: catalogue/routes.ts), its place unchanged.
 */
async function pauseRoute(
  tx: Executor,
  p: {
    product: typeof products.$inferSelect;
    supplier: string;
    first: string;
    until: Date;
    reason: "inactive" | "failing";
    now: Date;
  },
  adminIds: readonly number[],
): Promise<void> {
  if (p.supplier === p.first) await materialiseFirstRoute(tx, p.product, p.first, p.now);
  // only a route not paused already: one pause, one alert
  const [paused] = await tx
    .update(productRoutes)
    .set({ pausedUntil: p.until, pauseReason: p.reason, updatedAt: p.now })
    .where(
      and(
        eq(productRoutes.productCode, p.product.code),
        eq(productRoutes.supplier, p.supplier),
        or(isNull(productRoutes.pausedUntil), lt(productRoutes.pausedUntil, p.now)),
      ),
    )
    .returning({ supplier: productRoutes.supplier });
  if (!paused) return;
  for (const adminId of adminIds) {
    await enqueueNotification(tx, {
      key: `product:${p.product.code}:${p.supplier}:paused:${p.until.getTime()}:${adminId}`,
      chatId: adminId,
      payload: {
        type: "product_paused",
        code: p.product.code,
        name: p.product.name,
        until: p.until.getTime(),
        reason: p.reason,
        supplier: p.supplier,
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
  // and its paused routes: the admin knows the product works again
  const routes = await db
    .update(productRoutes)
    .set({ pausedUntil: null, pauseReason: null, updatedAt: now })
    .where(
      and(
        sql`lower(${productRoutes.productCode}) = lower(${code.trim()})`,
        gt(productRoutes.pausedUntil, now),
      ),
    )
    .returning({ code: productRoutes.productCode });
  if (resumed || routes.length === 0) return resumed;
  const [product] = await db
    .select({ code: products.code, name: products.name })
    .from(products)
    .where(eq(products.code, routes[0]!.code));
  return product;
}
