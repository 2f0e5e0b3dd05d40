import type { StoredTransaction } from "./store.ts";

// a status answer that lags: a supplier whose read side trails its write side reports a
// transaction as pending for a while after it settled. The books are not touched; only
// what one answer shows.

export function statusShows(t: StoredTransaction, nowMs: number, lagMs: number): StoredTransaction {
  if (lagMs <= 0 || t.settledAt === null || nowMs - t.settledAt >= lagMs) return t;
  // a failure at once was never pending: there is nothing earlier to show
  if (t.rule.initial !== "pending") return t;
  return { ...t, status: "pending" };
}
