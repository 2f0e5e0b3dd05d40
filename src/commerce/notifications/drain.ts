import type { Clock } from "@kios/kit";
import type { Database } from "../../db/client.ts";
import type { Logger } from "../../logger.ts";
import {
  type Claimed,
  claimNotifications,
  giveBackClaims,
  HEARTBEAT_MS,
  markFailed,
  markSent,
  type NotificationSender,
  renewClaims,
  type SendResult,
  STALE_CLAIM_MS,
  startSending,
} from "./outbox.ts";
import type { SendLimiter } from "./send-limiter.ts";

export interface DrainDeps {
  db: Database;
  send: NotificationSender;
  limiter: SendLimiter;
  clock: Clock;
  logger: Logger;
  onSendResult?(result: "sent" | "gone" | "failed"): void;
}

export interface DrainOptions {
  /** no new send starts after this long (real time): the job stays short and re-kicks */
  budgetMs?: number;
  /** a send that takes longer is given up on and left to recovery (its outcome is unknown) */
  maxSendMs?: number;
  heartbeatMs?: number;
  /** rows claimed at a time */
  batch?: number;
  /** chats sent to at once */
  concurrency?: number;
}

export interface DrainResult {
  handled: number;
  /** the budget ran out with work left: the caller should drain again soon */
  more: boolean;
}

/** a drain takes new sends for this long; the notify job's expiry is sized from it */
export const DRAIN_BUDGET_MS = 15_000;
/** a single Bot API call that has not answered in this long is not waited for */
export const MAX_SEND_MS = 30_000;
/**
 * chats sent to at once: Telegram answers in ~80 ms from Indonesia, so 30 messages a second
 * need about three in flight; more leave room for slow answers and chats that must wait
 */
const SEND_CONCURRENCY = 16;

/** runs `work` on every item, at most `limit` at a time */
async function inPool<T>(items: T[], limit: number, work: (item: T) => Promise<void>) {
  let next = 0;
  const lanes = Array.from({ length: Math.min(limit, items.length) }, async () => {
    while (next < items.length) await work(items[next++]!);
  });
  await Promise.all(lanes);
}

/**
 * delivers what is due in the outbox, oldest first, for at most about `budgetMs` (plus one
 * send), renewing its claims as it goes so that a survivor can tell a live sender from a
 * dead one within STALE_CLAIM_MS.
 */
export async function drainOutbox(
  deps: DrainDeps,
  options: DrainOptions = {},
): Promise<DrainResult> {
  const budgetMs = options.budgetMs ?? DRAIN_BUDGET_MS;
  const maxSendMs = options.maxSendMs ?? MAX_SEND_MS;
  const log = deps.logger.child({ component: "notify" });
  const count = deps.onSendResult ?? (() => {});
  const now = () => new Date(deps.clock.now());
  const started = performance.now();
  const timeUp = () => performance.now() - started >= budgetMs;

  // every row this drain holds: reserved (still pending) or sending (recovered, or in flight)
  const held = new Map<number, { n: Claimed; sending: boolean }>();
  // claim changes and heartbeats take turns, so a heartbeat never sees a half-made change
  let turn: Promise<unknown> = Promise.resolve();
  const serial = <T>(fn: () => Promise<T>): Promise<T> => {
    const next = turn.then(fn, fn);
    turn = next.catch(() => {});
    return next;
  };

  const heartbeat = setInterval(() => {
    void serial(async () => {
      const at = now();
      const rows = [...held.values()];
      const reserved = rows.filter((h) => !h.sending).map((h) => h.n);
      const sending = rows.filter((h) => h.sending).map((h) => h.n);
      const until = new Date(at.getTime() + STALE_CLAIM_MS);
      const kept = new Set([
        ...(await renewClaims(deps.db, reserved, until)),
        ...(await renewClaims(deps.db, sending, at)),
      ]);
      for (const h of rows) {
        if (!held.has(h.n.id)) continue;
        if (kept.has(h.n.id)) h.n = { ...h.n, stamp: h.sending ? at : until };
        else held.delete(h.n.id);
      }
    }).catch((err) => log.warn({ err }, "renewing notification claims failed"));
  }, options.heartbeatMs ?? HEARTBEAT_MS);

  let handled = 0;
  let more = false;

  async function deliver(id: number): Promise<void> {
    const h = held.get(id);
    if (!h) return;
    await deps.limiter.wait(h.n.chatId);
    const taken = await serial(() => startSending(deps.db, h.n, now()));
    if (!taken) {
      held.delete(id); // lost to another sender while it waited
      return;
    }
    held.set(id, { n: taken, sending: true });
    const result = await sendWithin(deps.send, taken, maxSendMs);
    if (result === "timeout") {
      // maybe sent, maybe not: stop renewing it, and recovery (the safe mode) takes over
      held.delete(id);
      log.warn({ notification: taken.key }, "delivery did not answer in time");
      count("failed");
    } else if (result instanceof Error) {
      log.warn({ err: result, notification: taken.key }, "delivery failed; will retry");
      await serial(() => markFailed(deps.db, taken, result.message, now(), false));
      held.delete(id);
      count("failed");
    } else {
      await serial(async () => {
        if (result === "sent") await markSent(deps.db, id, now());
        else await markFailed(deps.db, taken, "chat unreachable", now(), true);
      });
      held.delete(id);
      count(result);
    }
    handled += 1;
  }

  try {
    for (;;) {
      if (timeUp()) {
        more = true;
        break;
      }
      const batch = await serial(() => claimNotifications(deps.db, now(), options.batch));
      if (batch.length === 0) break;
      for (const n of batch) held.set(n.id, { n, sending: n.recovered });
      // chats side by side, so a round trip to Telegram or a chat waiting out its own limit
      // holds back no other chat; each chat's notifications one after another, in order
      const byChat = new Map<number, number[]>();
      for (const n of batch) byChat.set(n.chatId, [...(byChat.get(n.chatId) ?? []), n.id]);
      await inPool([...byChat.values()], options.concurrency ?? SEND_CONCURRENCY, async (ids) => {
        for (const id of ids) {
          if (timeUp()) {
            more = true;
            return;
          }
          await deliver(id);
        }
      });
      if (more) break;
    }
  } finally {
    clearInterval(heartbeat);
    const left = [...held.values()].map((h) => h.n);
    if (left.length > 0) await serial(() => giveBackClaims(deps.db, left, now()));
  }
  return { handled, more };
}

async function sendWithin(
  send: NotificationSender,
  n: Claimed,
  ms: number,
): Promise<SendResult | Error | "timeout"> {
  const { stamp: _, ...notification } = n;
  const sending = send(notification).catch((err: unknown) =>
    err instanceof Error ? err : new Error(String(err)),
  );
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<"timeout">((resolve) => {
    timer = setTimeout(() => resolve("timeout"), ms);
  });
  try {
    return await Promise.race([sending, late]);
  } finally {
    clearTimeout(timer);
  }
}
