import { routeCostCeiling } from "./min-margin.ts";
import type { Order } from "./types.ts";

// the most a route may cost an order: what kios sends as Digiflazz's max_price, so a price
// rise between sync and order is a refusal with nothing formed (a re-route or a refusal),
// never a sale at a loss, nor one that pays the uplines' margins out of the shop's own
// (design rule 21: the order's price less every upline's margin and the minimum margin).

export function orderCostCeiling(
  order: Pick<Order, "price" | "margins">,
  minMargin: number,
): number {
  return Math.max(0, routeCostCeiling({ price: order.price, margins: order.margins, minMargin }));
}
