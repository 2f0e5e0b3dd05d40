import { and, desc, eq, gte, inArray, lt, or, sql } from "drizzle-orm";
import type { Executor } from "../../db/client.ts";
import { orderAttempts, orders, products, textOrders } from "../../db/schema.ts";
import { startOfDayWib } from "../orders/queries.ts";
import type { Order } from "../orders/types.ts";
import { orderText } from "./replies.ts";

// what the status and recap commands read (docs/center.md#text-commands): a reseller's own
// orders only, each with the R# it was placed with (if any), for the answer's reference

export interface RefOrder {
  order: Order;
  /** the reseller's R# of it, else kios's order reference */
  ref: string;
}

const WIB_MS = 7 * 3600_000;

function withRef(rows: { order: Order; ref: string | null }[]): RefOrder[] {
  return rows.map((r) => ({ order: r.order, ref: r.ref ?? r.order.refId }));
}

/** CEK.DEST: today's (WIB) orders of this reseller to this destination, the latest first */
export async function todayOrdersTo(
  db: Executor,
  userId: number,
  destination: string,
  now: Date,
): Promise<RefOrder[]> {
  const digits = destination.replace(/\D/g, "");
  // the order keeps the destination normalised (0812… as typed, or digits only)
  const same = digits
    ? or(eq(orders.destination, destination), eq(orders.destination, digits))
    : eq(orders.destination, destination);
  const rows = await db
    .select({ order: orders, ref: textOrders.ref })
    .from(orders)
    .leftJoin(textOrders, eq(textOrders.quoteId, orders.confirmKey))
    .where(and(eq(orders.userId, userId), same, gte(orders.createdAt, startOfDayWib(now))))
    .orderBy(desc(orders.id))
    .limit(20);
  return withRef(rows);
}

/** STA.REF: the order of this R# (text commands), else of kios's own reference, if theirs */
export async function orderByRef(
  db: Executor,
  userId: number,
  ref: string,
): Promise<RefOrder | undefined> {
  const [byText] = await db
    .select({ order: orders, ref: textOrders.ref })
    .from(textOrders)
    .innerJoin(orders, eq(orders.confirmKey, textOrders.quoteId))
    .where(and(eq(textOrders.userId, userId), eq(textOrders.ref, ref)));
  if (byText) return withRef([byText])[0];
  const [byKios] = await db
    .select({ order: orders, ref: textOrders.ref })
    .from(orders)
    .leftJoin(textOrders, eq(textOrders.quoteId, orders.confirmKey))
    .where(and(eq(orders.userId, userId), eq(orders.refId, ref)));
  return byKios ? withRef([byKios])[0] : undefined;
}

export interface DayRecap {
  success: number;
  failed: number;
  pending: number;
  /** what the successful orders cost the reseller */
  spent: number;
}

/** REKAP: a day's (WIB) orders of this reseller; `day` absent: today */
export async function dayRecap(
  db: Executor,
  userId: number,
  day: { y: number; m: number; d: number } | Date,
): Promise<DayRecap> {
  const start =
    day instanceof Date ? startOfDayWib(day) : new Date(Date.UTC(day.y, day.m - 1, day.d) - WIB_MS);
  const end = new Date(start.getTime() + 86_400_000);
  const n = (cond: ReturnType<typeof sql>) =>
    sql<number>`count(*) filter (where ${cond})`.mapWith(Number);
  const [row] = await db
    .select({
      success: n(sql`${orders.status} = 'success'`),
      failed: n(sql`${orders.status} = 'failed'`),
      pending: n(sql`${orders.status} not in ('success', 'failed')`),
      spent:
        sql<number>`coalesce(sum(${orders.price}) filter (where ${orders.status} = 'success'), 0)`.mapWith(
          Number,
        ),
    })
    .from(orders)
    .where(
      and(
        eq(orders.userId, userId),
        eq(orders.testing, false),
        gte(orders.createdAt, start),
        lt(orders.createdAt, end),
      ),
    );
  return row ?? { success: 0, failed: 0, pending: 0, spent: 0 };
}

/**
 * which of these all-digit codes are product codes of the shop's (a supplier's code may be
 * all digits; none of the sandboxes' is): the others are numbers typed with dots
 */
export async function numericProductCodes(
  db: Executor,
  codes: readonly string[],
): Promise<Set<string>> {
  if (codes.length === 0) return new Set();
  const rows = await db
    .select({ code: products.code })
    .from(products)
    .where(inArray(products.code, [...new Set(codes)]));
  return new Set(rows.map((r) => r.code));
}

/** a failed order's last attempt's machine-readable reason (OUT_OF_STOCK, …), else null */
async function failedOrderReason(db: Executor, order: Order): Promise<string | null> {
  if (order.status !== "failed") return null;
  const [row] = await db
    .select({ reason: orderAttempts.reason })
    .from(orderAttempts)
    .where(and(eq(orderAttempts.orderId, order.id), eq(orderAttempts.refId, order.refId)))
    .limit(1);
  return row?.reason ?? null;
}

/** an order's answer line (replies.ts orderText), a failure's reason read with it */
export async function orderReply(
  db: Executor,
  order: Order,
  refId: string,
  balance: number,
): Promise<string> {
  return orderText(order, refId, balance, await failedOrderReason(db, order));
}
