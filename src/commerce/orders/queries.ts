import { and, count, desc, eq, gte, inArray, lt, ne, notInArray, sql } from "drizzle-orm";
import type { Executor } from "../../db/client.ts";
import { orderAttempts, orders, products } from "../../db/schema.ts";
import type { Order, OrderKind } from "./types.ts";

export async function getOrder(exec: Executor, id: number): Promise<Order | undefined> {
  const [row] = await exec.select().from(orders).where(eq(orders.id, id));
  return row;
}

export async function getOrderByRef(exec: Executor, refId: string): Promise<Order | undefined> {
  const [row] = await exec.select().from(orders).where(eq(orders.refId, refId));
  return row;
}

/** the order a confirmation (quote) made, if any */
export async function getOrderByConfirmKey(
  exec: Executor,
  quoteId: string,
): Promise<Order | undefined> {
  const [row] = await exec.select().from(orders).where(eq(orders.confirmKey, quoteId));
  return row;
}

/** one of this user's orders by its ref_id; another user's order is simply not found. */
export async function findUserOrder(
  exec: Executor,
  userId: number,
  refId: string,
): Promise<Order | undefined> {
  const [row] = await exec
    .select()
    .from(orders)
    .where(and(eq(orders.userId, userId), eq(orders.refId, refId.trim())));
  if (row) return row;
  // the ref the buyer was shown may be an earlier attempt's: the buyer never sees routing
  const [earlier] = await exec
    .select({ order: orders })
    .from(orderAttempts)
    .innerJoin(orders, eq(orders.id, orderAttempts.orderId))
    .where(and(eq(orders.userId, userId), eq(orderAttempts.refId, refId.trim())))
    .limit(1);
  return earlier?.order;
}

/** any order by its ref_id or one of its attempts' (the admins' /status) */
export async function findOrderByAnyRef(exec: Executor, refId: string): Promise<Order | undefined> {
  const ref = refId.trim();
  const [row] = await exec.select().from(orders).where(eq(orders.refId, ref));
  if (row) return row;
  const [earlier] = await exec
    .select({ order: orders })
    .from(orderAttempts)
    .innerJoin(orders, eq(orders.id, orderAttempts.orderId))
    .where(eq(orderAttempts.refId, ref))
    .limit(1);
  return earlier?.order;
}

export interface AttemptLine {
  orderId: number;
  seq: number;
  supplier: string;
  /** the code this attempt sent its supplier */
  supplierCode: string;
  status: "open" | "rejected" | "failed" | "success";
  answerCode: string | null;
  /** a final failure's machine-readable reason, when the supplier gave one */
  reason: string | null;
  refId: string;
  createdAt: Date;
  answeredAt: Date | null;
  finalAt: Date | null;
}

/** the attempts of these orders, each order's in the order they were made (admins' views) */
export async function attemptsOfOrders(
  exec: Executor,
  orderIds: readonly number[],
): Promise<Map<number, AttemptLine[]>> {
  const byOrder = new Map<number, AttemptLine[]>();
  if (orderIds.length === 0) return byOrder;
  const rows = await exec
    .select({
      orderId: orderAttempts.orderId,
      seq: orderAttempts.seq,
      supplier: orderAttempts.supplier,
      supplierCode: orderAttempts.supplierCode,
      status: orderAttempts.status,
      answerCode: orderAttempts.answerCode,
      reason: orderAttempts.reason,
      refId: orderAttempts.refId,
      createdAt: orderAttempts.createdAt,
      answeredAt: orderAttempts.answeredAt,
      finalAt: orderAttempts.finalAt,
    })
    .from(orderAttempts)
    .where(inArray(orderAttempts.orderId, [...orderIds]))
    .orderBy(orderAttempts.orderId, orderAttempts.seq);
  for (const r of rows) byOrder.set(r.orderId, [...(byOrder.get(r.orderId) ?? []), r]);
  return byOrder;
}

export async function listUserOrders(
  exec: Executor,
  userId: number,
  page: { limit: number; offset: number },
): Promise<{ items: Order[]; total: number }> {
  const [items, [total]] = await Promise.all([
    exec
      .select()
      .from(orders)
      .where(eq(orders.userId, userId))
      .orderBy(desc(orders.createdAt), desc(orders.id))
      .limit(page.limit)
      .offset(page.offset),
    exec.select({ n: count() }).from(orders).where(eq(orders.userId, userId)),
  ]);
  return { items, total: total?.n ?? 0 };
}

/** the destinations this user bought for most recently, newest first, without repeats. */
export async function recentDestinations(
  exec: Executor,
  userId: number,
  of: { kinds: readonly OrderKind[]; categories?: readonly string[]; brand?: string },
  limit = 3,
): Promise<string[]> {
  // a flow offers destinations of its own kind: meters from PLN orders, a game's ids from
  // that game's orders, phones from airtime and e-wallet orders
  const rows = await exec
    .select({ destination: orders.destination, last: sql<Date>`max(${orders.createdAt})` })
    .from(orders)
    .innerJoin(products, eq(products.code, orders.productCode))
    .where(
      and(
        eq(orders.userId, userId),
        inArray(orders.kind, [...of.kinds]),
        of.categories ? inArray(products.category, [...of.categories]) : undefined,
        of.brand === undefined ? undefined : eq(products.brand, of.brand),
      ),
    )
    .groupBy(orders.destination)
    .orderBy(desc(sql`max(${orders.createdAt})`))
    .limit(limit);
  return rows.map((r) => r.destination);
}

/** orders not final yet (stuck, unknown or pending), flagged ones first. */
export function openOrders(exec: Executor, page: { limit: number; offset?: number }) {
  return exec
    .select()
    .from(orders)
    .where(notInArray(orders.status, ["success", "failed"]))
    .orderBy(sql`${orders.flaggedAt} is null`, orders.createdAt)
    .limit(page.limit)
    .offset(page.offset ?? 0);
}

export interface PeriodStats {
  orders: number;
  success: number;
  failed: number;
  open: number;
  /** what buyers paid for successful orders */
  revenue: number;
  /** revenue less what the supplier charged */
  margin: number;
  /** what the supplier charged beyond the quoted cost (the shop's loss), and on how many orders */
  overcharge: number;
  overcharged: number;
}

async function statsSince(exec: Executor, since: Date, until?: Date): Promise<PeriodStats> {
  const [row] = await exec
    .select({
      orders: count(),
      success: sql<number>`count(*) filter (where ${orders.status} = 'success')`.mapWith(Number),
      failed: sql<number>`count(*) filter (where ${orders.status} = 'failed')`.mapWith(Number),
      revenue:
        sql<number>`coalesce(sum(${orders.price}) filter (where ${orders.status} = 'success'), 0)`.mapWith(
          Number,
        ),
      margin:
        sql<number>`coalesce(sum(${orders.price} - coalesce(${orders.supplierPrice}, ${orders.cost})) filter (where ${orders.status} = 'success'), 0)`.mapWith(
          Number,
        ),
      overcharge:
        sql<number>`coalesce(sum(${orders.supplierPrice} - ${orders.cost}) filter (where ${orders.status} = 'success' and ${orders.supplierPrice} > ${orders.cost}), 0)`.mapWith(
          Number,
        ),
      overcharged:
        sql<number>`count(*) filter (where ${orders.status} = 'success' and ${orders.supplierPrice} > ${orders.cost})`.mapWith(
          Number,
        ),
    })
    .from(orders)
    .where(
      and(
        gte(orders.createdAt, since),
        until ? lt(orders.createdAt, until) : undefined,
        eq(orders.testing, false),
      ),
    );
  const r = row ?? {
    orders: 0,
    success: 0,
    failed: 0,
    revenue: 0,
    margin: 0,
    overcharge: 0,
    overcharged: 0,
  };
  return { ...r, open: r.orders - r.success - r.failed };
}

/** start of "today" in WIB (UTC+7), where the shop's customers live */
export function startOfDayWib(now: Date): Date {
  const wib = new Date(now.getTime() + 7 * 3600_000);
  wib.setUTCHours(0, 0, 0, 0);
  return new Date(wib.getTime() - 7 * 3600_000);
}

export async function orderStats(exec: Executor, now: Date) {
  const today = startOfDayWib(now);
  const yesterday = new Date(today.getTime() - 86_400_000);
  const week = new Date(today.getTime() - 6 * 86_400_000);
  const [t, y, w] = await Promise.all([
    statsSince(exec, today),
    statsSince(exec, yesterday, today),
    statsSince(exec, week),
  ]);
  return { today: t, yesterday: y, week: w };
}

/** the failed orders of a period by why they failed (the supplier's code, else kios's reason) */
export async function failuresByReason(
  exec: Executor,
  since: Date,
  until: Date,
): Promise<{ reason: string; count: number }[]> {
  const reason = sql<string>`coalesce(${orders.supplierCode}, ${orders.failureReason}, 'unknown')`;
  return exec
    .select({ reason, count: sql<number>`count(*)`.mapWith(Number) })
    .from(orders)
    .where(
      and(
        eq(orders.status, "failed"),
        eq(orders.testing, false),
        gte(orders.createdAt, since),
        lt(orders.createdAt, until),
      ),
    )
    .groupBy(reason)
    .orderBy(desc(sql`count(*)`));
}

/** what a user spent today (successful and still-open orders hold their money). */
export async function todaySpend(exec: Executor, userId: number, now: Date): Promise<number> {
  const [row] = await exec
    .select({ total: sql<number>`coalesce(sum(${orders.price}), 0)`.mapWith(Number) })
    .from(orders)
    .where(
      and(
        eq(orders.userId, userId),
        eq(orders.testing, false),
        gte(orders.createdAt, startOfDayWib(now)),
        ne(orders.status, "failed"),
      ),
    );
  return row?.total ?? 0;
}
