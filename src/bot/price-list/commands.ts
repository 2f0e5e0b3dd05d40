import { Composer, InlineKeyboard, InputFile } from "grammy";
import {
  type PriceListScope,
  priceList,
  priceListScopes,
  priceListUpTo,
  resolvePriceListScope,
  type ScopeCount,
  scopeByKey,
  scopeKey,
} from "../../commerce/catalogue/price-list.ts";
import { loadPricing, type PricingContext } from "../../commerce/catalogue/prices.ts";
import type { Tier } from "../../commerce/catalogue/pricing.ts";
import { catalogueReady, productByCode } from "../../commerce/catalogue/queries.ts";
import { receiptSettingsOf } from "../../commerce/receipt-settings.ts";
import type { BotContext } from "../context.ts";
import { CB, cb, cbInt, cbPattern, parseCb } from "../ui/callback-data.ts";
import { brandName, categoryName } from "../ui/catalogue-words.ts";
import { editPressed } from "../ui/edit.ts";
import { escapeHtml, rupiah, wibDateTime } from "../ui/format.ts";
import type { Translate } from "../ui/i18n.ts";
import { addPageNav, clampPage, pageCount } from "../ui/keyboards/paging.ts";
import {
  PICTURE_MAX_PAGES,
  PICTURE_MAX_ROWS,
  PRICE_LIST_PAGE_SIZE,
  priceListPicturePages,
  priceListRow,
  priceListText,
  scopeLabel,
} from "./content.ts";
import { priceListPng } from "./picture.ts";

// /harga [brand|category]: the caller's own prices (their tier) in pages, closed products
// marked, and the list as a picture to forward. Without a name: the categories to choose
// from. Buttons carry the list as a short key and work from any message.

/** the index page's key in callback data (scope keys are 10 hex characters) */
const INDEX = "i";
const MAX_CHOICES = 12;

const tierOf = (ctx: BotContext): Tier => ctx.user?.tier ?? "customer";

interface View {
  text: string;
  keyboard: InlineKeyboard;
}

/** the categories, each a button */
function indexView(t: Translate, scopes: readonly ScopeCount[], text: string): View {
  const counts = new Map<string, number>();
  for (const s of scopes) counts.set(s.category, (counts.get(s.category) ?? 0) + s.count);
  const kb = new InlineKeyboard();
  [...counts].forEach(([category, count], i) => {
    kb.text(`${categoryName(t, category)} (${count})`, cb(CB.priceList, scopeKey({ category }), 0));
    if (i % 2 === 1) kb.row();
  });
  return { text, keyboard: kb };
}

function choicesView(ctx: BotContext, choices: readonly PriceListScope[]): View {
  const kb = new InlineKeyboard();
  for (const scope of choices.slice(0, MAX_CHOICES)) {
    kb.text(scopeLabel(ctx.t, scope), cb(CB.priceList, scopeKey(scope), 0)).row();
  }
  return { text: ctx.t("price-list-suggest"), keyboard: kb };
}

async function listView(
  ctx: BotContext,
  scope: PriceListScope,
  scopes: readonly ScopeCount[],
  wanted: number,
  pricing: PricingContext,
): Promise<View> {
  const db = ctx.deps.db;
  const tier = tierOf(ctx);
  const total = scopes
    .filter(
      (s) =>
        (scope.brand === undefined || s.brand === scope.brand) &&
        (scope.category === undefined || s.category === scope.category),
    )
    .reduce((n, s) => n + s.count, 0);
  const page = clampPage(wanted, total, PRICE_LIST_PAGE_SIZE);
  const list = await priceList(db, scope, {
    tier,
    pricing,
    limit: PRICE_LIST_PAGE_SIZE,
    offset: page * PRICE_LIST_PAGE_SIZE,
  });
  const pages = pageCount(list.total, PRICE_LIST_PAGE_SIZE);
  const key = scopeKey(scope);
  const kb = new InlineKeyboard();
  // a category of several brands: one button each, to narrow the list
  if (scope.brand === undefined && scope.category !== undefined) {
    const brands = scopes.filter((s) => s.category === scope.category);
    if (brands.length > 1 && brands.length <= MAX_CHOICES) {
      brands.forEach((s, i) => {
        kb.text(
          brandName(s.brand),
          cb(CB.priceList, scopeKey({ brand: s.brand, category: s.category }), 0),
        );
        if (i % 3 === 2) kb.row();
      });
      kb.row();
    }
  }
  addPageNav(kb, { page, pageCount: pages }, (p) => cb(CB.priceList, key, p));
  kb.text(ctx.t("btn-price-list-picture"), cb(CB.priceListPicture, key)).row();
  kb.text(ctx.t("btn-price-list-index"), cb(CB.priceList, INDEX));
  const text = priceListText(ctx.t, {
    scope,
    items: list.items,
    total: list.total,
    page,
    pages,
    tier,
    now: ctx.deps.clock.now(),
  });
  return { text, keyboard: kb };
}

async function scopesFor(ctx: BotContext) {
  const pricing = await loadPricing(ctx.deps.db, ctx.from?.id ?? null);
  const scopes = await priceListScopes(ctx.deps.db, { tier: tierOf(ctx), pricing });
  return { pricing, scopes };
}

export function priceListCommands(): Composer<BotContext> {
  const composer = new Composer<BotContext>();
  composer.command(["harga", "prices"], async (ctx) => {
    if (!(await catalogueReady(ctx.deps.db))) {
      await ctx.reply(ctx.t("catalogue-loading"));
      return;
    }
    const { pricing, scopes } = await scopesFor(ctx);
    const typed = (ctx.match as string).trim();
    let view: View;
    if (typed === "") {
      view = indexView(ctx.t, scopes, ctx.t("price-list-index"));
    } else {
      const match = resolvePriceListScope(scopes, typed);
      const product =
        match === undefined
          ? await productByCode(ctx.deps.db, typed.toUpperCase(), {
              tier: tierOf(ctx),
              pricing,
            })
          : null;
      if (product) {
        // a product's code: its line, and its brand's list in its category one tap away
        const scope = { brand: product.brand, category: product.category };
        view = {
          text: priceListRow(ctx.t, product, tierOf(ctx), ctx.deps.clock.now()),
          keyboard: new InlineKeyboard().text(
            `📋 ${scopeLabel(ctx.t, scope)}`,
            cb(CB.priceList, scopeKey(scope), 0),
          ),
        };
      } else if (match === undefined) {
        const shown = typed.length > 40 ? `${typed.slice(0, 40)}…` : typed;
        view = indexView(ctx.t, scopes, ctx.t("price-list-not-found", { text: escapeHtml(shown) }));
      } else if ("suggestions" in match) {
        view = choicesView(ctx, match.suggestions);
      } else {
        view = await listView(ctx, match.scope, scopes, 0, pricing);
      }
    }
    await ctx.reply(view.text, { reply_markup: view.keyboard });
  });
  return composer;
}

/** the list's buttons: a page or the categories (edited in place), and the picture */
export function priceListButtons(): Composer<BotContext> {
  const composer = new Composer<BotContext>();

  composer.callbackQuery(cbPattern(CB.priceList), async (ctx) => {
    const [key, page] = parseCb(ctx.callbackQuery.data)?.parts ?? [];
    const { pricing, scopes } = await scopesFor(ctx);
    const scope = key === undefined ? undefined : scopeByKey(scopes, key);
    if (key !== INDEX && scope === undefined) {
      await ctx.answerCallbackQuery({ text: ctx.t("stale-button") });
      return;
    }
    await ctx.answerCallbackQuery();
    const view =
      scope === undefined
        ? indexView(ctx.t, scopes, ctx.t("price-list-index"))
        : await listView(ctx, scope, scopes, cbInt(page) ?? 0, pricing);
    await editPressed(ctx, view.text, { keyboard: view.keyboard });
  });

  composer.callbackQuery(cbPattern(CB.priceListPicture), async (ctx) => {
    const key = parseCb(ctx.callbackQuery.data)?.parts[0];
    const db = ctx.deps.db;
    const { pricing, scopes } = await scopesFor(ctx);
    const scope = key === undefined ? undefined : scopeByKey(scopes, key);
    if (scope === undefined) {
      await ctx.answerCallbackQuery({ text: ctx.t("stale-button") });
      return;
    }
    await ctx.answerCallbackQuery();
    const now = ctx.deps.clock.now();
    const { items, total } = await priceListUpTo(
      db,
      scope,
      { tier: tierOf(ctx), pricing },
      PICTURE_MAX_ROWS * PICTURE_MAX_PAGES,
    );
    // a reseller's buyers see the reseller's shop and price (/struk), as on receipts
    const settings = await receiptSettingsOf(db, ctx.from.id);
    const pages = priceListPicturePages(ctx.t, {
      shop: settings.shopName ?? ctx.deps.config.shopName ?? ctx.me.first_name,
      logo: settings.shopName ? undefined : ctx.deps.config.shopLogo,
      scope,
      items,
      total,
      now,
      markup: settings.markup,
    });
    const label = escapeHtml(scopeLabel(ctx.t, scope));
    const caption = [
      ctx.t("price-list-picture-caption", {
        scope: label,
        count: String(total),
        when: wibDateTime(now),
      }),
    ];
    if (total > items.length) {
      caption.push(ctx.t("price-list-picture-cut", { shown: String(items.length) }));
    }
    if (settings.markup > 0) {
      caption.push(ctx.t("price-list-picture-markup", { markup: rupiah(settings.markup) }));
    }
    for (const [i, picture] of pages.entries()) {
      const page = { page: String(i + 1), pages: String(pages.length) };
      const pageCaption =
        pages.length === 1
          ? caption.join("\n")
          : i === 0
            ? [...caption, ctx.t("price-list-picture-page", page)].join("\n")
            : ctx.t("price-list-picture-page-caption", { scope: label, ...page });
      try {
        const png = await priceListPng(picture);
        const name = pages.length === 1 ? `harga-${key}.png` : `harga-${key}-${i + 1}.png`;
        await ctx.replyWithPhoto(new InputFile(png, name), { caption: pageCaption });
      } catch (err) {
        // Telegram refused it (too large, a limit) or it could not be drawn: the buyer
        // is told, instead of waiting for a picture that never comes
        ctx.deps.logger.warn(
          { err, scope, page: i + 1, pages: pages.length },
          "price-list picture not sent",
        );
        await ctx.reply(ctx.t("price-list-picture-failed", { scope: label }));
        return;
      }
    }
  });

  return composer;
}
