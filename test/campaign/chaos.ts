import type { KiosProcess } from "./processes.ts";
import type { Random } from "./rng.ts";

// SIGKILL of kios processes at random moments, each followed by a restart after a short
// pause. The moments are points in the order budget (kill i when that share of orders has
// been started), so a seed gives the same plan whatever the machine's speed.

export interface KillRecord {
  role: string;
  /** orders started when it was killed */
  atOrder: number;
  pauseMs: number;
  /** how long the restart took */
  restartMs: number;
}

export interface Chaos {
  /** runs until every planned kill has happened; resolve after the last restart */
  done: Promise<KillRecord[]>;
}

export function startChaos(o: {
  kills: number;
  budget: number;
  processes: KiosProcess[];
  rng: Random;
  ordersStarted: () => number;
  startTimeoutMs: number;
  /** resolves when the customers are done (remaining kills then happen at once) */
  customersDone: Promise<void>;
  log: (line: string) => void;
}): Chaos {
  const moments = Array.from({ length: o.kills }, () =>
    Math.floor(o.budget * (0.05 + 0.8 * o.rng.next())),
  ).sort((a, b) => a - b);
  let finished = false;
  void o.customersDone.then(() => {
    finished = true;
  });

  const done = (async () => {
    const records: KillRecord[] = [];
    for (const moment of moments) {
      while (!finished && o.ordersStarted() < moment) await sleep(50);
      // a moment inside the work, not at its edge
      await sleep(o.rng.int(0, 1500));
      const target = o.rng.pick(o.processes);
      const pauseMs = o.rng.int(300, 2000);
      const atOrder = o.ordersStarted();
      await target.kill();
      o.log(`kill ${target.role} at order ${atOrder}; restart in ${pauseMs} ms`);
      await sleep(pauseMs);
      const started = Date.now();
      await startWithRetry(target, o.startTimeoutMs);
      records.push({ role: target.role, atOrder, pauseMs, restartMs: Date.now() - started });
    }
    return records;
  })();
  return { done };
}

async function startWithRetry(p: KiosProcess, timeoutMs: number): Promise<void> {
  try {
    await p.start(timeoutMs);
  } catch {
    // one more try: a start can fail on a port the killed process still held
    await p.kill();
    await sleep(1000);
    await p.start(timeoutMs);
  }
}

export const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));
