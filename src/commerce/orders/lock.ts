import { randomBytes } from "node:crypto";
import { and, eq, sql } from "drizzle-orm";
import type { Database } from "../../db/client.ts";
import { orderLocks } from "../../db/schema.ts";

// one settlement of an order at a time, whichever process runs it: a row in order_locks
// with a short lease, renewed while its holder works and deleted when it is done. A holder
// that dies leaves a lease that lapses within LOCK_MS; nothing holds a connection meanwhile,
// so hundreds of orders can settle side by side on a small pool.

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

/** runs fn holding the order's lock; waits up to 30 s for another holder to finish */
export async function withOrderLock<T>(
  db: Database,
  orderId: number,
  fn: () => Promise<T>,
): Promise<T> {
  const holder = randomBytes(8).toString("hex");
  const deadline = Date.now() + WAIT_MS;
  while (!(await tryLock(db, orderId, holder))) {
    if (Date.now() > deadline) throw new OrderBusyError(orderId);
    await new Promise((r) => setTimeout(r, RETRY_MS));
  }
  const renew = setInterval(() => {
    db.update(orderLocks)
      .set({ until: sql`now() + make_interval(secs => ${LOCK_MS / 1000})` })
      .where(and(eq(orderLocks.orderId, orderId), eq(orderLocks.holder, holder)))
      .catch(() => {});
  }, RENEW_MS);
  renew.unref();
  try {
    return await fn();
  } finally {
    clearInterval(renew);
    await db
      .delete(orderLocks)
      .where(and(eq(orderLocks.orderId, orderId), eq(orderLocks.holder, holder)))
      .catch(() => {});
  }
}
