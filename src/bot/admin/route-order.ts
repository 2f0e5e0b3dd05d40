import { Composer } from "grammy";
import { ROUTE_ORDERS, routeOrderOf, setRouteOrder } from "../../commerce/catalogue/route-order.ts";
import type { BotContext } from "../context.ts";
import { words } from "../ui/args.ts";

// /routeorder [cost | manual]: whether each product's routes are tried as admins move them
// or cheapest first, re-ordered at every sync (docs/suppliers.md#routes-by-cost). Its CLI
// twin is `kios routes --order`.

export function adminRouteOrder(): Composer<BotContext> {
  const composer = new Composer<BotContext>();
  composer.command("routeorder", async (ctx) => {
    const [arg, extra] = words(ctx.match as string);
    const db = ctx.deps.db;
    if (arg === undefined) {
      await ctx.reply(ctx.t(`admin-routeorder-now-${await routeOrderOf(db)}`));
      return;
    }
    const order = ROUTE_ORDERS.find((o) => o === arg.toLowerCase());
    if (extra !== undefined || order === undefined) {
      await ctx.reply(ctx.t("admin-routeorder-usage"));
      return;
    }
    const { moved } = await setRouteOrder(db, order, ctx.deps.orders.firstSupplier ?? "main");
    ctx.deps.logger
      .child({ component: "admin" })
      .info({ adminId: ctx.from?.id, order, moved }, "route order changed");
    await ctx.reply(ctx.t(`admin-routeorder-set-${order}`, { moved }));
  });
  return composer;
}
