import { Composer, InlineKeyboard } from "grammy";
import { getOrder, listUserOrders } from "../../commerce/orders/queries.ts";
import type { BotContext } from "../context.ts";
import { CB, cb, cbInt, cbPattern, parseCb } from "../ui/callback-data.ts";
import { editPressed } from "../ui/edit.ts";
import { rupiah, wibDateTime } from "../ui/format.ts";
import { PLAIN } from "../ui/html.ts";
import { addPageNav, clampPage, pageCount } from "../ui/keyboards/paging.ts";
import { orderCopyKeyboard, orderDetails, statusIcon } from "../ui/order-card.ts";
import { offerQuote } from "../ui/quotes.ts";

const HISTORY_PAGE_SIZE = 5;

async function historyPage(ctx: BotContext, page: number) {
  const userId = ctx.from!.id;
  let list = await listUserOrders(ctx.deps.db, userId, {
    limit: HISTORY_PAGE_SIZE,
    offset: page * HISTORY_PAGE_SIZE,
  });
  const wanted = clampPage(page, list.total, HISTORY_PAGE_SIZE);
  if (wanted !== page) {
    page = wanted;
    list = await listUserOrders(ctx.deps.db, userId, {
      limit: HISTORY_PAGE_SIZE,
      offset: page * HISTORY_PAGE_SIZE,
    });
  }
  if (list.total === 0) return { text: ctx.t("history-empty"), keyboard: new InlineKeyboard() };
  const pages = pageCount(list.total, HISTORY_PAGE_SIZE);
  const lines = [ctx.t("history-title", { page: page + 1, pages })];
  const kb = new InlineKeyboard();
  list.items.forEach((o, i) => {
    const n = page * HISTORY_PAGE_SIZE + i + 1;
    lines.push(
      `${n}. ${statusIcon(o)} ${o.productName} · ${o.destination} · ${rupiah(o.price)} · ${wibDateTime(o.createdAt.getTime())}`,
    );
    kb.text(
      `${n}. ${statusIcon(o)} ${o.productName}`.slice(0, 60),
      cb(CB.historyOrder, o.id, page),
    ).row();
  });
  addPageNav(kb, { page, pageCount: pages }, (p) => cb(CB.historyPage, p));
  return { text: lines.join("\n"), keyboard: kb };
}

/** recent orders in pages; each opens its details */
async function showHistory(ctx: BotContext, page: number, edit: boolean): Promise<void> {
  const view = await historyPage(ctx, page);
  if (edit) {
    await editPressed(ctx, view.text, { keyboard: view.keyboard, plain: true });
    return;
  }
  await ctx.reply(view.text, { ...PLAIN, reply_markup: view.keyboard });
}

export function historyCommands(): Composer<BotContext> {
  const composer = new Composer<BotContext>();
  composer.command(["riwayat", "history"], (ctx) => showHistory(ctx, 0, false));
  // the main menu's Riwayat (home/menu.ts passes it on)
  composer.callbackQuery(cb(CB.menu, "history"), async (ctx) => {
    await ctx.answerCallbackQuery();
    await showHistory(ctx, 0, false);
  });
  return composer;
}

/** history buttons work from any message, also while a flow runs */
export function historyButtons(): Composer<BotContext> {
  const composer = new Composer<BotContext>();

  composer.callbackQuery(cbPattern(CB.historyPage), async (ctx) => {
    await ctx.answerCallbackQuery();
    const page = cbInt(parseCb(ctx.callbackQuery.data)?.parts[0]) ?? 0;
    await showHistory(ctx, page, true);
  });

  composer.callbackQuery(cbPattern(CB.historyOrder), async (ctx) => {
    const parts = parseCb(ctx.callbackQuery.data)?.parts ?? [];
    const orderId = cbInt(parts[0]);
    const page = cbInt(parts[1]) ?? 0;
    const order = orderId === undefined ? undefined : await getOrder(ctx.deps.db, orderId);
    // another user's order is treated exactly like a missing one
    if (!order || order.userId !== ctx.from.id) {
      await ctx.answerCallbackQuery({ text: ctx.t("stale-button") });
      return;
    }
    await ctx.answerCallbackQuery();
    const kb = orderCopyKeyboard(ctx.t, order)?.row() ?? new InlineKeyboard();
    kb.text(ctx.t("btn-buy-again"), cb(CB.buyAgain, order.id)).text(
      ctx.t("btn-back"),
      cb(CB.historyPage, page),
    );
    await editPressed(ctx, orderDetails(ctx.t, order), { keyboard: kb });
  });

  composer.callbackQuery(cbPattern(CB.buyAgain), async (ctx) => {
    const orderId = cbInt(parseCb(ctx.callbackQuery.data)?.parts[0]);
    const order = orderId === undefined ? undefined : await getOrder(ctx.deps.db, orderId);
    if (!order || order.userId !== ctx.from.id) {
      await ctx.answerCallbackQuery({ text: ctx.t("stale-button") });
      return;
    }
    await ctx.answerCallbackQuery();
    await offerQuote(ctx, {
      productCode: order.productCode,
      destination: order.destination,
      bill: order.kind === "bill",
      testing: order.testing,
    });
  });

  return composer;
}
