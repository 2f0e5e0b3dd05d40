import type { JobRunner } from "../../jobs/runner.ts";
import { type CallbackDeps, createCallbackPool, queueFinalCallbacks } from "./callbacks.ts";

/** how often a worker queues the callbacks of orders that became final, and delivers what is due */
const CALLBACK_TICK_MS = 2_000;
/** deliveries in flight at once per worker; a slow endpoint holds one of them, for its deadline */
const CALLBACK_SLOTS = 16;

/**
 * the resellers' callbacks on a worker: a tick that queues finals and fills the free
 * delivery slots. The tick never waits for a delivery (a reseller's slow endpoint can't hold
 * the others' callbacks); several workers share the work by their claims (callbacks.ts), so
 * each is sent by one.
 */
export function registerH2hCallbacks(
  jobs: Pick<JobRunner, "every">,
  deps: CallbackDeps,
  slots = CALLBACK_SLOTS,
): void {
  const pool = createCallbackPool(deps, slots);
  jobs.every(CALLBACK_TICK_MS, async () => {
    await queueFinalCallbacks(deps);
    await pool.fill();
  });
}
