import { type SQL, sql } from "drizzle-orm";
import type { Executor } from "../../db/client.ts";
import { products } from "../../db/schema.ts";

// what kios sells a product by (docs/suppliers.md#what-the-buyer-is-offered). A product is
// on sale when any of its routes can sell it, and its price is marked up over the cost of
// the route kios tries first: a product the first supplier has switched off but a backup
// sells is listed and bought from the backup in one tap. The figures are kept on the
// product row (route_cost, routable), so lists and quotes read one row as before; they are
// null while the product has no route row at all, and then the first supplier's own price
// and status say it.

type SaleFields = Pick<
  typeof products.$inferSelect,
  "supplierPrice" | "active" | "listed" | "routeCost" | "routable"
>;

/** the cost of the route kios tries first (for pasca: the first supplier's admin fee) */
export const saleCostOf = (p: SaleFields): number => p.routeCost ?? p.supplierPrice;

/** whether any route can sell it */
export const onSale = (p: SaleFields): boolean => p.routable ?? (p.active && p.listed);

/** saleCostOf() for the products row aliased `alias` in raw SQL */
export const saleCostSql = (alias: string): SQL =>
  sql.raw(`coalesce(${alias}.route_cost, ${alias}.supplier_price)`);

/** onSale() for the products row aliased `alias` in raw SQL */
export const onSaleSql = (alias: string): SQL =>
  sql.raw(`coalesce(${alias}.routable, ${alias}.active and ${alias}.listed)`);

/** saleCostOf() in the query builder */
export const saleCostColumn =
  sql<number>`coalesce(${products.routeCost}, ${products.supplierPrice})`.mapWith(Number);

/** onSale() in the query builder */
export const onSaleColumn: SQL<boolean> = sql<boolean>`coalesce(${products.routable}, ${products.active} and ${products.listed})`;

/**
 * whether the route row `r` is the first supplier's on a product `p` of its own: then the
 * product row holds its price and status (a product another supplier brought keeps them in
 * its rows, the first supplier's included)
 */
export const firstRouteIsProductRow = (firstSupplier: string): SQL =>
  sql`(r.supplier = ${firstSupplier} and p.origin_supplier is null)`;

/**
 * recomputes route_cost and routable from the routes (as routesOf() orders them: the first
 * supplier's own route is the product's row unless it has a row of its own), for the given
 * products or all: one statement, writing only what changed. Bills stay at the first
 * supplier (the inquiry binds them), so a pasca product keeps its own figures.
 */
export async function refreshRouteSale(
  exec: Executor,
  firstSupplier: string,
  productCodes?: readonly string[],
): Promise<void> {
  const only =
    productCodes === undefined
      ? sql`true`
      : sql`p.code in (select jsonb_array_elements_text(${JSON.stringify(productCodes)}::jsonb))`;
  const ownRow = firstRouteIsProductRow(firstSupplier);
  await exec.execute(sql`
    with sale as (
      select p.code,
        exists (select 1 from product_routes r where r.product_code = p.code) as has_routes,
        (select rt.cost from (
            select 0 as position, 0::bigint as id, p.supplier_price as cost,
              p.active and p.listed as ok, true as enabled
            where p.origin_supplier is null and not exists (select 1 from product_routes r
              where r.product_code = p.code and r.supplier = ${firstSupplier})
            union all
            select r.position, r.id,
              case when ${ownRow} then p.supplier_price else r.cost end,
              case when ${ownRow} then p.active and p.listed else r.active and r.listed end,
              r.enabled
            from product_routes r where r.product_code = p.code
          ) rt
          where rt.enabled and rt.ok
          order by rt.position, rt.id
          limit 1) as cost
      from products p
      where p.type <> 'pasca' and ${only}
    ),
    figures as (
      select s.code,
        case when s.has_routes then coalesce(s.cost, p.supplier_price) end as route_cost,
        case when s.has_routes then s.cost is not null end as routable
      from sale s join products p on p.code = s.code
    )
    update products p set route_cost = f.route_cost, routable = f.routable
    from figures f
    where p.code = f.code
      and (p.route_cost, p.routable) is distinct from (f.route_cost, f.routable)`);
}
