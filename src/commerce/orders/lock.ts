import { randomBytes } from "node:crypto";
import { and, eq, sql } from "drizzle-orm";
import type { Database, Executor } from "../../db/client.ts";
import { orderLocks } from "../../db/schema.ts";

// one settlement of an order at a time, whichever process runs it: a row in order_locks
// with a short lease, renewed while its holder works and deleted when it is done. A holder
// that dies leaves a lease that lapses within LOCK_MS; nothing holds a connection meanwhile,
// so hundreds of orders can settle side by side on a small pool.
//
// a holder that stalls past its lease (a paused process, renewals that fail) may find the
// order taken over by another settler. So the lock is also a fence: every transaction that
// settles work under it first renews the row as its own holder (row-locked until commit),
// and a holder that no longer owns the row commits nothing.

const LOCK_MS = 15_000;
const RENEW_MS = 5_000;
/** how long a caller waits for an order another process is settling */
const WAIT_MS = 30_000;
const RETRY_MS = 50;

class OrderBusyError extends Error {
  constructor(orderId: number) {
    super(`order ${orderId} is being settled elsewhere`);
    this.name = "OrderBusyError";
  }
}

async function tryLock(db: Database, orderId: number, holder: string): Promise<boolean> {
  const until = sql`now() + make_interval(secs => ${LOCK_MS / 1000})`;
  const rows = await db
    .insert(orderLocks)
    .values({ orderId, holder, until })
    .onConflictDoUpdate({
      target: orderLocks.orderId,
      set: { holder, until },
      setWhere: sql`${orderLocks.until} < now()`,
    })
    .returning({ holder: orderLocks.holder });
  return rows.length > 0;
}

/** the lock was taken over while its holder worked: what it was doing must not commit */
export class OrderLockLostError extends Error {
  constructor(orderId: number) {
    super(`the lock of order ${orderId} was taken over by another settler`);
    this.name = "OrderLockLostError";
  }
}

/**
 * run first inside each transaction that settles work under the lock: throws
 * OrderLockLostError (rolling the transaction back) unless the lock is still this holder's,
 * and keeps it so until the transaction ends
 */
export type OrderFence = (tx: Executor) => Promise<void>;

/** runs fn holding the order's lock; waits up to 30 s for another holder to finish */
export async function withOrderLock<T>(
  db: Database,
  orderId: number,
  fn: (fence: OrderFence) => Promise<T>,
): Promise<T> {
  const holder = randomBytes(8).toString("hex");
  const deadline = Date.now() + WAIT_MS;
  while (!(await tryLock(db, orderId, holder))) {
    if (Date.now() > deadline) throw new OrderBusyError(orderId);
    await new Promise((r) => setTimeout(r, RETRY_MS));
  }
  const mine = and(eq(orderLocks.orderId, orderId), eq(orderLocks.holder, holder));
  const extended = { until: sql`now() + make_interval(secs => ${LOCK_MS / 1000})` };
  let lost = false;
  const renew = setInterval(() => {
    db.update(orderLocks)
      .set(extended)
      .where(mine)
      .returning({ holder: orderLocks.holder })
      .then(
        (rows) => {
          // taken over: the fence refuses from now on, without asking the database
          if (rows.length === 0) lost = true;
        },
        // a renewal that fails proves nothing either way: the fence asks when it matters
        () => {},
      );
  }, RENEW_MS);
  renew.unref();
  const fence: OrderFence = async (tx) => {
    if (!lost) {
      const rows = await tx
        .update(orderLocks)
        .set(extended)
        .where(mine)
        .returning({ holder: orderLocks.holder });
      lost = rows.length === 0;
    }
    if (lost) throw new OrderLockLostError(orderId);
  };
  try {
    return await fn(fence);
  } finally {
    clearInterval(renew);
    await db
      .delete(orderLocks)
      .where(and(eq(orderLocks.orderId, orderId), eq(orderLocks.holder, holder)))
      .catch(() => {});
  }
}
