import type { Order } from "./types.ts";

// the most a route may cost an order: what kios sends as Digiflazz's max_price, so a price
// rise between sync and order is a refusal with nothing formed (a re-route or a refusal),
// never a sale at a loss. Today: the order's price less the shop's minimum margin. The
// network's rule (routeCostCeiling in min-margin.ts: every upline's margin too) replaces
// this one body when it lands.

export function orderCostCeiling(order: Pick<Order, "price">, minMargin: number): number {
  return Math.max(0, order.price - minMargin);
}
