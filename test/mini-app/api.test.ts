import { DEFAULT_BOT, signInitData } from "@kios/bot-api-server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { productByCode } from "../../src/commerce/catalogue/queries.ts";
import { listUserOrders } from "../../src/commerce/orders/queries.ts";
import { setTier } from "../../src/commerce/users.ts";
import { walletBalance } from "../../src/commerce/wallet/ledger.ts";
import { setFirstPin as setPin } from "../../src/commerce/wallet/pin.ts";
import { verifyLedger } from "../../src/commerce/wallet/verify.ts";
import { testDriver } from "../helpers/db.ts";
import { type Journey, startJourney } from "../helpers/e2e.ts";

// the Mini App's JSON API on kios's full start-up, with the bot on the local Bot API server:
// initData is the only way in, prices are the buyer's tier's, and a checkout is the chat's
// own quote and Pay, its card in the chat moving with it

// biome-ignore lint/suspicious/noExplicitAny: the API's answers, read field by field by the assertions
type Json = Record<string, any>;

describe(`the Mini App's API (${testDriver})`, () => {
  let j: Journey;
  beforeAll(async () => {
    j = await startJourney();
  });
  afterAll(() => j?.stop());

  const nowSeconds = () => Math.floor(j.clock.now() / 1000);
  const initDataOf = (userId: number, authDate = nowSeconds(), token = DEFAULT_BOT.token) =>
    signInitData(token, {
      user: { id: userId, first_name: `User${userId}`, language_code: "id" },
      auth_date: authDate,
    });

  async function call(
    userId: number | string | undefined,
    path: string,
    init: { method?: string; body?: unknown; raw?: string } = {},
  ) {
    const headers: Record<string, string> = {};
    if (typeof userId === "number") headers.authorization = `tma ${initDataOf(userId)}`;
    if (typeof userId === "string") headers.authorization = userId;
    if (init.body !== undefined || init.raw !== undefined)
      headers["content-type"] = "application/json";
    const res = await fetch(`${j.app.baseUrl}/app/api${path}`, {
      method: init.method ?? (init.body !== undefined || init.raw !== undefined ? "POST" : "GET"),
      headers,
      body: init.raw ?? (init.body === undefined ? undefined : JSON.stringify(init.body)),
    });
    const body = (await res.json()) as Json;
    return { status: res.status, body, headers: res.headers };
  }

  /** the buyer has the bot's chat (where its 🛍 Katalog button is) */
  async function opened(u: number) {
    j.user(u);
    await j.waitMessage(u, /Halo/, j.say(u, "/start"));
  }

  it("answers 401 to anything but initData Telegram signed for this bot in the last day", async () => {
    const u = 81_001;
    expect((await call(undefined, "/me")).status).toBe(401);
    expect((await call("Bearer abc", "/me")).status).toBe(401);
    expect((await call("tma ", "/me")).status).toBe(401);
    const other = signInitData("987654321:AAOtherBotTokenOtherBotTokenOtherBot", {
      user: { id: u, first_name: "x" },
      auth_date: nowSeconds(),
    });
    expect(await call(`tma ${other}`, "/me")).toMatchObject({
      status: 401,
      body: { error: "unauthorized", reason: "bad_hash" },
    });
    const old = initDataOf(u, nowSeconds() - 86_401);
    expect(await call(`tma ${old}`, "/me")).toMatchObject({
      status: 401,
      body: { reason: "expired" },
    });
    const tampered = initDataOf(u).replace(/%22id%22%3A81001/, "%22id%22%3A81002");
    expect(tampered).not.toBe(initDataOf(u));
    expect((await call(`tma ${tampered}`, "/me")).body.reason).toBe("bad_hash");
    // the checkout calls too, before reading anything
    expect(
      (await call(undefined, "/quotes", { body: { code: "TSEL10", destination: "x" } })).status,
    ).toBe(401);
    const me = await call(u, "/me");
    expect(me).toMatchObject({
      status: 200,
      body: { user: { id: u }, tier: "customer", balance: 0 },
    });
    expect(me.headers.get("cache-control")).toBe("no-store");
  });

  it("searches the catalogue at the buyer's own tier price", async () => {
    const customer = 81_002;
    const reseller = 81_003;
    await setTier(j.app.app.database.db, reseller, "reseller");
    const found = await call(customer, `/products?q=${encodeURIComponent("tsel 10")}`);
    expect(found.status).toBe(200);
    const item = found.body.items.find((i: { code: string }) => i.code === "TSEL10");
    const db = j.app.app.database.db;
    expect(item).toMatchObject({
      name: "Telkomsel 10.000",
      price: (await productByCode(db, "TSEL10", { tier: "customer" }))!.price,
      destination: "phone",
    });
    const asReseller = await call(reseller, "/products?q=TSEL10");
    expect(asReseller.body.items[0]).toMatchObject({
      code: "TSEL10",
      price: (await productByCode(db, "TSEL10", { tier: "reseller" }))!.price,
    });
    // a phone number keeps mobile products to its operator (as in chat)
    const telkomsel = await call(customer, "/products?q=10.000&phone=0812%203456%207901&limit=50");
    expect(telkomsel.body.items.length).toBeGreaterThan(0);
    for (const i of telkomsel.body.items) expect([null, "telkomsel"]).toContain(i.operator);
    const outline = await call(customer, "/catalogue");
    expect(outline.body.entries).toContainEqual(
      expect.objectContaining({ type: "game", category: "Games", brand: "FREE FIRE" }),
    );
    expect(await call(customer, "/phone?number=0856%201234%205678")).toMatchObject({
      status: 200,
      body: { phone: "085612345678", operator: "indosat" },
    });
  });

  it("answers bad input with a clear 4xx", async () => {
    const u = 81_004;
    expect(await call(u, "/phone?number=12345")).toMatchObject({
      status: 422,
      body: { error: "invalid_phone" },
    });
    expect((await call(u, "/products?limit=abc")).status).toBe(400);
    expect((await call(u, "/products?phone=999")).status).toBe(422);
    expect((await call(u, "/products/NOPE")).status).toBe(404);
    expect((await call(u, "/quotes", { raw: "{not json" })).body.error).toBe("bad_request");
    expect((await call(u, "/quotes", { body: { code: "TSEL10" } })).status).toBe(400);
    expect(
      await call(u, "/quotes", { body: { code: "TSEL10", destination: "0856 1234 5678" } }),
    ).toMatchObject({ status: 422, body: { error: "invalid_destination" } });
    expect(
      await call(u, "/quotes", { body: { code: "NOPE", destination: "081234567901" } }),
    ).toMatchObject({ status: 422, body: { error: "product_unavailable" } });
    // a NUL, which PostgreSQL stores nowhere: in a search, a product's code, a quote's body
    for (const path of ["/products?q=a%00b", "/products?brand=%00", "/products/TSEL10%00"]) {
      expect(await call(u, path)).toMatchObject({ status: 400, body: { error: "bad_request" } });
    }
    expect(
      await call(u, "/quotes", { body: { code: "TSEL10\u0000", destination: "081234567901" } }),
    ).toMatchObject({ status: 400, body: { error: "bad_request" } });
    expect((await call(u, "/quotes/abc!/pay", { method: "POST" })).status).toBe(404);
    expect((await call(u, "/quotes/AAAAAAAAAAAA/pay", { method: "POST" })).status).toBe(404);
  });

  it("buys through the same quote and Pay as the chat: the card in the chat moves to its result", async () => {
    const u = 81_005;
    await opened(u);
    await j.fund(u, 100_000);
    const before = j.lastId(u);
    const quoted = await call(u, "/quotes", {
      body: { code: "TSEL10", destination: "0812 3456 7901" },
    });
    expect(quoted.status).toBe(201);
    const quote = quoted.body.quote;
    expect(quote).toMatchObject({
      productCode: "TSEL10",
      destination: "081234567901",
      balance: 100_000,
      balanceAfter: 100_000 - quote.price,
    });
    // the card is in the chat, with the chat's own Pay
    const card = await j.waitMessage(u, /Konfirmasi pembelian/, before);
    expect(card.text).toContain("Tujuan: 081234567901");
    expect(card.text).toContain(`Saldo: Rp100.000 → `);

    // a double tap in the app: one order, one hold
    const [a, b] = await Promise.all([
      call(u, `/quotes/${quote.id}/pay`, { method: "POST" }),
      call(u, `/quotes/${quote.id}/pay`, { method: "POST" }),
    ]);
    expect(a.status).toBe(200);
    expect(b.status).toBe(200);
    expect(a.body.order.id).toBe(b.body.order.id);
    expect([a.body.duplicate, b.body.duplicate].sort()).toEqual([false, true]);

    const done = await j.waitEdit(u, card.message_id, /✅ Berhasil/);
    const { items } = await listUserOrders(j.app.app.database.db, u, { limit: 5, offset: 0 });
    expect(items).toHaveLength(1);
    expect(done.text).toContain(`Ref: ${items[0]!.refId}`);
    // the app reads the same result
    const read = await call(u, `/quotes/${quote.id}`);
    expect(read.body.order).toMatchObject({ status: "success", final: true, sn: items[0]!.sn });
    // and the chat's Pay on the same card buys nothing more
    expect((await call(u, `/quotes/${quote.id}/pay`, { method: "POST" })).body.duplicate).toBe(
      true,
    );
    expect(await walletBalance(j.app.app.database.db, u)).toBe(100_000 - quote.price);
    expect((await verifyLedger(j.app.app.database)).ok).toBe(true);
  });

  it("asks before a second purchase today, and refuses one no sheet asked about", async () => {
    const u = 81_011;
    await opened(u);
    await j.fund(u, 100_000);
    const quoteOf = async () =>
      (await call(u, "/quotes", { body: { code: "TSEL10", destination: "081234567901" } })).body
        .quote;
    // two sheets opened before either is paid: neither asked about the other's purchase
    const first = await quoteOf();
    const second = await quoteOf();
    expect(first.sameDay).toBeNull();
    expect((await call(u, `/quotes/${first.id}/pay`, { method: "POST" })).status).toBe(200);
    const refused = await call(u, `/quotes/${second.id}/pay`, { method: "POST" });
    expect(refused).toMatchObject({
      status: 409,
      body: { error: "bought_today", refusal: { count: 1 } },
    });
    expect(await walletBalance(j.app.app.database.db, u)).toBe(100_000 - first.price);
    // a sheet opened now shows the purchase (and its card in the chat asks): Pay is the yes
    const before = j.lastId(u);
    const third = await quoteOf();
    expect(third.sameDay).toMatchObject({ count: 1 });
    const card = await j.waitMessage(u, /Konfirmasi pembelian/, before);
    expect(card.text).toContain("Beli lagi?");
    expect((await call(u, `/quotes/${third.id}/pay`, { method: "POST" })).status).toBe(200);
    expect(await walletBalance(j.app.app.database.db, u)).toBe(100_000 - 2 * first.price);
  });

  it("leaves a wallet with a PIN to the chat's Pay, where the PIN is asked", async () => {
    const u = 81_010;
    await opened(u);
    await j.fund(u, 100_000);
    await setPin(j.app.app.database.db, u, "2468");
    const quoted = await call(u, "/quotes", {
      body: { code: "TSEL10", destination: "081234567901" },
    });
    const paid = await call(u, `/quotes/${quoted.body.quote.id}/pay`, { method: "POST" });
    expect(paid.status).toBe(403);
    expect(paid.body.error).toBe("pin_required");
    expect(await walletBalance(j.app.app.database.db, u)).toBe(100_000);
  });

  it("never acts on another buyer's quote, says what is short, and cancels in both places", async () => {
    const u = 81_006;
    const stranger = 81_007;
    await opened(u);
    const before = j.lastId(u);
    const { quote } = (
      await call(u, "/quotes", { body: { code: "TSEL10", destination: "081234567901" } })
    ).body;
    const card = await j.waitMessage(u, /Konfirmasi pembelian/, before);
    // the quote id alone buys nothing: only its buyer's initData reaches it
    expect(await call(stranger, `/quotes/${quote.id}/pay`, { method: "POST" })).toMatchObject({
      status: 404,
      body: { error: "quote_not_found" },
    });
    expect((await call(stranger, `/quotes/${quote.id}`)).status).toBe(404);
    const short = await call(u, `/quotes/${quote.id}/pay`, { method: "POST" });
    expect(short).toMatchObject({
      status: 409,
      body: { error: "insufficient_balance", refusal: { missing: quote.price, balance: 0 } },
    });
    expect(await call(u, `/quotes/${quote.id}/cancel`, { method: "POST" })).toMatchObject({
      status: 200,
      body: { cancelled: true },
    });
    await j.waitEdit(u, card.message_id, /dibatalkan/);
    await j.fund(u, 50_000);
    expect(await call(u, `/quotes/${quote.id}/pay`, { method: "POST" })).toMatchObject({
      status: 409,
      body: { error: "quote_cancelled" },
    });
    expect(await walletBalance(j.app.app.database.db, u)).toBe(50_000);
  });
});
