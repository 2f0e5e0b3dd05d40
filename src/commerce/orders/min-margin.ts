import { sql } from "drizzle-orm";
import type { Executor } from "../../db/client.ts";
import type { UplineMargin } from "../../db/schema.ts";
import { clearSetting, getSetting, putSetting } from "../settings.ts";
import type { OrderEngine } from "./engine.ts";

// the least a route must leave over its cost for kios to try it (docs/suppliers.md#routes):
// MIN_MARGIN as the shop starts, or what an admin set since with /minmargin, which wins.

const MIN_MARGIN_SETTING = "routes.min_margin";

/** the most an admin may set: a margin above any airtime's price would stop every sale by mistake */
export const MAX_MIN_MARGIN = 1_000_000;

const isMinMargin = (v: unknown): v is number =>
  typeof v === "number" && Number.isSafeInteger(v) && v >= 0 && v <= MAX_MIN_MARGIN;

/**
 * the admins' setting as a column of another query (Pay reads it with the product: no round
 * trip of its own); minMarginFrom() turns its value into the margin in force
 */
export const minMarginColumn = sql<unknown>`(select value from settings where key = ${MIN_MARGIN_SETTING})`;

export const minMarginFrom = (value: unknown, deps: Pick<OrderEngine, "minMargin">): number =>
  isMinMargin(value) ? value : (deps.minMargin ?? 0);

/**
 * the most a route may cost for this order (design rule 21), so that the
 * shop keeps its minimum margin after paying the supplier and every upline: the buyer's price −
 * every upline's margin − the minimum margin. A route dearer than this is never tried, on
 * the first attempt (Pay: the quote's price and margins) or on any re-route (the order's);
 * a supplier that takes a price cap is sent this (e.g. Digiflazz's `max_price`).
 */
export function routeCostCeiling(o: {
  price: number;
  margins: readonly UplineMargin[];
  minMargin: number;
}): number {
  return o.price - o.margins.reduce((sum, m) => sum + m.amount, 0) - o.minMargin;
}

/** the minimum margin in force: the admins' setting, else the engine's (MIN_MARGIN), else 0 */
export async function minMarginOf(
  exec: Executor,
  deps: Pick<OrderEngine, "minMargin">,
): Promise<number> {
  return getSetting(exec, MIN_MARGIN_SETTING, deps.minMargin ?? 0, isMinMargin);
}

/** an admin's minimum margin (whole rupiah, 0 to MAX_MIN_MARGIN); null: back to MIN_MARGIN */
export async function setMinMargin(exec: Executor, rupiah: number | null): Promise<void> {
  if (rupiah !== null && !isMinMargin(rupiah)) {
    throw new RangeError(`the minimum margin must be whole rupiah from 0 to ${MAX_MIN_MARGIN}`);
  }
  if (rupiah === null) await clearSetting(exec, MIN_MARGIN_SETTING);
  else await putSetting(exec, MIN_MARGIN_SETTING, rupiah);
}
