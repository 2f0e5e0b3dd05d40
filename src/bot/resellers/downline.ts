import { Composer, InlineKeyboard, InputFile } from "grammy";
import { listUserOrders } from "../../commerce/orders/queries.ts";
import { downlinesOf } from "../../commerce/resellers/downlines.ts";
import { referralCodeOf } from "../../commerce/resellers/tree.ts";
import { walletBalance } from "../../commerce/wallet/ledger.ts";
import { pinState } from "../../commerce/wallet/pin.ts";
import type { BotContext } from "../context.ts";
import { CB, cb, cbInt, cbPattern, parseCb } from "../ui/callback-data.ts";
import { botLink } from "../ui/deep-links.ts";
import { editPressed } from "../ui/edit.ts";
import { escapeHtml, rupiah, wibDateTime } from "../ui/format.ts";
import { addPageNav, clampPage, pageCount } from "../ui/keyboards/paging.ts";
import { statusIcon } from "../ui/order-card.ts";
import { qrPicture } from "../ui/pictures/qr.ts";

// /downline: the reseller's own referral link first (and its QR), then their direct
// downlines in pages with each one's spend this month and balance; one opens with its
// last orders (docs/resellers.md#for-a-reseller)

const PAGE_SIZE = 8;
const ORDERS_SHOWN = 10;

async function referralLink(ctx: BotContext): Promise<string> {
  const code = await referralCodeOf(ctx.deps.db, ctx.from!.id);
  return botLink(ctx.me.username, `r_${code}`);
}

function who(d: { firstName: string; username: string | null; telegramId: number }): string {
  const name = escapeHtml(d.firstName || String(d.telegramId));
  return d.username ? `${name} (@${escapeHtml(d.username)})` : name;
}

async function listView(ctx: BotContext, wanted: number) {
  const db = ctx.deps.db;
  const now = ctx.deps.clock.now();
  const link = await referralLink(ctx);
  let page = Math.max(0, wanted);
  let list = await downlinesOf(db, ctx.from!.id, {
    limit: PAGE_SIZE,
    offset: page * PAGE_SIZE,
    now,
  });
  if (list.items.length === 0 && page > 0) {
    page = clampPage(page, list.total, PAGE_SIZE);
    list = await downlinesOf(db, ctx.from!.id, { limit: PAGE_SIZE, offset: page * PAGE_SIZE, now });
  }
  const pages = pageCount(list.total, PAGE_SIZE);
  const lines = [ctx.t("downline-link", { link }), ""];
  const kb = new InlineKeyboard().text(ctx.t("btn-referral-qr"), cb(CB.referralQr)).row();
  if (list.total === 0) {
    lines.push(ctx.t("downline-empty"));
  } else {
    lines.push(ctx.t("downline-title", { count: list.total, page: page + 1, pages }));
    list.items.forEach((d, i) => {
      const n = page * PAGE_SIZE + i + 1;
      lines.push(
        ctx.t("downline-row", {
          n,
          who: who(d),
          spent: rupiah(d.spentThisMonth),
          balance: rupiah(d.balance),
        }),
      );
      kb.text(
        `${n}. ${d.firstName || d.telegramId}`.slice(0, 40),
        cb(CB.downlineOpen, d.telegramId, page),
      );
      if (i % 2 === 1) kb.row();
    });
    kb.row();
    addPageNav(kb, { page, pageCount: pages }, (p) => cb(CB.downlinePage, p));
    // a reseller with downlines is asked to guard the wallet they fund them from
    if (!(await pinState(db, ctx.from!.id, now)).set) lines.push("", ctx.t("downline-ask-pin"));
  }
  return { text: lines.join("\n"), keyboard: kb };
}

async function downlineView(ctx: BotContext, downlineId: number, page: number) {
  const db = ctx.deps.db;
  // only a direct downline opens: the list's own row, read again
  const all = await downlinesOf(db, ctx.from!.id, {
    limit: 1_000,
    offset: 0,
    now: ctx.deps.clock.now(),
  });
  const d = all.items.find((x) => x.telegramId === downlineId);
  if (!d) return undefined;
  const orders = await listUserOrders(db, downlineId, { limit: ORDERS_SHOWN, offset: 0 });
  const lines = [
    ctx.t("downline-detail", {
      who: who(d),
      id: String(d.telegramId),
      joined: d.joinedAt ? wibDateTime(d.joinedAt.getTime()) : "-",
      spent: rupiah(d.spentThisMonth),
      balance: rupiah(await walletBalance(db, downlineId)),
      downlines: d.downlines,
    }),
    "",
  ];
  if (orders.items.length === 0) lines.push(ctx.t("history-empty"));
  for (const o of orders.items) {
    lines.push(
      `${statusIcon(o)} ${escapeHtml(o.productName)} · ${escapeHtml(o.destination)} · ${rupiah(o.price)} · ${wibDateTime(o.createdAt.getTime())}`,
    );
  }
  const kb = new InlineKeyboard().text(ctx.t("btn-back"), cb(CB.downlinePage, page));
  return { text: lines.join("\n"), keyboard: kb };
}

export function downlineFeature(): Composer<BotContext> {
  const composer = new Composer<BotContext>();
  composer.command(["downline"], async (ctx) => {
    if (ctx.user?.tier !== "reseller") {
      await ctx.reply(ctx.t("resellers-only"));
      return;
    }
    const view = await listView(ctx, 0);
    await ctx.reply(view.text, {
      reply_markup: view.keyboard,
      link_preview_options: { is_disabled: true },
    });
  });
  return composer;
}

/** the list's buttons: they work from any message, as long as the user is a reseller */
export function downlineButtons(): Composer<BotContext> {
  const composer = new Composer<BotContext>();
  const resellers = composer.filter((ctx) => ctx.user?.tier === "reseller");
  resellers.callbackQuery(cbPattern(CB.downlinePage), async (ctx) => {
    const page = cbInt(parseCb(ctx.callbackQuery.data)?.parts[0]) ?? 0;
    await ctx.answerCallbackQuery();
    const view = await listView(ctx, page);
    await editPressed(ctx, view.text, { keyboard: view.keyboard });
  });
  resellers.callbackQuery(cbPattern(CB.downlineOpen), async (ctx) => {
    const [id, page] = parseCb(ctx.callbackQuery.data)?.parts ?? [];
    const downlineId = cbInt(id);
    const view =
      downlineId === undefined ? undefined : await downlineView(ctx, downlineId, cbInt(page) ?? 0);
    if (!view) {
      await ctx.answerCallbackQuery({ text: ctx.t("stale-button") });
      return;
    }
    await ctx.answerCallbackQuery();
    await editPressed(ctx, view.text, { keyboard: view.keyboard });
  });
  resellers.callbackQuery(cbPattern(CB.referralQr), async (ctx) => {
    await ctx.answerCallbackQuery();
    const link = await referralLink(ctx);
    await ctx.replyWithPhoto(new InputFile(await qrPicture(link), "referral.png"), {
      caption: ctx.t("referral-qr-caption", { link }),
    });
  });
  return composer;
}
