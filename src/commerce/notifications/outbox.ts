import { and, asc, eq, inArray, lt, lte, or, sql } from "drizzle-orm";
import type { Executor } from "../../db/client.ts";
import { notifications } from "../../db/schema.ts";
import type { StoredQuoteRefusal } from "../orders/types.ts";

// messages owed to chats, written in the same transaction as the change they report, so
// a crash can neither lose one nor (with the claim below) send one twice.

export type NotificationPayload =
  | { type: "order_final"; orderId: number; late: boolean }
  /** reason not_found: the supplier has no record and only an admin may decide to refund */
  | { type: "order_flagged"; orderId: number; reason?: "not_found" }
  /** the supplier's final word contradicts how kios settled the order: an admin must look */
  | { type: "order_conflict"; orderId: number; supplierStatus: "success" | "failed" }
  /** the supplier charged more than the quote: the shop's loss, for the admins */
  | { type: "order_overcharged"; orderId: number; quoted: number; charged: number }
  | { type: "deposit_requested"; depositId: number }
  | { type: "deposit_decided"; depositId: number }
  | { type: "broadcast"; text: string }
  /** a gateway payment became final: its QR message shows the outcome */
  | { type: "payment_final"; paymentId: number }
  /** the gateway says a payment was paid with another amount than asked: nothing credited */
  | { type: "payment_mismatch"; paymentId: number }
  /**
   * a paid "deposit and buy" bought its card, or could not (cancelled, the price moved…);
   * then `fresh` is the fresh card the engine made for it, or why none could be made
   */
  | { type: "payment_purchase"; paymentId: number; fresh?: FreshCard }
  /** a supplier balance check found money moved that kios's records don't explain */
  | {
      type: "supplier_drift";
      checkId: number;
      /** whose balance (absent: queued before several suppliers, the first's) */
      supplier?: string;
    }
  /** the supplier balance (as last read, less what was sent since) runs low */
  | {
      type: "supplier_low_balance";
      checkId: number;
      known: number;
      /** whose balance (absent: queued before several suppliers, the first's) */
      supplier?: string;
    }
  /** the daily re-check of settled orders found some the supplier tells otherwise */
  | {
      type: "orders_rechecked";
      checked: number;
      unanswered: number;
      disagreeing: { refId: string; kios: string; supplier: string }[];
      more: number;
    }
  /** the owner's daily report for the WIB day before `at` (Unix ms) */
  | { type: "daily_report"; at: number }
  /** a product was closed to buyers for a while: the supplier refused it, or it kept failing */
  | {
      type: "product_paused";
      code: string;
      name: string;
      until: number;
      reason: "inactive" | "failing";
      /** set when one route closed (this supplier for this product), the product still on sale */
      supplier?: string;
    };

/** the fresh quote a stale card was replaced by, or why there is none */
export type FreshCard = { quoteId: string } | { refusal: StoredQuoteRefusal };

export interface Notification {
  id: number;
  key: string;
  chatId: number;
  messageId: number | null;
  payload: NotificationPayload;
  attempts: number;
  /**
   * true when an earlier delivery attempt was interrupted (a crash between sending and
   * recording it): deliver only what is safe to repeat, such as editing a message in place
   */
  recovered: boolean;
}

/** "sent", or "gone" when the chat can never receive it (bot blocked, chat deleted) */
export type SendResult = "sent" | "gone";
export type NotificationSender = (n: Notification) => Promise<SendResult>;

export async function enqueueNotification(
  exec: Executor,
  n: { key: string; chatId: number; messageId?: number | null; payload: NotificationPayload },
): Promise<boolean> {
  const inserted = await exec
    .insert(notifications)
    .values({
      key: n.key,
      chatId: n.chatId,
      messageId: n.messageId ?? null,
      payload: n.payload,
    })
    .onConflictDoNothing({ target: notifications.key })
    .returning({ id: notifications.id });
  return inserted.length > 0;
}

// delivery claims are leases the sender keeps renewing (every HEARTBEAT_MS) while it works:
// - rows it has taken but not yet started stay "pending" with claimed_at (their "not
//   before") pushed ahead of now: if the sender dies they simply fall due again, and go out
//   as if nothing had happened, since nothing was sent;
// - the row it is sending is "sending" with claimed_at at its last heartbeat: if the sender
//   dies mid-send, nobody knows whether the message went out, so it is delivered again only
//   in the "recovered" safe mode (what is safe to repeat).
// Short leases let a survivor or a restart resume within seconds of a crash.

/** a sending claim not renewed for this long is taken to be from a process that died */
export const STALE_CLAIM_MS = 10_000;
/** how often a sender renews its claims: several times within STALE_CLAIM_MS */
export const HEARTBEAT_MS = 2_000;
const MAX_ATTEMPTS = 8;

/** a notification held by one sender, with the stamp its row carries while it is held */
export interface Claimed extends Notification {
  stamp: Date;
}

function deliverable(now: Date) {
  const staleBefore = new Date(now.getTime() - STALE_CLAIM_MS);
  return or(
    and(
      eq(notifications.status, "pending"),
      or(sql`${notifications.claimedAt} is null`, lte(notifications.claimedAt, now)),
    ),
    and(eq(notifications.status, "sending"), lt(notifications.claimedAt, staleBefore)),
  );
}

function toNotification(row: typeof notifications.$inferSelect, recovered: boolean) {
  return {
    id: row.id,
    key: row.key,
    chatId: row.chatId,
    messageId: row.messageId,
    payload: row.payload as NotificationPayload,
    attempts: row.attempts,
    recovered,
  };
}

/** true when something in the outbox could be delivered now (a cheap look, no claim) */
export async function hasDueNotifications(exec: Executor, now: Date): Promise<boolean> {
  const rows = await exec
    .select({ id: notifications.id })
    .from(notifications)
    .where(deliverable(now))
    .limit(1);
  return rows.length > 0;
}

/**
 * claims up to `limit` deliverable notifications (pending and due, or stuck in sending
 * since a crash), oldest first; SKIP LOCKED lets several workers share the outbox. Pending
 * rows are reserved until `reservedUntil`; rows a dead sender left in sending are taken as
 * they are (sending, claimed now, one more attempt) and come back `recovered`.
 */
export async function claimNotifications(
  exec: Executor,
  now: Date,
  limit = 50,
  reservedUntil = new Date(now.getTime() + STALE_CLAIM_MS),
): Promise<Claimed[]> {
  return exec.transaction(async (tx) => {
    const due = await tx
      .select({ id: notifications.id, status: notifications.status })
      .from(notifications)
      .where(deliverable(now))
      .orderBy(asc(notifications.id))
      .limit(limit)
      .for("update", { skipLocked: true });
    if (due.length === 0) return [];
    const idsOf = (status: string) => due.filter((d) => d.status === status).map((d) => d.id);
    const reserved = idsOf("pending");
    const interrupted = idsOf("sending");
    const out: Claimed[] = [];
    if (reserved.length > 0) {
      const rows = await tx
        .update(notifications)
        .set({ claimedAt: reservedUntil })
        .where(inArray(notifications.id, reserved))
        .returning();
      out.push(...rows.map((r) => ({ ...toNotification(r, false), stamp: reservedUntil })));
    }
    if (interrupted.length > 0) {
      const rows = await tx
        .update(notifications)
        .set({ claimedAt: now, attempts: sql`${notifications.attempts} + 1` })
        .where(inArray(notifications.id, interrupted))
        .returning();
      out.push(...rows.map((r) => ({ ...toNotification(r, true), stamp: now })));
    }
    return out.sort((a, b) => a.id - b.id);
  });
}

/**
 * moves a claimed notification to "sending" just before it goes out (one more attempt);
 * null when the claim was lost meanwhile (it lapsed and another sender took the row).
 */
export async function startSending(exec: Executor, n: Claimed, now: Date): Promise<Claimed | null> {
  const [row] = await exec
    .update(notifications)
    .set(
      n.recovered
        ? { claimedAt: now }
        : { status: "sending", claimedAt: now, attempts: sql`${notifications.attempts} + 1` },
    )
    .where(
      and(
        eq(notifications.id, n.id),
        eq(notifications.status, n.recovered ? "sending" : "pending"),
        eq(notifications.claimedAt, n.stamp),
      ),
    )
    .returning();
  return row ? { ...toNotification(row, n.recovered), stamp: now } : null;
}

/**
 * renews claims (the heartbeat): each row gets the stamp `to` if it still carries the stamp
 * it was claimed with. Returns the ids still held; a row not among them was taken over.
 */
export async function renewClaims(
  exec: Executor,
  held: readonly Pick<Claimed, "id" | "stamp">[],
  to: Date,
): Promise<Set<number>> {
  const kept = new Set<number>();
  // the rows share a handful of stamps: one update per stamp
  const groups = new Map<number, { stamp: Date; ids: number[] }>();
  for (const n of held) {
    const g = groups.get(n.stamp.getTime()) ?? { stamp: n.stamp, ids: [] };
    g.ids.push(n.id);
    groups.set(n.stamp.getTime(), g);
  }
  for (const { stamp, ids } of groups.values()) {
    const rows = await exec
      .update(notifications)
      .set({ claimedAt: to })
      .where(
        and(
          inArray(notifications.id, ids),
          inArray(notifications.status, ["pending", "sending"]),
          eq(notifications.claimedAt, stamp),
        ),
      )
      .returning({ id: notifications.id });
    for (const r of rows) kept.add(r.id);
  }
  return kept;
}

/**
 * gives back claimed notifications a sender will not get to (its time is up): pending ones
 * fall due now, recovered ones become stale at once so the next sender recovers them.
 */
export async function giveBackClaims(exec: Executor, held: readonly Claimed[], now: Date) {
  const due = held.filter((n) => !n.recovered);
  const stale = held.filter((n) => n.recovered);
  await renewClaims(exec, due, now);
  await renewClaims(exec, stale, new Date(0));
}

export async function markSent(exec: Executor, id: number, now: Date): Promise<void> {
  await exec
    .update(notifications)
    .set({ status: "sent", sentAt: now, lastError: null })
    .where(eq(notifications.id, id));
}

/** a failed attempt: retried later with backoff, until MAX_ATTEMPTS or a permanent failure */
export async function markFailed(
  exec: Executor,
  n: Pick<Notification, "id" | "attempts">,
  error: string,
  now: Date,
  permanent: boolean,
): Promise<void> {
  const giveUp = permanent || n.attempts >= MAX_ATTEMPTS;
  const retryAt = new Date(now.getTime() + Math.min(2 ** n.attempts * 1000, 5 * 60_000));
  await exec
    .update(notifications)
    .set({
      status: giveUp ? "failed" : "pending",
      lastError: error.slice(0, 500),
      // for a pending row, claimed_at doubles as "not before"
      claimedAt: giveUp ? now : retryAt,
    })
    .where(eq(notifications.id, n.id));
}
