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
].join("\n");

const ACTIONS = ["up", "down", "enable", "disable"] as const;

function describe(productCode: string, routes: readonly Route[]): string {
  const lines = [`routes of ${productCode}, tried in this order:`];
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
} as const;

export const routesCommand: Command = {
  name: "routes",
  summary: "a product's routes (suppliers, codes, costs), moved up or down, switched on or off",
  usage: ROUTES_USAGE,
  async run(argv) {
    const { values, positionals } = parseFlags(
      argv,
      { json: { type: "boolean", default: false } },
      true,
    );
    const [productCode, action, supplier] = positionals;
    if (!productCode) throw new UsageError("name a product code");
    if (action !== undefined && !(ACTIONS as readonly string[]).includes(action)) {
      throw new UsageError(`the action is one of ${ACTIONS.join(", ")}, not "${action}"`);
    }
    if (action !== undefined && !supplier) throw new UsageError(`${action} which supplier?`);
    const config = await loadConfig();
    return withDatabase(async (database) => {
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
      await print(values.json ? JSON.stringify(routes, null, 2) : describe(productCode, routes));
      return 0;
    });
  },
};
