import { Composer, InlineKeyboard } from "grammy";
import type { InlineQueryResultArticle } from "grammy/types";
import { closureOf } from "../../commerce/catalogue/availability.ts";
import type { CatalogueItem } from "../../commerce/catalogue/queries.ts";
import {
  productsByCodes,
  recentProducts,
  searchCatalogue,
} from "../../commerce/catalogue/search.ts";
import { findUser } from "../../commerce/users.ts";
import type { BotContext } from "../context.ts";
import { brandName, categoryName } from "../ui/catalogue-words.ts";
import { botLink, purchaseParameter } from "../ui/deep-links.ts";
import { escapeHtml, rupiah, wibTime } from "../ui/format.ts";
import type { Translate } from "../ui/i18n.ts";

// inline mode: "@bot tsel 10" in any chat lists up to 20 products at the asker's own price;
// the one picked is sent as a message with the product, its price and a link that opens its
// purchase in the bot (home/start-links.ts). An empty query lists the asker's recent products.

/** results per answer (Telegram allows 50) */
const INLINE_PAGE = 20;
/** how long Telegram may answer the same words from its cache, for the same user only */
const CACHE_SECONDS = 30;
/** the most results scrolled through */
const MAX_OFFSET = 200;

function article(
  t: Translate,
  item: CatalogueItem,
  shared: { price: number },
  link: string | undefined,
  now: number,
): InlineQueryResultArticle {
  const closed = closureOf(item, now);
  const price = item.type === "pasca" ? `+${rupiah(item.price)}` : rupiah(item.price);
  const details = [price, brandName(item.brand), categoryName(t, item.category)];
  if (closed) details.push(`⛔ ${t("product-closed-label", { until: wibTime(closed.until) })}`);
  // the message goes into a chat others read: it names the price anyone pays, not the
  // asker's own (a reseller's cost stays theirs)
  const sharedPrice = item.type === "pasca" ? `+${rupiah(shared.price)}` : rupiah(shared.price);
  const lines = [
    `🛒 <b>${escapeHtml(item.name)}</b>`,
    t("inline-price", { price: sharedPrice }),
    `${escapeHtml(brandName(item.brand))} · ${escapeHtml(categoryName(t, item.category))}`,
  ];
  if (link) lines.push(t("inline-link", { link }));
  return {
    type: "article",
    id: item.code.slice(0, 64),
    title: item.name,
    description: details.join(" · "),
    input_message_content: {
      message_text: lines.join("\n"),
      parse_mode: "HTML",
      link_preview_options: { is_disabled: true },
    },
    reply_markup: link ? new InlineKeyboard().url(t("btn-inline-buy"), link) : undefined,
  };
}

/**
 * what anyone pays for each product: the shop's customer price, outside any tree. The
 * asker's own prices are theirs alone, a reseller's or a downline's (their tree's), and
 * never go into a chat others read.
 */
async function sharedPrices(ctx: BotContext, items: CatalogueItem[], asker: Asker) {
  if ((asker.tier === "customer" && asker.uplineId === null) || items.length === 0) {
    return new Map(items.map((i) => [i.code, i.price]));
  }
  const priced = await productsByCodes(
    ctx.deps.db,
    items.map((i) => i.code),
    { tier: "customer" },
  );
  return new Map(priced.map((i) => [i.code, i.price]));
}

/** who asks: their tier and upline decide whether their prices are anyone's */
interface Asker {
  tier: string;
  uplineId: number | null;
}

export function inlineFeature(): Composer<BotContext> {
  const composer = new Composer<BotContext>();

  composer.on("inline_query", async (ctx) => {
    const { db, clock } = ctx.deps;
    const user = await findUser(db, ctx.from.id);
    const tier = user?.tier ?? "customer";
    const t = ctx.translatorFor(user?.language ?? "id");
    const query = ctx.inlineQuery.query.trim();
    const offset = Math.min(
      Math.max(0, Number.parseInt(ctx.inlineQuery.offset, 10) || 0),
      MAX_OFFSET,
    );
    let items: CatalogueItem[];
    let more = false;
    if (query) {
      const page = await searchCatalogue(db, {
        text: query,
        tier,
        buyer: ctx.from.id,
        limit: INLINE_PAGE,
        offset,
      });
      items = page.items;
      more = offset + items.length < Math.min(page.total, MAX_OFFSET);
    } else {
      items =
        offset === 0
          ? await recentProducts(db, ctx.from.id, { tier, buyer: ctx.from.id, limit: INLINE_PAGE })
          : [];
    }
    const shared = await sharedPrices(ctx, items, { tier, uplineId: user?.parentId ?? null });
    const now = clock.now();
    const results = items.map((item) => {
      const parameter = purchaseParameter(item.code);
      const link = parameter ? botLink(ctx.me.username, parameter) : undefined;
      return article(t, item, { price: shared.get(item.code) ?? item.price }, link, now);
    });
    await ctx.answerInlineQuery(results, {
      cache_time: CACHE_SECONDS,
      // every answer is the asker's own (their tier's or their tree's prices, their recent
      // products): Telegram must never serve it from its cache to someone else
      is_personal: true,
      next_offset: more ? String(offset + items.length) : "",
      // nothing to show: a way into the bot instead
      button:
        results.length === 0 && offset === 0
          ? { text: t(query ? "inline-none" : "inline-empty"), start_parameter: "inline" }
          : undefined,
    });
  });

  return composer;
}

/** a result the user sent from the inline list lands in their chat too: not a question */
export function sentViaThisBot(ctx: BotContext): boolean {
  const via = ctx.message?.via_bot;
  return via !== undefined && via.id === ctx.me.id;
}
