import { sql } from "drizzle-orm";
import type { Database, Executor } from "../../db/client.ts";
import { rowsOf } from "../../db/sql-rows.ts";
import { getSetting, putSetting } from "../settings.ts";
import { firstRouteIsProductRow, refreshRouteSale } from "./sale.ts";

// the order a product's routes are tried in (docs/suppliers.md#routes-by-cost): by hand, as
// admins move them (the default), or by cost, cheapest first, re-ordered at every sync and
// link of a supplier's catalogue. Either way a route is tried only when it leaves the
// minimum margin at the buyer's price (usableRoutes), and the buyer's price is marked up
// over the route tried first.

export const ROUTE_ORDERS = ["manual", "cost"] as const;
export type RouteOrder = (typeof ROUTE_ORDERS)[number];

const ROUTE_ORDER_SETTING = "routes.order";

const isRouteOrder = (v: unknown): v is RouteOrder =>
  typeof v === "string" && (ROUTE_ORDERS as readonly string[]).includes(v);

/** the owner's choice; manual until one is made */
export async function routeOrderOf(exec: Executor): Promise<RouteOrder> {
  return getSetting(exec, ROUTE_ORDER_SETTING, "manual", isRouteOrder);
}

/**
 * the owner's choice (`/routeorder`, `kios routes --order`). Switching to cost orders every
 * product's routes at once, in the same transaction; switching back keeps them where they
 * are, to be moved by hand from there
 */
export async function setRouteOrder(
  db: Database,
  order: RouteOrder,
  firstSupplier: string,
): Promise<{ moved: number }> {
  return db.transaction(async (tx) => {
    await putSetting(tx, ROUTE_ORDER_SETTING, order);
    if (order === "manual") return { moved: 0 };
    const moved = await orderRoutesByCost(tx, firstSupplier);
    await refreshRouteSale(tx, firstSupplier);
    return { moved };
  });
}

/** orderRoutesByCost() when the owner chose cost; the caller refreshes the sale figures after */
export async function applyRouteOrder(
  tx: Executor,
  firstSupplier: string,
): Promise<{ order: RouteOrder; moved: number }> {
  const order = await routeOrderOf(tx);
  return { order, moved: order === "cost" ? await orderRoutesByCost(tx, firstSupplier) : 0 };
}

/**
 * rewrites every product's route positions cheapest first: the routes that can sell
 * (enabled, active, listed) before the ones that can't, then by cost, then as they stood.
 * The first supplier's implicit route gets a row first where a product has others, so it
 * has a position too. Bills are left out (they are paid at the first supplier). Writes only
 * the positions that change; returns how many did
 */
async function orderRoutesByCost(tx: Executor, firstSupplier: string): Promise<number> {
  const now = new Date().toISOString();
  await tx.execute(sql`
    insert into product_routes (product_code, supplier, supplier_code, name, cost, active,
      position, created_at, updated_at)
    select p.code, ${firstSupplier}, p.code, p.name, p.supplier_price, p.active, 0,
      ${now}::timestamptz, ${now}::timestamptz
    from products p
    where p.origin_supplier is null and p.type <> 'pasca'
      and exists (select 1 from product_routes r where r.product_code = p.code)
      and not exists (select 1 from product_routes r
        where r.product_code = p.code and r.supplier = ${firstSupplier})
    on conflict do nothing`);
  const own = firstRouteIsProductRow(firstSupplier);
  const result = await tx.execute(sql`
    with ranked as (
      select r.id, (row_number() over (partition by r.product_code order by
          not (r.enabled and case when ${own} then p.active and p.listed
            else r.active and r.listed end),
          case when ${own} then p.supplier_price else r.cost end,
          r.position, r.id) - 1)::int as position
      from product_routes r join products p on p.code = r.product_code
      where p.type <> 'pasca'
    ),
    moved as (
      update product_routes r set position = k.position, updated_at = ${now}::timestamptz
      from ranked k
      where r.id = k.id and r.position <> k.position
      returning r.id
    )
    select count(*)::int as n from moved`);
  return Number(rowsOf(result)[0]?.n ?? 0);
}
