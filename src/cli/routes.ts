import {
  linkByHand,
  listUnlinked,
  type UnlinkedProduct,
} from "../commerce/catalogue/manual-links.ts";
import {
  ROUTE_ORDERS,
  type RouteOrder,
  routeOrderOf,
  setRouteOrder,
} from "../commerce/catalogue/route-order.ts";
import {
  changeRoute,
  type Route,
  routePaused,
  routesOfCode,
} from "../commerce/catalogue/routes.ts";
import { loadConfig } from "../config.ts";
import { formatRupiah } from "../supplier/amounts.ts";
import { type Command, parseFlags, UsageError } from "./command.ts";
import { withDatabase } from "./database.ts";
import { print } from "./io.ts";

// `kios routes`: the CLI twin of the admins' /routes (docs/suppliers.md#routes)

const ROUTES_USAGE = [
  "kios routes <product> [--json]",
  "       kios routes <product> up|down|enable|disable <supplier>",
  "       kios routes <product> link <supplier> <supplier_code>",
  "       kios routes --unlinked [--supplier <name>] [--json]",
  "       kios routes --order cost|manual",
].join("\n");

const ACTIONS = ["up", "down", "enable", "disable"] as const;

const ORDER_LINES: Record<RouteOrder, string> = {
  manual: "order: manual (as admins move them)",
  cost: "order: by cost (cheapest first, re-ordered at every sync)",
};

function describe(productCode: string, routes: readonly Route[], order: RouteOrder): string {
  const lines = [`routes of ${productCode}, tried in this order:`, `  ${ORDER_LINES[order]}`];
  routes.forEach((r, i) => {
    const state = !r.enabled
      ? "disabled"
      : !r.active
        ? "inactive"
        : routePaused(r, Date.now())
          ? `paused until ${r.pausedUntil!.toISOString()}`
          : "active";
    lines.push(
      `  ${i + 1}. ${r.supplier.padEnd(12)} ${r.supplierCode.padEnd(14)} ${formatRupiah(r.cost).padStart(12)}  ${state}`,
    );
  });
  return lines.join("\n");
}

const REASONS = {
  no_product: "no such product",
  no_route: "that supplier has no route for this product",
  at_edge: "the route is already at that end",
  not_unlinked: "that supplier's product is not waiting for a link (see kios routes --unlinked)",
  bill: "a bill is paid at the first supplier: it takes no route",
  has_route: "the product has a route at that supplier already (move or disable it instead)",
  by_cost: "routes are ordered by cost: kios routes --order manual first, to move them by hand",
} as const;

/** what the linking left to an admin, with the kios products each matched equally */
function describeUnlinked(items: readonly UnlinkedProduct[], total: number): string {
  if (total === 0) return "every product of the other suppliers is linked or matched nothing new";
  const lines = [`${total} product(s) of other suppliers wait for a link:`];
  for (const u of items) {
    const matched =
      u.candidates.length > 0 ? `matches ${u.candidates.join(", ")}` : "matches no product";
    lines.push(
      `  ${u.supplier.padEnd(12)} ${u.supplierCode.padEnd(14)} ${u.name} (${u.brand}, ${u.category}, ${formatRupiah(u.cost)}): ${matched}`,
    );
  }
  if (items.length < total) lines.push(`  … and ${total - items.length} more (--json for all)`);
  return lines.join("\n");
}

export const routesCommand: Command = {
  name: "routes",
  summary: "a product's routes (suppliers, codes, costs), moved, switched, linked by hand",
  usage: ROUTES_USAGE,
  async run(argv, deps) {
    const { values, positionals } = parseFlags(
      argv,
      {
        json: { type: "boolean", default: false },
        unlinked: { type: "boolean", default: false },
        supplier: { type: "string" },
        order: { type: "string" },
      },
      true,
    );
    if (values.unlinked) {
      return withDatabase(deps, async (database) => {
        const all = values.json ? 100_000 : 50;
        const { items, total } = await listUnlinked(database.db, {
          supplier: values.supplier,
          limit: all,
        });
        await print(values.json ? JSON.stringify(items, null, 2) : describeUnlinked(items, total));
        return 0;
      });
    }
    if (values.order !== undefined) {
      const order = values.order;
      if (!(ROUTE_ORDERS as readonly string[]).includes(order)) {
        throw new UsageError(`the order is one of ${ROUTE_ORDERS.join(", ")}, not "${order}"`);
      }
      const config = await loadConfig(deps.env);
      return withDatabase(deps, async (database) => {
        const { moved } = await setRouteOrder(
          database.db,
          order as RouteOrder,
          config.supplierName,
        );
        await print(`${ORDER_LINES[order as RouteOrder]}; ${moved} route(s) moved`);
        return 0;
      });
    }
    const [productCode, action, supplier, supplierCode] = positionals;
    if (!productCode) throw new UsageError("name a product code");
    if (action === "link") {
      if (!supplier || !supplierCode) {
        throw new UsageError(
          "link which supplier's product? kios routes <product> link <supplier> <code>",
        );
      }
      const config = await loadConfig(deps.env);
      return withDatabase(deps, async (database) => {
        const linked = await linkByHand(database.db, {
          productCode,
          supplier,
          supplierCode,
          firstSupplier: config.supplierName,
        });
        if (!linked.ok) {
          console.error(`kios routes: ${REASONS[linked.reason]}`);
          return 1;
        }
        const routes = (await routesOfCode(database.db, productCode, config.supplierName)) ?? [];
        await print(
          values.json
            ? JSON.stringify(routes, null, 2)
            : describe(productCode, routes, await routeOrderOf(database.db)),
        );
        return 0;
      });
    }
    if (action !== undefined && !(ACTIONS as readonly string[]).includes(action)) {
      throw new UsageError(`the action is one of ${ACTIONS.join(", ")} or link, not "${action}"`);
    }
    if (action !== undefined && !supplier) throw new UsageError(`${action} which supplier?`);
    const config = await loadConfig(deps.env);
    return withDatabase(deps, async (database) => {
      let routes: Route[] | undefined;
      if (action) {
        const result = await changeRoute(database.db, {
          productCode,
          firstSupplier: config.supplierName,
          change: { action: action as (typeof ACTIONS)[number], supplier: supplier! },
        });
        if (!result.ok) {
          console.error(`kios routes: ${REASONS[result.reason]}`);
          return 1;
        }
        routes = result.routes;
      } else {
        routes = await routesOfCode(database.db, productCode, config.supplierName);
        if (!routes) {
          console.error(`kios routes: ${REASONS.no_product}`);
          return 1;
        }
      }
      await print(
        values.json
          ? JSON.stringify(routes, null, 2)
          : describe(productCode, routes, await routeOrderOf(database.db)),
      );
      return 0;
    });
  },
};
