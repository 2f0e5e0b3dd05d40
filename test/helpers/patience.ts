import { cpus, loadavg } from "node:os";

// How long a test waits for an event is a cap, not a delay: on a quiet machine the event comes
// long before it. On a loaded one (six suites on two cores) everything takes several times as
// long, so every cap scales by one factor: KIOS_TEST_PATIENCE if set (vitest.config.ts sets
// it from the load at the run's start), and never less than the load per core at the moment
// the wait starts (capped at 6), so a run that gets busier midway waits longer too.

const MAX_FACTOR = 6;

/** the load average per core now, between 1 and MAX_FACTOR */
export function loadFactor(): number {
  const perCore = (loadavg()[0] ?? 0) / Math.max(1, cpus().length);
  return Math.min(MAX_FACTOR, Math.max(1, perCore));
}

/** the factor every cap is multiplied by */
function patienceFactor(): number {
  const set = Number(process.env.KIOS_TEST_PATIENCE);
  return Math.max(Number.isFinite(set) && set > 0 ? set : 1, loadFactor());
}

/** `ms` as a cap on this machine now: a quiet machine's figure times the patience factor */
export function patient(ms: number): number {
  return Math.round(ms * patienceFactor());
}
