import { randomBytes } from "node:crypto";
import { and, eq, sql } from "drizzle-orm";
import type { Database, Executor } from "../../db/client.ts";
import { orders } from "../../db/schema.ts";
import type { Order } from "./types.ts";

// one settlement of an order at a time, whichever process runs it: the order's own row
// holds the lock (lock_holder, lock_until) with a short lease, renewed while its holder
// works and cleared when it is done. Taking it is one UPDATE that returns the order, so a
// settlement reads the order it locked in the same round trip. A holder that dies leaves a
// lease that lapses within LOCK_MS; nothing holds a connection meanwhile, so hundreds of
// orders can settle side by side on a small pool.
//
// a holder that stalls past its lease (a paused process, renewals that fail) may find the
// order taken over by another settler. So the lock is also a fence: every transaction that
// settles work under it first renews the lease as its own holder (the order's row locked
// until commit), and a holder that no longer owns it commits nothing.

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

const lease = () => sql`now() + make_interval(secs => ${LOCK_MS / 1000})`;

/** takes the lock when it is free or lapsed: the order as it is now, or undefined */
async function tryLock(db: Database, orderId: number, holder: string): Promise<Order | undefined> {
  const [order] = await db
    .update(orders)
    .set({ lockHolder: holder, lockUntil: lease() })
    .where(
      and(
        eq(orders.id, orderId),
        sql`(${orders.lockUntil} is null or ${orders.lockUntil} < now())`,
      ),
    )
    .returning();
  return order;
}

async function exists(db: Database, orderId: number): Promise<boolean> {
  const [row] = await db.select({ id: orders.id }).from(orders).where(eq(orders.id, orderId));
  return row !== undefined;
}

/** the lock was taken over while its holder worked: what it was doing must not commit */
export class OrderLockLostError extends Error {
  constructor(orderId: number) {
    super(`the lock of order ${orderId} was taken over by another settler`);
    this.name = "OrderLockLostError";
  }
}

/**
 * the lock's fence. Called, it is the first statement of each transaction that settles work
 * under the lock: throws OrderLockLostError (rolling the transaction back) unless the lock is
 * still this holder's, and keeps it so until the transaction ends. A transaction whose first
 * write is the order's own UPDATE folds the fence into it instead (`holds` in its WHERE, and
 * `free` in its SET when that write ends the holder's work): the UPDATE matches only while
 * the lock is this holder's, and a miss is told apart by calling the fence then.
 */
export interface OrderFence {
  (tx: Executor): Promise<void>;
  /**
   * the lock's holder: an UPDATE of the order that adds `lock_holder = holder` to its
   * condition matches only while the lock is this holder's, and frees it by setting
   * lock_holder and lock_until to null with its own write (finaliseOrder)
   */
  readonly holder: string;
  /** the lock was freed by such an UPDATE, now committed: nothing is left to free */
  freed(): void;
}

/**
 * runs fn holding the order's lock, with the order as the lock found it; waits up to 30 s
 * for another holder to finish. Undefined, without running fn, when there is no such order.
 */
export async function withOrderLock<T>(
  db: Database,
  orderId: number,
  fn: (fence: OrderFence, order: Order) => Promise<T>,
): Promise<T | undefined> {
  const holder = randomBytes(8).toString("hex");
  const deadline = Date.now() + WAIT_MS;
  let order = await tryLock(db, orderId, holder);
  while (!order) {
    if (!(await exists(db, orderId))) return undefined;
    if (Date.now() > deadline) throw new OrderBusyError(orderId);
    await new Promise((r) => setTimeout(r, RETRY_MS));
    order = await tryLock(db, orderId, holder);
  }
  const mine = and(eq(orders.id, orderId), eq(orders.lockHolder, holder));
  let lost = false;
  const renew = setInterval(() => {
    db.update(orders)
      .set({ lockUntil: lease() })
      .where(mine)
      .returning({ id: orders.id })
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
  let done = false;
  const fence: OrderFence = Object.assign(
    async (tx: Executor) => {
      if (!lost) {
        const rows = await tx
          .update(orders)
          .set({ lockUntil: lease() })
          .where(mine)
          .returning({ id: orders.id });
        lost = rows.length === 0;
      }
      if (lost) throw new OrderLockLostError(orderId);
    },
    {
      holder,
      freed: () => {
        done = true;
      },
    },
  );
  try {
    return await fn(fence, order);
  } finally {
    clearInterval(renew);
    if (!done) {
      await db
        .update(orders)
        .set({ lockHolder: null, lockUntil: null })
        .where(mine)
        .catch(() => {});
    }
  }
}
