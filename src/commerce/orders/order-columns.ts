import { getTableColumns } from "drizzle-orm";
import { orders } from "../../db/schema.ts";

const ORDER_COLUMNS = getTableColumns(orders);

/**
 * a CTE's columns named as the orders table's, so a select from it that also reads other
 * columns (a hold's or a capture's answer) reads an Order beside them
 */
export function orderColumnsOf(cte: object): typeof ORDER_COLUMNS {
  const fields = cte as Record<string, unknown>;
  return Object.fromEntries(
    Object.keys(ORDER_COLUMNS).map((k) => [k, fields[k]]),
  ) as typeof ORDER_COLUMNS;
}
