import { randomUUID } from "node:crypto";
import type { Clock } from "@kios/kit";
import { signCallback } from "@kios/kit";
import { and, asc, desc, eq, inArray, isNull, sql } from "drizzle-orm";
import type { Database, Executor } from "../../db/client.ts";
import {
  centerKeys,
  h2hCallbackAttempts,
  h2hCallbacks,
  h2hKeys,
  h2hOrders,
  orders,
  quotes,
} from "../../db/schema.ts";
import type { Logger } from "../../logger.ts";
import { orderReply } from "../center/lookups.ts";
import type { Order } from "../orders/types.ts";
import { checkCallbackUrl, type UrlPolicy } from "./callback-url.ts";
import type { SecretBox } from "./cipher.ts";
import { sendToReseller } from "./deliver.ts";
import { createDeliveryPool, type DeliveryPool } from "./delivery-pool.ts";
import { openKey } from "./keys.ts";
import { resellerBalance } from "./products.ts";
import { billOfOrder, wireRecord, wireStatusOf } from "./records.ts";

// the reseller's callbacks (docs/h2h.md#callbacks): when an H2H order is final (answered
// final at once included), `{ event: "transaction.final", data }` is queued once, its body
// fixed then, and POSTed to the key's callback URL signed as docs/supplier.md#callbacks says,
// retried with backoff for a day. One row per order, its body written once: never two
// different finals. Every attempt is logged for the reseller and the admins.

export interface CallbackDeps {
  db: Database;
  box: SecretBox;
  clock: Clock;
  logger: Logger;
  policy: UrlPolicy;
  /** one delivery's total deadline: connect, headers and the whole answer (default 5 s) */
  timeoutMs?: number;
  /** the POST itself (tests may replace it); default sendToReseller over node:http(s) */
  post?: typeof sendToReseller;
}

/** waits after the n-th failed attempt: quick at first, then every two hours */
const BACKOFF_MS = [10_000, 30_000, 60_000, 120_000, 300_000, 600_000, 1_800_000, 3_600_000];
const LATE_BACKOFF_MS = 2 * 3_600_000;
/** a callback is tried for at least this long before it is given up */
export const CALLBACK_GIVE_UP_MS = 25 * 3_600_000;
const CLAIM_MS = 60_000;

function callbackBackoff(attempts: number): number {
  return BACKOFF_MS[attempts - 1] ?? LATE_BACKOFF_MS;
}

/**
 * queues the final callback of every H2H order that became final and has none yet. Each in
 * a transaction of its own: the callback row and the mark, so a crash queues it again
 * (the unique row makes that a no-op) and never twice with different bodies.
 */
export async function queueFinalCallbacks(
  deps: Pick<CallbackDeps, "db" | "clock">,
  limit = 100,
): Promise<number> {
  // an order of either door: the JSON API's key (a signed POST) or the OtomaX door's
  // center key (a GET of its report URL, docs/center.md#reports)
  const due = await deps.db
    .select({
      h2h: h2hOrders,
      order: orders,
      callbackUrl: h2hKeys.callbackUrl,
      reportUrl: centerKeys.reportUrl,
    })
    .from(h2hOrders)
    .innerJoin(orders, eq(orders.confirmKey, h2hOrders.quoteId))
    .leftJoin(h2hKeys, eq(h2hKeys.id, h2hOrders.keyId))
    .leftJoin(centerKeys, eq(centerKeys.id, h2hOrders.centerKeyId))
    .where(and(isNull(h2hOrders.finalQueuedAt), inArray(orders.status, ["success", "failed"])))
    .orderBy(asc(h2hOrders.id))
    .limit(limit);
  const now = new Date(deps.clock.now());
  for (const { h2h, order, callbackUrl: jsonUrl, reportUrl } of due) {
    const callbackUrl = h2h.centerKeyId === null ? jsonUrl : reportUrl;
    const body =
      h2h.centerKeyId === null
        ? JSON.stringify({
            event: "transaction.final",
            data: wireRecord(order, h2h.refId, await billOfOrder(deps.db, order)),
          })
        : await reportQuery(deps.db, order, h2h.refId, await resellerBalance(deps.db, h2h.userId));
    await deps.db.transaction(async (tx) => {
      await tx
        .insert(h2hCallbacks)
        .values({
          h2hOrderId: h2h.id,
          userId: h2h.userId,
          body,
          status: callbackUrl ? "pending" : "no_url",
          nextAttemptAt: now,
          createdAt: now,
        })
        .onConflictDoNothing({ target: h2hCallbacks.h2hOrderId });
      await tx
        .update(h2hOrders)
        .set({ finalQueuedAt: now })
        .where(and(eq(h2hOrders.id, h2h.id), isNull(h2hOrders.finalQueuedAt)));
    });
  }
  await settleOrderless(deps.db, now);
  return due.length;
}

/** a request that made no order this long after its quote lapsed is left out of the scan */
const ORDERLESS_AFTER_MS = 60 * 60_000;

/**
 * an inquiry never paid, or a claim a crashed request left with no quote (an order refused
 * keeps no row: orders.ts lets its ref_id go; a claim taken over or bound is unmarked): once
 * its quote has lapsed (no payment can come of it; a repeat of its ref_id binds a fresh
 * inquiry and clears the mark, orders.ts) it leaves the queue's scan, so unpaid inquiries
 * don't pile up in it
 */
async function settleOrderless(db: Database, now: Date): Promise<void> {
  const before = new Date(now.getTime() - ORDERLESS_AFTER_MS).toISOString();
  await db.execute(sql`update ${h2hOrders} set final_queued_at = ${now.toISOString()}::timestamptz
    where ${h2hOrders.finalQueuedAt} is null
      and ((exists (select 1 from ${quotes} q where q.id = ${h2hOrders.quoteId} and q.expires_at < ${before}::timestamptz)
            and not exists (select 1 from ${orders} o where o.confirm_key = ${h2hOrders.quoteId}))
        or (${h2hOrders.quoteId} is null and ${h2hOrders.claimedAt} < ${before}::timestamptz))`);
}

/** a final's report fields (docs/center.md#reports), stored as the callback's body */
async function reportQuery(
  db: Executor,
  order: Order,
  refId: string,
  balance: number,
): Promise<string> {
  const status = wireStatusOf(order);
  return new URLSearchParams({
    refid: refId,
    message: await orderReply(db, order, refId, balance),
    status: status === "success" ? "SUKSES" : "GAGAL",
    sn: status === "success" ? (order.sn ?? "") : "",
  }).toString();
}

type Claimed = typeof h2hCallbacks.$inferSelect;

/**
 * takes up to `limit` due callbacks for a while, skipping those another sender holds: at
 * most one per reseller, and none of a reseller one is already in flight for (here or in
 * another process), so a slow endpoint holds one slot, never the others'
 */
async function claimDue(
  db: Executor,
  nowMs: number,
  claimer: string,
  limit: number,
): Promise<Claimed[]> {
  const now = new Date(nowMs).toISOString();
  const until = new Date(nowMs + CLAIM_MS).toISOString();
  const ids = sql`select c.id from ${h2hCallbacks} c
    where c.id in (
      select d.id from (
        select id, row_number() over (partition by user_id order by next_attempt_at, id) as nth
          from ${h2hCallbacks}
         where status = 'pending' and next_attempt_at <= ${now}::timestamptz
           and (claimed_until is null or claimed_until < ${now}::timestamptz)
      ) d where d.nth = 1)
      and not exists (select 1 from ${h2hCallbacks} busy
        where busy.user_id = c.user_id and busy.claimed_until >= ${now}::timestamptz)
    order by c.next_attempt_at limit ${limit} for update skip locked`;
  return db
    .update(h2hCallbacks)
    .set({ claimedBy: claimer, claimedUntil: sql`${until}::timestamptz` })
    .where(sql`${h2hCallbacks.id} in (${ids})`)
    .returning();
}

/**
 * delivers what is due, side by side, and waits for them all; returns how many were tried
 * (tests, a one-off run). The worker uses the pool instead, which never waits for a slow
 * one. What a delivery records is committed only while the claim is still this sender's
 * (design rule 18).
 */
export async function deliverDueCallbacks(deps: CallbackDeps, limit = 20): Promise<number> {
  const claimer = randomUUID();
  const claimed = await claimDue(deps.db, deps.clock.now(), claimer, limit);
  await Promise.all(claimed.map((c) => deliverOne(deps, c, claimer)));
  return claimed.length;
}

/**
 * the worker's sender: `slots` deliveries in flight at most, each independent of the
 * others (delivery-pool.ts), a freed slot taking the next due callback at once
 */
export function createCallbackPool(deps: CallbackDeps, slots: number): DeliveryPool {
  const claimer = randomUUID();
  return createDeliveryPool({
    slots,
    claim: (n) => claimDue(deps.db, deps.clock.now(), claimer, n),
    deliver: (c) => deliverOne(deps, c, claimer),
    logger: deps.logger.child({ component: "h2h-callbacks" }),
  });
}

async function deliverOne(deps: CallbackDeps, c: Claimed, claimer: string): Promise<void> {
  const log = deps.logger.child({ component: "h2h-callbacks", callbackId: c.id });
  const [row] = await deps.db
    .select({ key: h2hKeys, center: centerKeys })
    .from(h2hOrders)
    .leftJoin(h2hKeys, eq(h2hKeys.id, h2hOrders.keyId))
    .leftJoin(centerKeys, eq(centerKeys.id, h2hOrders.centerKeyId))
    .where(eq(h2hOrders.id, c.h2hOrderId));
  const key = row?.key ? { key: row.key } : undefined;
  const started = Date.now();
  let httpStatus: number | null = null;
  let error: string | null = null;
  const url = row?.center ? row.center.reportUrl : key?.key.callbackUrl;
  const checked = url ? checkCallbackUrl(url, deps.policy) : undefined;
  const deadlineMs = Math.min(deps.timeoutMs ?? 5_000, CLAIM_MS / 2);
  if (!url) error = "no callback URL is set";
  else if (!checked?.ok) error = `callback URL refused: ${checked?.reason}`;
  else if (row?.center) {
    // the OtomaX door's report: a GET, its fields beside the URL's own query
    const target = new URL(checked.url);
    for (const [k, v] of new URLSearchParams(c.body)) target.searchParams.append(k, v);
    const result = await (deps.post ?? sendToReseller)(
      { method: "GET", url: target, headers: {} },
      { policy: deps.policy, deadlineMs },
    );
    httpStatus = result.status ?? null;
    if (!result.ok) error = result.error;
  } else if (key) {
    const timestamp = Math.floor(deps.clock.now() / 1000);
    const secret = openKey(deps.box, key.key).secretKey;
    const result = await (deps.post ?? sendToReseller)(
      {
        method: "POST",
        url: checked.url,
        body: c.body,
        headers: {
          "X-Callback-Timestamp": String(timestamp),
          "X-Callback-Signature": signCallback(secret, timestamp, c.body),
        },
      },
      { policy: deps.policy, deadlineMs },
    );
    httpStatus = result.status ?? null;
    if (!result.ok) error = result.error;
  }
  const ms = Date.now() - started;
  const now = deps.clock.now();
  const attempts = c.attempts + 1;
  const delivered = error === null;
  const givingUp =
    !delivered && now + callbackBackoff(attempts) - c.createdAt.getTime() > CALLBACK_GIVE_UP_MS;
  await deps.db.transaction(async (tx) => {
    const [mine] = await tx
      .update(h2hCallbacks)
      .set({
        status: delivered ? "delivered" : givingUp ? "given_up" : "pending",
        attempts,
        lastError: error,
        lastAttemptAt: new Date(now),
        deliveredAt: delivered ? new Date(now) : null,
        nextAttemptAt: new Date(now + (delivered ? 0 : callbackBackoff(attempts))),
        claimedBy: null,
        claimedUntil: null,
      })
      .where(and(eq(h2hCallbacks.id, c.id), eq(h2hCallbacks.claimedBy, claimer)))
      .returning({ id: h2hCallbacks.id });
    if (!mine) return;
    await tx.insert(h2hCallbackAttempts).values({
      callbackId: c.id,
      userId: c.userId,
      at: new Date(now),
      httpStatus,
      error,
      ms,
    });
  });
  if (delivered) log.debug({ attempts }, "h2h callback delivered");
  else log.info({ attempts, httpStatus, error, givingUp }, "h2h callback not delivered");
}

export interface FailedAttempt {
  at: Date;
  refId: string;
  httpStatus: number | null;
  error: string;
}

/** a reseller's (or, without a user, every reseller's) latest failed deliveries */
export async function recentCallbackFailures(
  db: Executor,
  userId: number | undefined,
  limit = 5,
): Promise<FailedAttempt[]> {
  const rows = await db
    .select({
      at: h2hCallbackAttempts.at,
      refId: h2hOrders.refId,
      httpStatus: h2hCallbackAttempts.httpStatus,
      error: h2hCallbackAttempts.error,
    })
    .from(h2hCallbackAttempts)
    .innerJoin(h2hCallbacks, eq(h2hCallbacks.id, h2hCallbackAttempts.callbackId))
    .innerJoin(h2hOrders, eq(h2hOrders.id, h2hCallbacks.h2hOrderId))
    .where(
      and(
        sql`${h2hCallbackAttempts.error} is not null`,
        userId === undefined ? undefined : eq(h2hCallbackAttempts.userId, userId),
      ),
    )
    .orderBy(desc(h2hCallbackAttempts.at), desc(h2hCallbackAttempts.id))
    .limit(limit);
  return rows.map((r) => ({ ...r, error: r.error ?? "" }));
}

/** a callback as stored, by the reseller's ref_id (tests, the admins' look-up) */
export async function callbackOf(db: Executor, userId: number, refId: string) {
  const [row] = await db
    .select({ callback: h2hCallbacks })
    .from(h2hCallbacks)
    .innerJoin(h2hOrders, eq(h2hOrders.id, h2hCallbacks.h2hOrderId))
    .where(and(eq(h2hOrders.userId, userId), eq(h2hOrders.refId, refId)));
  return row?.callback;
}
