import type { JobRunner } from "../../jobs/runner.ts";
import { type CallbackDeps, deliverDueCallbacks, queueFinalCallbacks } from "./callbacks.ts";

/** how often a worker queues the callbacks of orders that became final, and delivers what is due */
const CALLBACK_TICK_MS = 2_000;
const BATCH = 20;

/**
 * the resellers' callbacks on a worker: a tick that queues finals and delivers due ones.
 * Several workers share the work by their claims (callbacks.ts), so each is sent by one.
 */
export function registerH2hCallbacks(jobs: JobRunner, deps: CallbackDeps): void {
  jobs.every(CALLBACK_TICK_MS, async () => {
    await queueFinalCallbacks(deps);
    // a full batch means more may be due: take the next at once, within the tick
    for (let round = 0; round < 5; round++) {
      if ((await deliverDueCallbacks(deps, BATCH)) < BATCH) break;
    }
  });
}
