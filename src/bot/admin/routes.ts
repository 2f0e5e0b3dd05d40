import { Composer, InlineKeyboard } from "grammy";
import { linkByHand, listUnlinked } from "../../commerce/catalogue/manual-links.ts";
import { type RouteOrder, routeOrderOf } from "../../commerce/catalogue/route-order.ts";
import {
  changeRoute,
  type Route,
  type RouteChange,
  routePaused,
  routesOfCode,
} from "../../commerce/catalogue/routes.ts";
import type { BotContext } from "../context.ts";
import { words } from "../ui/args.ts";
import { CB, cb, cbPattern, parseCb } from "../ui/callback-data.ts";
import { editPressed } from "../ui/edit.ts";
import { escapeHtml, rupiah, wibTime } from "../ui/format.ts";
import type { Translate } from "../ui/i18n.ts";

// /routes <product>: a product's routes (supplier, code, cost, state) in the order kios
// tries them, with buttons to move one up or down and switch it off or on
// (docs/suppliers.md#routes). Its CLI twin is `kios routes`.

const ACTIONS: Record<string, RouteChange["action"]> = {
  u: "up",
  d: "down",
  e: "enable",
  x: "disable",
};

function routesText(
  t: Translate,
  code: string,
  routes: readonly Route[],
  o: { now: number; order: RouteOrder },
): string {
  const lines = routes.map((r, i) => {
    const state = !r.enabled
      ? t("admin-routes-disabled")
      : !r.active
        ? t("admin-routes-inactive")
        : routePaused(r, o.now)
          ? t("admin-routes-paused", { until: wibTime(r.pausedUntil!.getTime()) })
          : t("admin-routes-active");
    return `${i + 1}. <b>${escapeHtml(r.supplier)}</b> · <code>${escapeHtml(r.supplierCode)}</code> · ${rupiah(r.cost)} · ${state}`;
  });
  return [
    t("admin-routes-title", { code: escapeHtml(code) }),
    ...lines,
    t(`admin-routes-order-${o.order}`),
  ].join("\n");
}

function routesKeyboard(code: string, routes: readonly Route[]): InlineKeyboard | undefined {
  const kb = new InlineKeyboard();
  try {
    for (const r of routes) {
      kb.text(`⬆️ ${r.supplier}`, cb(CB.route, code, r.supplier, "u"))
        .text("⬇️", cb(CB.route, code, r.supplier, "d"))
        .text(r.enabled ? "⏸" : "▶️", cb(CB.route, code, r.supplier, r.enabled ? "x" : "e"))
        .row();
    }
  } catch {
    // a code or name too long for a button's data: the list alone (the CLI can change it)
    return undefined;
  }
  return kb;
}

export function adminRoutes(): Composer<BotContext> {
  const composer = new Composer<BotContext>();
  composer.command("routes", async (ctx) => {
    const [code] = words(ctx.match as string);
    if (code === undefined) {
      await ctx.reply(ctx.t("admin-routes-usage"));
      return;
    }
    const first = ctx.deps.orders.firstSupplier ?? "main";
    // codes are the supplier's, usually upper case: "/routes tsel10" finds TSEL10
    let productCode = code;
    let routes = await routesOfCode(ctx.deps.db, productCode, first);
    if (!routes) {
      productCode = code.toUpperCase();
      routes = await routesOfCode(ctx.deps.db, productCode, first);
    }
    if (!routes) {
      await ctx.reply(ctx.t("admin-routes-no_product", { code: escapeHtml(productCode) }));
      return;
    }
    const kb = routesKeyboard(productCode, routes);
    await ctx.reply(
      routesText(ctx.t, productCode, routes, {
        now: ctx.deps.clock.now(),
        order: await routeOrderOf(ctx.deps.db),
      }),
      kb ? { reply_markup: kb } : {},
    );
  });

  // /unlinked [supplier]: what the linking left to an admin, ambiguous ones first
  composer.command("unlinked", async (ctx) => {
    const [supplier] = words(ctx.match as string);
    const { items, total } = await listUnlinked(ctx.deps.db, { supplier, limit: UNLINKED_SHOWN });
    if (total === 0) {
      await ctx.reply(ctx.t("admin-unlinked-none"));
      return;
    }
    const lines = items.map((u) => {
      const matched =
        u.candidates.length > 0
          ? ctx.t("admin-unlinked-candidates", {
              codes: u.candidates.map((c) => `<code>${escapeHtml(c)}</code>`).join(", "),
            })
          : ctx.t("admin-unlinked-nomatch");
      return `<b>${escapeHtml(u.supplier)}</b> · <code>${escapeHtml(u.supplierCode)}</code> · ${escapeHtml(u.name)} · ${rupiah(u.cost)}: ${matched}`;
    });
    if (items.length < total) lines.push(ctx.t("admin-unlinked-more", { n: total - items.length }));
    await ctx.reply([ctx.t("admin-unlinked-title", { total }), ...lines].join("\n"));
  });

  // /link <product> <supplier> <code>: an admin links one by hand
  composer.command("link", async (ctx) => {
    const [code, supplier, supplierCode] = words(ctx.match as string);
    if (!code || !supplier || !supplierCode) {
      await ctx.reply(ctx.t("admin-link-usage"));
      return;
    }
    const first = ctx.deps.orders.firstSupplier ?? "main";
    const productCode = code.toUpperCase();
    const linked = await linkByHand(ctx.deps.db, {
      productCode,
      supplier,
      supplierCode,
      firstSupplier: first,
    });
    if (!linked.ok) {
      await ctx.reply(
        linked.reason === "no_product"
          ? ctx.t("admin-routes-no_product", { code: escapeHtml(productCode) })
          : ctx.t(`admin-link-${linked.reason}`),
      );
      return;
    }
    const routes = (await routesOfCode(ctx.deps.db, productCode, first)) ?? [];
    const kb = routesKeyboard(productCode, routes);
    await ctx.reply(
      routesText(ctx.t, productCode, routes, {
        now: ctx.deps.clock.now(),
        order: await routeOrderOf(ctx.deps.db),
      }),
      kb ? { reply_markup: kb } : {},
    );
  });
  return composer;
}

/** the most /unlinked lists in one message (the CLI lists them all) */
const UNLINKED_SHOWN = 20;

/** the buttons under /routes: move, switch; the message is redrawn with the new order */
export function adminRouteButtons(): Composer<BotContext> {
  const composer = new Composer<BotContext>();
  composer.callbackQuery(cbPattern(CB.route), async (ctx) => {
    const [code, supplier, letter] = parseCb(ctx.callbackQuery.data)?.parts ?? [];
    const action = letter ? ACTIONS[letter] : undefined;
    if (!code || !supplier || !action) {
      await ctx.answerCallbackQuery({ text: ctx.t("stale-button") });
      return;
    }
    const result = await changeRoute(ctx.deps.db, {
      productCode: code,
      firstSupplier: ctx.deps.orders.firstSupplier ?? "main",
      change: { action, supplier },
    });
    if (!result.ok) {
      await ctx.answerCallbackQuery({ text: ctx.t(`admin-routes-${result.reason}`) });
      return;
    }
    await ctx.answerCallbackQuery({ text: ctx.t("admin-routes-changed") });
    const text = routesText(ctx.t, code, result.routes, {
      now: ctx.deps.clock.now(),
      order: await routeOrderOf(ctx.deps.db),
    });
    await editPressed(ctx, text, {
      keyboard: routesKeyboard(code, result.routes),
    });
  });
  return composer;
}
