import {
  DIGIFLAZZ_SANDBOX_ACCOUNT,
  type RunningDigiflazzSandbox,
  startDigiflazzSandbox,
} from "@kios/digiflazz-sandbox";
import {
  DEFAULT_SANDBOX_CREDENTIALS,
  type RunningSandbox,
  startSandbox,
} from "@kios/supplier-sandbox";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { syncAndLink } from "../../src/commerce/catalogue/sync-job.ts";
import { testDriver } from "../helpers/db.ts";
import { type Journey, startJourney } from "../helpers/e2e.ts";
import { airtimeCard, callbacksFor, expectMoney, lastOrder, rupiahOf } from "./steps.ts";

// issue 37, "Done when", end to end: kios's full start-up, the local Bot API server, and
// the suppliers' sandboxes, all over real HTTP. Nothing here calls kios's code to buy: a
// user taps, the suppliers' own books say what happened.

const account = DIGIFLAZZ_SANDBOX_ACCOUNT;

function digiflazzEnv(prefix: string, d: RunningDigiflazzSandbox): Record<string, string> {
  return {
    [`${prefix}INTERFACE`]: "digiflazz",
    [`${prefix}BASE_URL`]: d.url,
    [`${prefix}USERNAME`]: account.username,
    [`${prefix}API_KEY`]: account.apiKey,
    [`${prefix}WEBHOOK_SECRET`]: account.webhookSecret,
  };
}

function seedEnv(prefix: string, s: RunningSandbox): Record<string, string> {
  return {
    [`${prefix}INTERFACE`]: "signature",
    [`${prefix}BASE_URL`]: s.url,
    [`${prefix}API_ID`]: DEFAULT_SANDBOX_CREDENTIALS.apiId,
    [`${prefix}API_KEY`]: DEFAULT_SANDBOX_CREDENTIALS.apiKey,
    [`${prefix}SECRET_KEY`]: DEFAULT_SANDBOX_CREDENTIALS.secretKey,
  };
}

/** the owner's `kios sync`: the first supplier's catalogue, the others linked as routes */
async function sync(j: Journey): Promise<void> {
  const registry = j.app.app.suppliers!;
  await syncAndLink({
    db: j.app.app.database.db,
    supplier: registry.first.supplier,
    firstSupplier: registry.first.name,
    others: registry.all.slice(1).map((s) => ({ name: s.name, supplier: s.supplier })),
    logger: j.app.app.logger,
  });
}

const transactionsTo = (d: RunningDigiflazzSandbox, refId: string) =>
  d.state.requests.filter((b) => b.ref_id === refId);

describe(`e2e: a shop with only a Digiflazz account (${testDriver})`, () => {
  let j: Journey;
  let d: RunningDigiflazzSandbox;
  beforeAll(async () => {
    d = await startDigiflazzSandbox({ hostname: "127.0.0.1", settleDelayMs: 300 });
    j = await startJourney({ env: { ...digiflazzEnv("SUPPLIER_", d), SUPPLIER_NAME: "dflz" } });
    d.account().setWebhookUrl(`${j.app.baseUrl}/supplier/callback`);
    await sync(j);
  });
  afterAll(async () => {
    await j?.stop();
    await d?.stop();
  });

  it("sells in chat: a Pay tap, the SN pushed back in place", async () => {
    expect(j.app.app.supplier?.supplier.interface).toBe("digiflazz");
    const u = 64_001;
    j.user(u);
    await j.fund(u, 100_000);
    const card = await airtimeCard(j, u, "081234567100");
    const price = rupiahOf(card.text, "Harga");
    j.tap(u, card, /Bayar/);
    const done = await j.waitEdit(u, card.message_id, /✅ Berhasil/);
    const order = await lastOrder(j, u);
    expect(order.status).toBe("success");
    expect(done.text).toContain(`SN: ${order.sn}`);
    // Digiflazz's own books: one transaction for that ref, a success
    expect(transactionsTo(d, order.refId)).toHaveLength(1);
    expect(
      d.state.txns.get(order.refId)?.status ??
        [...d.state.txns.values()].find((t) => t.refId === order.refId)?.status,
    ).toBe("Sukses");
    await expectMoney(j, u, 100_000 - price);
  });

  it("sells in chat when Digiflazz answers pending: its signed webhook, confirmed by a spaced re-send, settles ⏳ → ✅", async () => {
    const u = 64_002;
    j.user(u);
    await j.fund(u, 100_000);
    const card = await airtimeCard(j, u, "081234567803");
    const price = rupiahOf(card.text, "Harga");
    j.tap(u, card, /Bayar/);
    await j.waitEdit(u, card.message_id, /⏳ Diproses/);
    const order = await lastOrder(j, u);
    // the signed webhook arrives and is stored once ...
    await vi.waitFor(async () => expect(await callbacksFor(j, order.refId)).toHaveLength(1), {
      timeout: 20_000,
    });
    // ... and is confirmed by a status check, which at Digiflazz re-sends the stored body: not
    // within a minute of the last send (docs/suppliers.md#the-re-send-rule)
    j.clock.advance(61_000);
    const done = await j.waitEdit(u, card.message_id, /✅ Berhasil/);
    expect(done.text).toContain(`SN: ${(await lastOrder(j, u)).sn}`);
    // one first send and one spaced re-send of the same body, no other transaction
    const sent = transactionsTo(d, order.refId);
    expect(sent.length).toBeLessThanOrEqual(2);
    expect(new Set(sent.map((b) => JSON.stringify(b))).size).toBe(1);
    await expectMoney(j, u, 100_000 - price);
  });
});

describe(`e2e: Digiflazz first, the seed's signature supplier second (${testDriver})`, () => {
  let j: Journey;
  let d: RunningDigiflazzSandbox;
  let s: RunningSandbox;
  beforeAll(async () => {
    d = await startDigiflazzSandbox({ hostname: "127.0.0.1", settleDelayMs: 300 });
    s = await startSandbox({ hostname: "127.0.0.1", port: 0, settleDelayMs: 300 });
    j = await startJourney({
      env: {
        ...digiflazzEnv("SUPPLIER_", d),
        SUPPLIER_NAME: "dflz",
        ...seedEnv("SUPPLIER_2_", s),
        SUPPLIER_2_NAME: "seed",
      },
    });
    d.account().setWebhookUrl(`${j.app.baseUrl}/supplier/callback`);
    s.account().setCallbackUrl(`${j.app.baseUrl}/supplier/seed/callback`);
    // the shop's price (the first supplier's, no markup) leaves the minimum margin at the seed
    const seedPrice = s.catalogue().find((p) => p.code === "TSEL10")!.price;
    d.setProduct("tsel10", { price: seedPrice + 500 });
    await sync(j);
  });
  afterAll(async () => {
    await j?.stop();
    await d?.stop();
    await s?.close();
  });

  it("refused with nothing formed at Digiflazz (rc 68) is bought at the seed's supplier in one tap; Digiflazz never sees that ref again", async () => {
    const u = 64_101;
    j.user(u);
    await j.fund(u, 100_000);
    // ends in 868: Digiflazz refuses, out of stock, nothing formed; the seed sells it
    const card = await airtimeCard(j, u, "081234567868");
    const price = rupiahOf(card.text, "Harga");
    j.tap(u, card, /Bayar/);
    const done = await j.waitEdit(u, card.message_id, /✅ Berhasil/);
    const order = await lastOrder(j, u);
    expect(order.status).toBe("success");
    expect(done.text).toContain(`SN: ${order.sn}`);
    // Digiflazz: one request, refused; the seed's supplier: the sale
    const atDigiflazz = d.state.requests.filter((b) => b.customer_no === "081234567868");
    expect(atDigiflazz).toHaveLength(1);
    const refusedRef = String(atDigiflazz[0]!.ref_id);
    expect(s.transactions().filter((t) => t.customerNo === "081234567868")).toHaveLength(1);
    expect(s.transactions().find((t) => t.customerNo === "081234567868")?.status).toBe("success");
    // later status checks and sweeps never send the refused ref again
    j.clock.advance(120_000);
    await expectMoney(j, u, 100_000 - price);
    expect(transactionsTo(d, refusedRef)).toHaveLength(1);
    expect(d.state.trapSprung).toEqual([]);
  });
});
