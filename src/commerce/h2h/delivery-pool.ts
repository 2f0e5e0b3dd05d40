import type { Logger } from "../../logger.ts";

// deliveries to resellers' servers that never wait for each other: a fixed number of slots,
// each delivery in one until it ends (its own deadline bounds that), and a slot that frees
// claims the next due delivery at once. What is delivered is the caller's (the final
// callbacks today; a report URL's GET can be a second pool over the same sendToReseller).

export interface DeliveryPool {
  /** claims up to the free slots' worth of due deliveries and starts them; how many started */
  fill(): Promise<number>;
  /** resolves once nothing is in flight (a stop, tests) */
  idle(): Promise<void>;
  readonly inFlight: number;
}

export interface DeliveryPoolDeps<T> {
  slots: number;
  /** takes (claims) up to `n` due deliveries, none another slot or process holds */
  claim(n: number): Promise<T[]>;
  /** one delivery, to the end (recorded); it must not take longer than its deadline */
  deliver(item: T): Promise<void>;
  logger: Logger;
}

export function createDeliveryPool<T>(deps: DeliveryPoolDeps<T>): DeliveryPool {
  const running = new Set<Promise<void>>();
  let claiming: Promise<number> | undefined;

  function start(item: T): void {
    const run = deps
      .deliver(item)
      .catch((err) => deps.logger.error({ err }, "a delivery to a reseller failed"))
      .finally(() => {
        running.delete(run);
        // the freed slot takes the next due delivery now, not at the next tick
        void pool.fill().catch((err) => deps.logger.error({ err }, "claiming deliveries failed"));
      });
    running.add(run);
  }

  const pool: DeliveryPool = {
    get inFlight() {
      return running.size;
    },
    fill() {
      // one claim at a time: two would each see the same free slots
      if (claiming) return claiming;
      const free = deps.slots - running.size;
      if (free <= 0) return Promise.resolve(0);
      claiming = deps
        .claim(free)
        .then((items) => {
          for (const item of items) start(item);
          return items.length;
        })
        .finally(() => {
          claiming = undefined;
        });
      return claiming;
    },
    async idle() {
      while (running.size > 0 || claiming) {
        await Promise.allSettled([...running, ...(claiming ? [claiming] : [])]);
      }
    },
  };
  return pool;
}
