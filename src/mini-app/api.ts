import { type Context, Hono } from "hono";
import { z } from "zod";
import { PHONE_CATEGORIES } from "../commerce/catalogue/categories.ts";
import {
  detectOperator,
  normalisePhone,
  offeredOperators,
} from "../commerce/catalogue/operators.ts";
import {
  type CatalogueItem,
  catalogueReady,
  productByCode,
} from "../commerce/catalogue/queries.ts";
import { catalogueOutline, searchCatalogue } from "../commerce/catalogue/search.ts";
import { cancelQuote } from "../commerce/orders/cancel.ts";
import type { OrderEngine } from "../commerce/orders/engine.ts";
import { getOrderByConfirmKey, recentDestinations } from "../commerce/orders/queries.ts";
import { createBillQuote, createQuote, findUserQuote } from "../commerce/orders/quotes.ts";
import { findUser, type Language, upsertUser } from "../commerce/users.ts";
import { walletBalance } from "../commerce/wallet/ledger.ts";
import { pinState } from "../commerce/wallet/pin.ts";
import { unstorableField } from "../db/storable-text.ts";
import type { AppEnv } from "../server/create-server.ts";
import type { MiniAppChat } from "./chat.ts";
import { payFromApp } from "./checkout.ts";
import { checkInitData, initDataKey, type WebAppBuyer } from "./init-data.ts";
import { orderJson, productJson, quoteJson } from "./json.ts";
import { type CatalogueWords, STORED_WORDS } from "./words.ts";

// the Mini App's JSON API under /app/api/. Every call names its user only through initData
// checked with the bot token (`Authorization: tma <initData>`; anything else: 401), and does
// what the chat does through the same commerce core: the catalogue at the buyer's own tier
// price, the same quotes, the same Pay.

export const MINI_APP_API = "/app/api";

export type MiniAppEnv = { Variables: AppEnv["Variables"] & { buyer: WebAppBuyer } };

export interface MiniAppApiDeps {
  orders: OrderEngine;
  /** the bot's token: initData is signed with it */
  botToken: string;
  /** the buyer's chat with the bot; absent: the app works alone */
  chat?: MiniAppChat | undefined;
  /** categories and brands in the shop's words; absent: as stored */
  words?: CatalogueWords | undefined;
}

const PAGE_SIZE = 20;

const productQuery = z.object({
  q: z.string().max(200).optional(),
  type: z.enum(["prepaid", "game", "pasca"]).optional(),
  category: z.string().max(100).optional(),
  brand: z.string().max(100).optional(),
  phone: z.string().max(40).optional(),
  offset: z.coerce.number().int().min(0).max(10_000).optional(),
  limit: z.coerce.number().int().min(1).max(50).optional(),
});

const quoteBody = z.object({
  code: z.string().trim().min(1).max(64),
  destination: z.string().trim().min(1).max(64),
});

/** quote ids are 12 base64url characters (orders/quotes.ts) */
const QUOTE_ID = /^[A-Za-z0-9_-]{8,32}$/;

function refuse(c: Context, status: 400 | 401 | 403 | 404 | 409 | 422, error: string, more = {}) {
  return c.json({ error, ...more }, status);
}

/** the JSON body, or undefined when it is not a JSON object */
async function jsonBody(c: Context): Promise<unknown> {
  try {
    const body: unknown = await c.req.json();
    if (unstorableField(body) !== undefined) return undefined; // PostgreSQL would refuse it
    return typeof body === "object" && body !== null ? body : undefined;
  } catch {
    return undefined;
  }
}

export function createMiniAppApi(deps: MiniAppApiDeps): Hono<MiniAppEnv> {
  const { orders } = deps;
  const { db } = orders;
  const key = initDataKey(deps.botToken);
  const log = orders.logger.child({ component: "mini-app" });
  const api = new Hono<MiniAppEnv>();

  // design rule 17: the only user id the API knows is the one initData names
  api.use(`${MINI_APP_API}/*`, async (c, next) => {
    const initData = /^tma (.+)$/.exec(c.req.header("authorization") ?? "")?.[1];
    if (!initData) return refuse(c, 401, "unauthorized", { reason: "missing" });
    const check = checkInitData(key, initData, Math.floor(orders.clock.now() / 1000));
    if (!check.ok) return refuse(c, 401, "unauthorized", { reason: check.reason });
    c.set("buyer", check.buyer);
    // a NUL in the path or the query (a product code, a search): PostgreSQL would refuse it
    if (/%00/i.test(c.req.url)) return refuse(c, 400, "bad_request");
    await next();
  });

  const words = deps.words ?? STORED_WORDS;
  /** the buyer's language: the chat's, or Telegram's before their first contact */
  const languageOf = (user: { language: string } | undefined, buyer: WebAppBuyer): Language => {
    const stored = user?.language;
    if (stored === "en" || stored === "id") return stored;
    return buyer.languageCode?.startsWith("en") ? "en" : "id";
  };

  // the buyer's own prices: their tier, down through their uplines' markups
  const pricedFor = async (buyer: WebAppBuyer) => {
    const user = await findUser(db, buyer.id);
    return { tier: user?.tier ?? "customer", buyer: buyer.id, language: languageOf(user, buyer) };
  };
  /** a product as the app shows it, its category and brand in the shop's words */
  const product = (item: CatalogueItem, language: Language) =>
    productJson(item, orders.clock.now(), {
      categoryName: words.category(language, item.category),
      brandName: words.brand(item.brand),
    });

  api.get(`${MINI_APP_API}/me`, async (c) => {
    const buyer = c.get("buyer");
    const [user, balance, phones, ready] = await Promise.all([
      findUser(db, buyer.id),
      walletBalance(db, buyer.id),
      recentDestinations(db, buyer.id, { kinds: ["prepaid"], categories: PHONE_CATEGORIES }, 10),
      catalogueReady(db),
    ]);
    return c.json({
      user: { id: buyer.id, firstName: buyer.firstName },
      language: languageOf(user, buyer),
      tier: user?.tier ?? "customer",
      balance,
      recentPhones: [...new Set(phones.map((p) => normalisePhone(p)).filter(Boolean))].slice(0, 3),
      catalogueReady: ready,
    });
  });

  api.get(`${MINI_APP_API}/catalogue`, async (c) => {
    const priced = await pricedFor(c.get("buyer"));
    const outline = await catalogueOutline(db, priced);
    return c.json({
      entries: outline.map((e) => ({
        ...e,
        categoryName: words.category(priced.language, e.category),
        brandName: words.brand(e.brand),
      })),
    });
  });

  api.get(`${MINI_APP_API}/phone`, (c) => {
    const phone = normalisePhone(c.req.query("number") ?? "");
    const operator = phone ? detectOperator(phone) : null;
    if (!phone || !operator) return refuse(c, 422, "invalid_phone");
    return c.json({ phone, operator, operators: offeredOperators(phone) });
  });

  api.get(`${MINI_APP_API}/products`, async (c) => {
    const parsed = productQuery.safeParse(c.req.query());
    if (!parsed.success) return refuse(c, 400, "bad_query");
    const q = parsed.data;
    let operators: string[] | undefined;
    if (q.phone) {
      const phone = normalisePhone(q.phone);
      if (!phone || !detectOperator(phone)) return refuse(c, 422, "invalid_phone");
      operators = offeredOperators(phone);
    }
    const priced = await pricedFor(c.get("buyer"));
    const page = await searchCatalogue(db, {
      text: q.q,
      type: q.type,
      category: q.category,
      brand: q.brand,
      operators: operators as Parameters<typeof searchCatalogue>[1]["operators"],
      ...priced,
      limit: q.limit ?? PAGE_SIZE,
      offset: q.offset,
    });
    return c.json({
      items: page.items.map((i: CatalogueItem) => product(i, priced.language)),
      total: page.total,
    });
  });

  api.get(`${MINI_APP_API}/products/:code`, async (c) => {
    const code = c.req.param("code");
    const priced = await pricedFor(c.get("buyer"));
    const item = code.length <= 64 ? await productByCode(db, code, priced) : null;
    if (!item) return refuse(c, 404, "product_unavailable");
    return c.json({ product: product(item, priced.language) });
  });

  // a quote, as the chat's last step makes one; its card also goes to the chat
  api.post(`${MINI_APP_API}/quotes`, async (c) => {
    const parsed = quoteBody.safeParse(await jsonBody(c));
    if (!parsed.success) return refuse(c, 400, "bad_request");
    const buyer = c.get("buyer");
    // the buyer's row (their tier) exists from here on, as after a first message in chat
    await upsertUser(db, {
      telegramId: buyer.id,
      firstName: buyer.firstName,
      username: buyer.username,
      languageCode: buyer.languageCode,
    });
    const to = { userId: buyer.id, chatId: buyer.id };
    const item = await productByCode(db, parsed.data.code, await pricedFor(buyer));
    const request = { ...to, productCode: parsed.data.code };
    const result =
      item?.type === "pasca"
        ? await createBillQuote(orders, { ...request, customerNo: parsed.data.destination })
        : await createQuote(orders, { ...request, destination: parsed.data.destination });
    if (!result.ok) {
      const { ok: _, ...refusal } = result;
      return refuse(c, 422, result.reason, { refusal });
    }
    try {
      await deps.chat?.offerQuote(result.quote, to);
    } catch (err) {
      // the quote stands and Pay works from the app; the chat copy is a convenience
      log.warn({ err, quoteId: result.quote.id }, "showing a Mini App quote in chat failed");
    }
    return c.json({ quote: quoteJson(result.quote) }, 201);
  });

  api.get(`${MINI_APP_API}/quotes/:id`, async (c) => {
    const buyer = c.get("buyer");
    const quoteId = c.req.param("id");
    const quote = QUOTE_ID.test(quoteId) ? await findUserQuote(db, quoteId, buyer.id) : undefined;
    if (!quote) return refuse(c, 404, "quote_not_found");
    const order = await getOrderByConfirmKey(db, quote.id);
    return c.json({
      cancelled: quote.cancelledAt !== null,
      order: order ? orderJson(order) : null,
    });
  });

  api.post(`${MINI_APP_API}/quotes/:id/pay`, async (c) => {
    const buyer = c.get("buyer");
    const quoteId = c.req.param("id");
    if (!QUOTE_ID.test(quoteId)) return refuse(c, 404, "quote_not_found");
    // a wallet with a PIN pays only where the PIN is asked: on the card in the chat
    // (docs/resellers.md#the-pin), so a stolen session can't pay here around it
    if ((await pinState(db, buyer.id, orders.clock.now())).set) {
      return refuse(c, 403, "pin_required");
    }
    const result = await payFromApp(orders, deps.chat, {
      quoteId,
      userId: buyer.id,
      chatId: buyer.id,
    });
    if (result.ok) return c.json({ order: orderJson(result.order), duplicate: result.duplicate });
    const { ok: _, ...refusal } = result;
    const status = result.reason === "quote_not_found" ? 404 : 409;
    return refuse(c, status, result.reason, { refusal });
  });

  api.post(`${MINI_APP_API}/quotes/:id/cancel`, async (c) => {
    const buyer = c.get("buyer");
    const quoteId = c.req.param("id");
    if (!QUOTE_ID.test(quoteId)) return refuse(c, 404, "quote_not_found");
    const outcome = await cancelQuote(db, {
      quoteId,
      userId: buyer.id,
      now: new Date(orders.clock.now()),
    });
    if (outcome.state === "not_found") return refuse(c, 404, "quote_not_found");
    if (outcome.state === "ordered") return c.json({ order: orderJson(outcome.order) });
    await deps.chat
      ?.showCancelled({ quoteId, userId: buyer.id, chatId: buyer.id })
      .catch((err: unknown) => log.warn({ err, quoteId }, "showing a cancelled card failed"));
    return c.json({ cancelled: true });
  });

  return api;
}
