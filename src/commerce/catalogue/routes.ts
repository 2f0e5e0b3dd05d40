import { asc, eq } from "drizzle-orm";
import type { Executor } from "../../db/client.ts";
import { productRoutes, type products } from "../../db/schema.ts";

// a kios product's routes (docs/suppliers.md#routes): one supplier's code for it, that
// supplier's price and status, in the order kios tries them.

export interface Route {
  supplier: string;
  /** the code this supplier knows the product by */
  supplierCode: string;
  /** what this supplier charges (rupiah) */
  cost: number;
  /** as the supplier last reported it (and still listed) */
  active: boolean;
  /** an admin's switch */
  enabled: boolean;
  position: number;
  /** the product's own code at the first supplier, with no row of its own */
  implicit: boolean;
}

type ProductRow = Pick<
  typeof products.$inferSelect,
  "code" | "supplierPrice" | "active" | "listed"
>;

/**
 * every route of a product, in the order kios tries them. The first supplier's route is
 * the product's own row (its code, price and status) unless an admin gave it a row of its
 * own (to move it); then that row's position and switch count.
 */
export async function routesOf(
  exec: Executor,
  product: ProductRow,
  firstSupplier: string,
): Promise<Route[]> {
  const rows = await exec
    .select()
    .from(productRoutes)
    .where(eq(productRoutes.productCode, product.code))
    .orderBy(asc(productRoutes.position), asc(productRoutes.id));
  const routes: Route[] = rows.map((r) => ({
    supplier: r.supplier,
    supplierCode: r.supplierCode,
    cost: r.cost,
    active: r.active && r.listed,
    enabled: r.enabled,
    position: r.position,
    implicit: false,
  }));
  const own = routes.find((r) => r.supplier === firstSupplier);
  if (own) {
    // the product row is the first supplier's truth: its price and status as last synced
    own.cost = product.supplierPrice;
    own.active = product.active && product.listed;
  } else {
    routes.unshift({
      supplier: firstSupplier,
      supplierCode: product.code,
      cost: product.supplierPrice,
      active: product.active && product.listed,
      enabled: true,
      position: 0,
      implicit: true,
    });
  }
  return routes;
}

/**
 * the routes kios may try for an order at this price, in order: enabled, active, not tried
 * yet, and leaving at least `minMargin` over the cost (a route that would sell at a loss,
 * or below the shop's margin, is not tried)
 */
export function usableRoutes(
  routes: readonly Route[],
  o: { price: number; minMargin: number; tried: ReadonlySet<string>; testing: boolean },
): Route[] {
  return routes.filter(
    (r) =>
      r.enabled &&
      r.active &&
      !o.tried.has(r.supplier) &&
      (o.testing || o.price - r.cost >= o.minMargin),
  );
}
