import { and, asc, type Column, eq, type SQL, sql } from "drizzle-orm";
import type { Database, Executor } from "../../db/client.ts";
import { productRoutes, products } from "../../db/schema.ts";
import { jsonOf } from "../../db/sql-rows.ts";
import { routeOrderOf } from "./route-order.ts";
import { refreshRouteSale } from "./sale.ts";

/** the first supplier's name when none is given (SUPPLIER_NAME's default) */
export const DEFAULT_FIRST_SUPPLIER = "main";

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
  /**
   * not tried until then: it kept failing at its supplier (catalogue/pauses.ts); null: not
   * paused. The product's own pause closes every route
   */
  pausedUntil: Date | null;
}

type ProductRow = Pick<
  typeof products.$inferSelect,
  "code" | "supplierPrice" | "active" | "listed" | "originSupplier"
>;

/**
 * every route of a product, in the order kios tries them. The first supplier's route is
 * the product's own row (its code, price and status) unless an admin gave it a row of its
 * own (to move it); then that row's position and switch count. A product another supplier
 * brought (origin_supplier) has only the routes of its rows.
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
  return routesFromRows(product, rows, firstSupplier);
}

/** a route as its row stores it (the fields routesFromRows reads) */
export type StoredRoute = Pick<
  typeof productRoutes.$inferSelect,
  | "supplier"
  | "supplierCode"
  | "cost"
  | "active"
  | "listed"
  | "enabled"
  | "position"
  | "pausedUntil"
>;

/** the routes routesOf() returns, from rows read already (its own query, or routesColumn's) */
export function routesFromRows(
  product: ProductRow,
  rows: readonly StoredRoute[],
  firstSupplier: string,
): Route[] {
  const routes: Route[] = rows.map((r) => ({
    supplier: r.supplier,
    supplierCode: r.supplierCode,
    cost: r.cost,
    active: r.active && r.listed,
    enabled: r.enabled,
    position: r.position,
    implicit: false,
    pausedUntil: r.pausedUntil,
  }));
  if (product.originSupplier !== null) return routes;
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
      pausedUntil: null,
    });
  }
  return routes;
}

/**
 * a product's route rows as one json column of another query (Pay reads them with its
 * quote and product: no round trip of their own); storedRoutesFrom() reads its value
 */
export const routesColumn = (productCode: SQL | Column) => sql<unknown>`(
  select coalesce(json_agg(json_build_object(
      'supplier', r.supplier, 'supplierCode', r.supplier_code, 'cost', r.cost,
      'active', r.active, 'listed', r.listed, 'enabled', r.enabled, 'position', r.position,
      'pausedUntil', r.paused_until) order by r.position, r.id), '[]'::json)
    from product_routes r where r.product_code = ${productCode})`;

/** routesColumn's value: parsed by the driver, or json text on one that does not */
export function storedRoutesFrom(value: unknown): StoredRoute[] {
  const rows =
    jsonOf<
      (Omit<StoredRoute, "pausedUntil" | "cost"> & {
        cost: number | string;
        pausedUntil: string | null;
      })[]
    >(value) ?? [];
  return rows.map((r) => ({
    ...r,
    cost: Number(r.cost),
    pausedUntil: r.pausedUntil === null ? null : new Date(r.pausedUntil),
  }));
}

/** a route paused at `now` (it kept failing at its supplier) */
export const routePaused = (r: Pick<Route, "pausedUntil">, now: number): boolean =>
  r.pausedUntil !== null && r.pausedUntil.getTime() > now;

/**
 * the routes kios may try for an order, in order: enabled, active, not paused, not tried
 * yet, and costing no more than `costCeiling` (orders/min-margin.ts's routeCostCeiling: a
 * route that would leave the shop less than its minimum margin once every upline's margin
 * is paid is not tried)
 */
export function usableRoutes(
  routes: readonly Route[],
  o: {
    /** the most a route may cost (routeCostCeiling) */
    costCeiling: number;
    tried: ReadonlySet<string>;
    testing: boolean;
    /** the time (ms) a route's pause is read at */
    now: number;
  },
): Route[] {
  return routes.filter(
    (r) =>
      r.enabled &&
      r.active &&
      !routePaused(r, o.now) &&
      !o.tried.has(r.supplier) &&
      (o.testing || r.cost <= o.costCeiling),
  );
}

export type RouteChange =
  | { action: "up" | "down"; supplier: string }
  | { action: "enable" | "disable"; supplier: string };

export type RouteChangeResult =
  | { ok: true; routes: Route[] }
  | { ok: false; reason: "no_product" | "no_route" | "at_edge" | "by_cost" };

/** a product's row, locked to the transaction's end: its routes change one change at a time */
export async function lockProduct(
  tx: Executor,
  code: string,
): Promise<typeof products.$inferSelect | undefined> {
  const [product] = await tx.select().from(products).where(eq(products.code, code)).for("update");
  return product;
}

/**
 * gives the first supplier's implicit route a row of its own (at position 0), so it can be
 * moved, paused or switched like any; nothing for a product another supplier brought (the
 * first supplier has no implicit route there) or when the row is there already
 */
export async function materialiseFirstRoute(
  tx: Executor,
  product: typeof products.$inferSelect,
  firstSupplier: string,
  now: Date,
): Promise<void> {
  if (product.originSupplier !== null) return;
  await tx
    .insert(productRoutes)
    .values({
      productCode: product.code,
      supplier: firstSupplier,
      supplierCode: product.code,
      name: product.name,
      cost: product.supplierPrice,
      active: product.active,
      position: 0,
      createdAt: now,
      updatedAt: now,
    })
    .onConflictDoNothing();
}

/**
 * an admin moves a route up or down, or switches it on or off (`/routes`, `kios routes`);
 * moves are refused while the owner has routes ordered by cost.
 * The first supplier's implicit route gets a row of its own first, so every route has a
 * position; positions are then rewritten 0, 1, 2, … in one transaction under the
 * product's row lock.
 */
export async function changeRoute(
  db: Database,
  o: { productCode: string; firstSupplier: string; change: RouteChange },
): Promise<RouteChangeResult> {
  return db.transaction(async (tx) => {
    const product = await lockProduct(tx, o.productCode);
    if (!product) return { ok: false, reason: "no_product" } as const;
    const now = new Date();
    await materialiseFirstRoute(tx, product, o.firstSupplier, now);
    const routes = await routesOf(tx, product, o.firstSupplier);
    const i = routes.findIndex((r) => r.supplier === o.change.supplier);
    if (i < 0) return { ok: false, reason: "no_route" } as const;
    const { action } = o.change;
    // by cost, the next sync would undo a move: the owner switches to manual order first
    if ((action === "up" || action === "down") && (await routeOrderOf(tx)) === "cost") {
      return { ok: false, reason: "by_cost" } as const;
    }
    if (action === "enable" || action === "disable") {
      await tx
        .update(productRoutes)
        .set({ enabled: action === "enable", updatedAt: now })
        .where(
          and(
            eq(productRoutes.productCode, product.code),
            eq(productRoutes.supplier, o.change.supplier),
          ),
        );
    } else {
      const j = action === "up" ? i - 1 : i + 1;
      if (j < 0 || j >= routes.length) return { ok: false, reason: "at_edge" } as const;
      [routes[i], routes[j]] = [routes[j]!, routes[i]!];
      for (const [position, r] of routes.entries()) {
        await tx
          .update(productRoutes)
          .set({ position, updatedAt: now })
          .where(
            and(
              eq(productRoutes.productCode, product.code),
              eq(productRoutes.supplier, r.supplier),
            ),
          );
      }
    }
    await refreshRouteSale(tx, o.firstSupplier, [product.code]);
    return { ok: true, routes: await routesOf(tx, product, o.firstSupplier) } as const;
  });
}

/** a product's routes by its code; undefined: no such product */
export async function routesOfCode(
  exec: Executor,
  productCode: string,
  firstSupplier: string,
): Promise<Route[] | undefined> {
  const [product] = await exec.select().from(products).where(eq(products.code, productCode));
  return product ? routesOf(exec, product, firstSupplier) : undefined;
}
