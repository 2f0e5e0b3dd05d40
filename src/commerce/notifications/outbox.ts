import { and, asc, eq, inArray, lt, lte, or, sql } from "drizzle-orm";
import type { Executor } from "../../db/client.ts";
import { notifications } from "../../db/schema.ts";

// messages owed to chats, written in the same transaction as the change they report, so
// a crash can neither lose one nor (with the claim below) send one twice.

export type NotificationPayload =
  | { type: "order_final"; orderId: number; late: boolean }
  | { type: "order_flagged"; orderId: number }
  /** the supplier's final word contradicts how kios settled the order: an admin must look */
  | { type: "order_conflict"; orderId: number; supplierStatus: "success" | "failed" }
  | { type: "deposit_requested"; depositId: number }
  | { type: "deposit_decided"; depositId: number }
  | { type: "broadcast"; text: string };

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
export type DeliveryResult = "sent" | "gone";
export type Deliver = (n: Notification) => Promise<DeliveryResult>;

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

/** a sending claim older than this is taken to be from a process that died */
export const STALE_CLAIM_MS = 2 * 60_000;
export const MAX_ATTEMPTS = 8;

/**
 * claims up to `limit` deliverable notifications (pending and due, or stuck in sending
 * since a crash), oldest first; SKIP LOCKED lets several workers share the outbox.
 */
export async function claimNotifications(
  exec: Executor,
  now: Date,
  limit = 50,
): Promise<Notification[]> {
  const staleBefore = new Date(now.getTime() - STALE_CLAIM_MS);
  return exec.transaction(async (tx) => {
    const due = await tx
      .select({ id: notifications.id, status: notifications.status })
      .from(notifications)
      .where(
        or(
          and(
            eq(notifications.status, "pending"),
            or(sql`${notifications.claimedAt} is null`, lte(notifications.claimedAt, now)),
          ),
          and(eq(notifications.status, "sending"), lt(notifications.claimedAt, staleBefore)),
        ),
      )
      .orderBy(asc(notifications.id))
      .limit(limit)
      .for("update", { skipLocked: true });
    if (due.length === 0) return [];
    const interrupted = new Set(due.filter((d) => d.status === "sending").map((d) => d.id));
    const claimed = await tx
      .update(notifications)
      .set({ status: "sending", claimedAt: now, attempts: sql`${notifications.attempts} + 1` })
      .where(
        inArray(
          notifications.id,
          due.map((d) => d.id),
        ),
      )
      .returning();
    return claimed
      .sort((a, b) => a.id - b.id)
      .map((row) => ({
        id: row.id,
        key: row.key,
        chatId: row.chatId,
        messageId: row.messageId,
        payload: row.payload as NotificationPayload,
        attempts: row.attempts,
        recovered: interrupted.has(row.id),
      }));
  });
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
