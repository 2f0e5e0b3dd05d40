import type { MessageView } from "@kios/bot-api-server";
import { NO_DIGIFLAZZ_FAULTS } from "@kios/digiflazz-sandbox";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { createSecretBox } from "../../src/commerce/h2h/cipher.ts";
import { createKey } from "../../src/commerce/h2h/keys.ts";
import { sweepOpenOrders } from "../../src/commerce/orders/resolve.ts";
import { setTier } from "../../src/commerce/users.ts";
import { creditWallet, walletBalance } from "../../src/commerce/wallet/ledger.ts";
import { verifyLedger } from "../../src/commerce/wallet/verify.ts";
import { createSignatureSupplier } from "../../src/supplier/signature/client.ts";
import { labels } from "../helpers/chat-driver.ts";
import { testDriver } from "../helpers/db.ts";
import { type DigiflazzShop, startDigiflazzShop } from "../helpers/digiflazz-shop.ts";
import {
  airtimeCard,
  attemptsOf,
  callbacksFor,
  expectMoney,
  formatRupiah,
  type Json,
  lastOrder,
  miniAppAs,
  plnBillCard,
  rupiahOf,
} from "./steps.ts";

// issue 37, "Done when", end to end: kios's full start-up, the local Bot API server, and
// the suppliers' sandboxes, all over real HTTP. Nothing here calls kios's code to buy: a
// user taps (in chat, in the Mini App) or a reseller's server signs a request, and the
// suppliers' own books say what happened. Digiflazz first here; the seed's supplier first:
// digiflazz-backup.test.ts.

const H2H_KEY = "digiflazz-e2e-h2h-encryption-key-0123456789";
/** a first send's answer held past the shop's timeout (SUPPLIER_TIMEOUT_MS) */
const TIMEOUT_MS = 5_000;
const SLOW_REPLY_MS = 7_000;

describe(`e2e: a shop with only a Digiflazz account (${testDriver})`, () => {
  let shop: DigiflazzShop;
  beforeAll(async () => {
    shop = await startDigiflazzShop({
      suppliers: ["digiflazz"],
      env: { H2H_ENCRYPTION_KEY: H2H_KEY },
    });
  });
  afterAll(() => shop?.stop());

  /** the one Digiflazz transaction of a ref_id, as its books hold it */
  const txnOf = (refId: string) => [...shop.d.state.txns.values()].filter((t) => t.refId === refId);

  it("sells in chat: a Pay tap, the SN pushed back in place", async () => {
    const { j } = shop;
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
    expect(shop.sentTo(order.refId)).toHaveLength(1);
    expect(txnOf(order.refId).map((t) => t.status)).toEqual(["Sukses"]);
    await expectMoney(j, u, 100_000 - price);
  });

  it("sells in chat when Digiflazz answers pending: its signed webhook, confirmed by a spaced re-send, settles ⏳ → ✅", async () => {
    const { j } = shop;
    const u = 64_002;
    j.user(u);
    await j.fund(u, 100_000);
    const card = await airtimeCard(j, u, "081234567803");
    const price = rupiahOf(card.text, "Harga");
    j.tap(u, card, /Bayar/);
    await j.waitEdit(u, card.message_id, /⏳ Diproses/);
    const order = await lastOrder(j, u);
    // the signed webhook arrives, is stored once and acted on: its status check would
    // re-send the order to Digiflazz, which is not done within a minute of the last send
    // (docs/suppliers.md#the-re-send-rule), so the order stays pending
    const [report] = await vi.waitFor(
      async () => {
        const rows = await callbacksFor(j, order.refId);
        expect(rows).toHaveLength(1);
        expect(rows[0]!.processedAt).not.toBeNull();
        return rows;
      },
      { timeout: 20_000 },
    );
    expect(report!.outcome).toBe("order pending");
    expect(shop.sentTo(order.refId)).toHaveLength(1);
    // a minute on, the status check re-sends the stored body and settles the order
    j.clock.advance(61_000);
    // the check that came due is taken now, as the sweep would: on a loaded machine the first
    // check may have run before the clock moved and wait a real minute for its next turn
    await sweepOpenOrders(j.app.app.orders!);
    const done = await j.waitEdit(u, card.message_id, /✅ Berhasil/);
    expect(done.text).toContain(`SN: ${(await lastOrder(j, u)).sn}`);
    // one first send and one spaced re-send of the same body, no other transaction
    const sent = shop.sentTo(order.refId);
    expect(sent).toHaveLength(2);
    expect(sent[1]).toEqual(sent[0]);
    expect(txnOf(order.refId)).toHaveLength(1);
    expect(shop.d.state.earlyResends).toEqual([]);
    await expectMoney(j, u, 100_000 - price);
  });

  it("sells in the Mini App: a checkout signed by Telegram's initData, ✅ with the SN, one transaction at Digiflazz", async () => {
    const { j } = shop;
    const u = 64_003;
    const call = miniAppAs(j, u);
    // the buyer has the bot's chat, where the checkout's card goes
    j.user(u);
    await j.waitMessage(u, /Halo/, j.say(u, "/start"));
    await j.fund(u, 100_000);
    // the catalogue the app searches is Digiflazz's, at the shop's price
    const found = await call(`/products?q=${encodeURIComponent("telkomsel 10")}`);
    const item = found.body.items.find((i: Json) => i.name === "Telkomsel 10.000");
    expect(item).toBeDefined();
    const before = j.lastId(u);
    const quoted = await call("/quotes", { code: item.code, destination: "0812 3456 7201" });
    expect(quoted.status).toBe(201);
    const quote = quoted.body.quote;
    expect(quote).toMatchObject({ productCode: item.code, price: item.price });
    const card = await j.waitMessage(u, /Konfirmasi pembelian/, before);
    const paid = await call(`/quotes/${quote.id}/pay`);
    expect(paid).toMatchObject({ status: 200, body: { duplicate: false } });
    const done = await j.waitEdit(u, card.message_id, /✅ Berhasil/);
    const order = await lastOrder(j, u);
    expect(order).toMatchObject({ status: "success", destination: "081234567201" });
    expect(done.text).toContain(`SN: ${order.sn}`);
    // the app reads the same result
    const read = await call(`/quotes/${quote.id}`);
    expect(read.body.order).toMatchObject({ status: "success", final: true, sn: order.sn });
    // Digiflazz: one transaction for the order's ref, for that number, a success
    expect(shop.sentTo(order.refId)).toHaveLength(1);
    expect(shop.sentFor("081234567201")).toHaveLength(1);
    expect(txnOf(order.refId).map((t) => [t.status, t.sn])).toEqual([["Sukses", order.sn]]);
    await expectMoney(j, u, 100_000 - quote.price);
  });

  it("/harga names Digiflazz's categories and brands in the shop's words, in both languages", async () => {
    const { j } = shop;
    /** the index's category buttons, without their counts */
    const categories = (m: MessageView) => labels(m).map((l) => l.replace(/ \(\d+\)$/, ""));
    const u = 64_005;
    j.user(u);
    const index = await j.waitMessage(u, /Daftar harga/, j.say(u, "/harga"));
    // stored as Digiflazz wrote them: E-Money, Games, PLN PASCABAYAR, BPJS KESEHATAN
    expect(categories(index).sort()).toEqual(
      [
        "BPJS Kesehatan",
        "E-Wallet",
        "PLN Pascabayar",
        "Paket Data",
        "Pulsa",
        "Token PLN",
        "Voucher Game",
      ].sort(),
    );
    // a category's list: its brands (TELKOMSEL, INDOSAT, XL) as buttons and headings
    j.tap(u, index, /^Pulsa \(/);
    const pulsa = await j.waitEdit(u, index.message_id, /📋 Pulsa ·/);
    expect(labels(pulsa)).toEqual(expect.arrayContaining(["Telkomsel", "Indosat", "XL"]));
    expect(pulsa.text).toMatch(/^Telkomsel$/m);
    expect(`${pulsa.text} ${labels(pulsa).join(" ")}`).not.toMatch(/TELKOMSEL|INDOSAT/);
    // a bill kind's list says its kind once, in the shop's words
    const bills = await j.waitMessage(u, /📋 BPJS Kesehatan ·/, j.say(u, "/harga bpjs kesehatan"));
    expect(bills.text).not.toMatch(/BPJS KESEHATAN/);
    const en = 64_006;
    j.user(en, { language_code: "en" });
    const enIndex = await j.waitMessage(en, /Price list/, j.say(en, "/harga"));
    expect(categories(enIndex)).toEqual(
      expect.arrayContaining([
        "Airtime",
        "Data package",
        "PLN Token",
        "Game Voucher",
        "PLN Postpaid",
      ]),
    );
  });

  it("the Mini App names Digiflazz's categories and brands in the shop's words, in the buyer's language", async () => {
    const { j } = shop;
    const entry = (entries: Json[], category: string, brand: string) =>
      entries.find((e) => e.category === category && e.brand === brand);
    const id = (await miniAppAs(j, 64_007)("/catalogue")).body.entries as Json[];
    // the stored names stay the keys a chip filters by; the names are what the chips show
    expect(entry(id, "Pulsa", "TELKOMSEL")).toMatchObject({
      categoryName: "Pulsa",
      brandName: "Telkomsel",
    });
    expect(entry(id, "E-Money", "GO PAY")).toMatchObject({
      categoryName: "E-Wallet",
      brandName: "GoPay",
    });
    expect(entry(id, "Games", "MOBILE LEGENDS")).toMatchObject({
      categoryName: "Voucher Game",
      brandName: "Mobile Legends",
    });
    expect(entry(id, "PLN PASCABAYAR", "PLN PASCABAYAR")).toMatchObject({
      categoryName: "PLN Pascabayar",
    });
    const en = miniAppAs(j, 64_008, "en");
    const enEntries = (await en("/catalogue")).body.entries as Json[];
    expect(entry(enEntries, "Pulsa", "TELKOMSEL")?.categoryName).toBe("Airtime");
    expect(entry(enEntries, "Games", "FREE FIRE")).toMatchObject({
      categoryName: "Game Voucher",
      brandName: "Free Fire",
    });
    // the products a chip lists, and one product's sheet
    const bills = await en(`/products?category=${encodeURIComponent("PLN PASCABAYAR")}`);
    expect(bills.body.items.map((i: Json) => i.categoryName)).toEqual(["PLN Postpaid"]);
    const { product } = (await en(`/products/${bills.body.items[0].code}`)).body;
    expect(product).toMatchObject({ category: "PLN PASCABAYAR", categoryName: "PLN Postpaid" });
  });

  it("sells over H2H: a reseller's signed /h2h/v1 order succeeds with the SN, one transaction at Digiflazz", async () => {
    const { j } = shop;
    const db = j.app.app.database.db;
    const reseller = 64_004;
    const issued = await createKey(db, createSecretBox(H2H_KEY), reseller);
    if (!issued.ok) throw new Error(issued.reason);
    await setTier(db, reseller, "reseller");
    await creditWallet(db, { userId: reseller, amount: 1_000_000, key: "e2e:dflz:h2h" });
    // the reseller's server: kios's own signature client, pointed at this shop's H2H API
    const client = createSignatureSupplier({
      baseUrl: `${j.app.baseUrl}/h2h/v1`,
      apiId: issued.key.apiId,
      apiKey: issued.key.apiKey,
      secretKey: issued.key.secretKey,
      clock: j.clock,
      timeoutMs: 10_000,
      readRetries: 0,
    });
    const listed = (await client.products("prepaid")).find((p) => p.name === "Telkomsel 10.000");
    expect(listed).toBeDefined();
    const refId = "reseller-ref-0001";
    const customerNo = "081234567202";
    const answer = await client.order({ cmd: "prepaid", code: listed!.code, customerNo, refId });
    expect(answer.outcome).toBe("accepted");
    // success at once, or pending and then success by the status the reseller asks for
    const settled = await vi.waitFor(
      async () => {
        const status = await client.status(refId);
        if (!status.found) throw new Error("not found");
        expect(status.transaction.status).toBe("success");
        return status.transaction;
      },
      { timeout: 20_000, interval: 200 },
    );
    expect(settled).toMatchObject({ refId, price: listed!.price });
    expect(settled.sn).toBeTruthy();
    // Digiflazz: one transaction for that number (under the shop's own ref), with that SN
    const sent = shop.sentFor(customerNo);
    expect(sent).toHaveLength(1);
    const shopRef = String(sent[0]!.ref_id);
    expect(txnOf(shopRef).map((t) => [t.status, t.sn])).toEqual([["Sukses", settled.sn]]);
    expect(await walletBalance(db, reseller)).toBe(1_000_000 - listed!.price);
    expect((await verifyLedger(j.app.app.database)).problems).toEqual([]);
  });

  /** the inquiry Digiflazz holds for a customer number (the sandbox's books) */
  const inquiryFor = (customerNo: string) =>
    [...shop.d.state.inquiries.values()].find((i) => i.customerNo === customerNo);
  /** a new user with Rp200.000, at their PLN bill's card */
  const billCard = async (u: number, customerNo: string) => {
    shop.j.user(u);
    await shop.j.fund(u, 200_000);
    return plnBillCard(shop.j, u, customerNo);
  };

  it("pays a postpaid bill in chat: inq-pasca shows it, Pay sends pay-pasca with the inquiry's ref_id, and the cost booked is price, not selling_price", async () => {
    const { j, d } = shop;
    const [u, customerNo] = [64_010, "530000000012"];
    const before = d.account().balance;
    const card = await billCard(u, customerNo);
    // the card is Digiflazz's inquiry: its name, period, amount, and the shop's admin fee
    const [inquired] = shop.sentFor(customerNo);
    expect(inquired).toMatchObject({ commands: "inq-pasca", buyer_sku_code: "pln" });
    const inquiry = inquiryFor(customerNo)!;
    expect(inquiry.refId).toBe(inquired!.ref_id);
    const { bill } = inquiry as { bill: Json };
    const amount = Number(bill.desc.detail[0].nilai_tagihan);
    expect(card.text).toContain(`Nama: ${bill.customer_name}`);
    expect(card.text).toContain(`No. pelanggan: ${customerNo}`);
    expect(card.text).toMatch(new RegExp(`• Periode [^:]+: ${formatRupiah(amount)}`));
    const admin = rupiahOf(card.text, "Biaya admin");
    const total = rupiahOf(card.text, "Total bayar");
    expect(total).toBe(amount + admin);
    j.tap(u, card, /Bayar/);
    const done = await j.waitEdit(u, card.message_id, /✅ Berhasil/);
    const order = await lastOrder(j, u);
    expect(order).toMatchObject({ kind: "bill", status: "success", refId: inquiry.refId });
    // pay-pasca with the inquiry's own ref_id. Digiflazz's status check is the same request
    // again, so a reply late on a busy machine (kios reads it as unknown) is followed by the
    // same pay-pasca: never another ref_id, never another payment
    const sent = shop.sentFor(customerNo).map((b) => [b.commands, b.ref_id]);
    expect(sent.slice(0, 2)).toEqual([
      ["inq-pasca", inquiry.refId],
      ["pay-pasca", inquiry.refId],
    ]);
    expect(sent.slice(2), "only the status check's repeats").toEqual(
      sent.slice(2).map(() => ["pay-pasca", inquiry.refId]),
    );
    expect(txnOf(inquiry.refId)).toHaveLength(1);
    const [paid] = txnOf(inquiry.refId);
    expect(paid).toMatchObject({ kind: "bill", status: "Sukses" });
    expect(done.text).toContain(`Nama: ${bill.customer_name}`);
    expect(done.text).toContain(`SN: ${paid!.sn}`);
    // the shop's cost is the answer's price (after the seller's commission), as Digiflazz
    // charged its deposit, and not selling_price (what the customer is shown)
    expect(paid!.price).toBeLessThan(Number(bill.selling_price));
    expect(order.cost).toBe(paid!.price);
    expect(order.supplierPrice).toBe(paid!.price);
    expect(d.account().balance).toBe(before - paid!.price);
    await expectMoney(j, u, 200_000 - total);
  });

  it("a bill whose pay-pasca answer was lost waits: status-pasca's Gagal for a ref_id Digiflazz has not paid is not a failed payment", async () => {
    const { j, d } = shop;
    const [u, customerNo] = [64_011, "530000000013"];
    const card = await billCard(u, customerNo);
    const total = rupiahOf(card.text, "Total bayar");
    const { refId } = inquiryFor(customerNo)!;
    // pay-pasca answered HTTP 500 before Digiflazz did anything: the outcome is unknown
    d.faults = { ...NO_DIGIFLAZZ_FAULTS, errorBeforeRate: 1 };
    j.tap(u, card, /Bayar/);
    await vi.waitFor(async () => expect((await lastOrder(j, u)).status).toBe("unknown"), {
      timeout: 20_000,
      interval: 50,
    });
    d.faults = NO_DIGIFLAZZ_FAULTS;
    // its status check: status-pasca, which answers Gagal ("no data") for a ref_id not paid
    j.clock.advance(61_000);
    await sweepOpenOrders(j.app.app.orders!);
    await vi.waitFor(
      () => expect(shop.sentTo(refId).map((b) => b.commands)).toContain("status-pasca"),
      { timeout: 20_000, interval: 50 },
    );
    await sweepOpenOrders(j.app.app.orders!);
    // not failed, not refunded, never paid again: the buyer's money stays held for an admin
    const order = await lastOrder(j, u);
    expect(order).toMatchObject({ kind: "bill", refId });
    expect(["unknown", "pending"]).toContain(order.status);
    expect(shop.sentTo(refId).filter((b) => b.commands === "pay-pasca")).toHaveLength(1);
    expect(txnOf(refId)).toEqual([]);
    await expectMoney(j, u, 200_000 - total);
  });
});

describe(`e2e: Digiflazz first, the seed's signature supplier second (${testDriver})`, () => {
  let shop: DigiflazzShop;
  beforeAll(async () => {
    shop = await startDigiflazzShop({
      suppliers: ["digiflazz", "seed"],
      env: { SUPPLIER_TIMEOUT_MS: String(TIMEOUT_MS) },
      digiflazz: { slowReplyMs: SLOW_REPLY_MS },
      // the shop's price (the first supplier's, no markup) leaves the minimum margin at the seed
      beforeStart({ d, s }) {
        const seedPrice = s!.catalogue().find((p) => p.code === "TSEL10")!.price;
        d.setProduct("tsel10", { price: seedPrice + 500 });
      },
    });
  });
  afterAll(() => shop?.stop());

  it("refused with nothing formed at Digiflazz (rc 68) is bought at the seed's supplier in one tap; Digiflazz never sees that ref again", async () => {
    const { j, d } = shop;
    const s = shop.s!;
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
    const atDigiflazz = shop.sentFor("081234567868");
    expect(atDigiflazz).toHaveLength(1);
    const refusedRef = String(atDigiflazz[0]!.ref_id);
    expect(s.transactions().filter((t) => t.customerNo === "081234567868")).toHaveLength(1);
    expect(s.transactions().find((t) => t.customerNo === "081234567868")?.status).toBe("success");
    // later status checks and sweeps never send the refused ref again
    j.clock.advance(120_000);
    await expectMoney(j, u, 100_000 - price);
    expect(shop.sentTo(refusedRef)).toHaveLength(1);
    expect(d.state.trapSprung).toEqual([]);
  });

  it("a timeout at Digiflazz never reaches the seed's supplier: the order waits, and Digiflazz's own re-send of the same body settles it", async () => {
    const { j, d } = shop;
    const s = shop.s!;
    const u = 64_102;
    const customerNo = "081234567321";
    j.user(u);
    await j.fund(u, 100_000);
    const card = await airtimeCard(j, u, customerNo);
    const price = rupiahOf(card.text, "Harga");
    // Digiflazz forms the transaction (a success) and holds its answer past the shop's timeout
    d.faults = { ...NO_DIGIFLAZZ_FAULTS, timeoutRate: 1 };
    j.tap(u, card, /Bayar/);
    const unknown = await vi.waitFor(
      async () => {
        const o = await lastOrder(j, u);
        expect(o.status).toBe("unknown");
        return o;
      },
      { timeout: 20_000, interval: 50 },
    );
    d.faults = NO_DIGIFLAZZ_FAULTS;
    expect(shop.sentTo(unknown.refId)).toHaveLength(1);
    expect(d.state.calls.filter((c) => c.refId === unknown.refId)).toMatchObject([
      { result: "created", delivered: false },
    ]);
    // the status check is the order sent again: not within a minute (docs/suppliers.md#the-re-send-rule)
    j.clock.advance(61_000);
    // the check that came due is taken now, as the sweep would: on a loaded machine the first
    // check may have run before the clock moved and wait a real minute for its next turn
    await sweepOpenOrders(j.app.app.orders!);
    const done = await j.waitEdit(u, card.message_id, /✅ Berhasil/);
    const order = await lastOrder(j, u);
    expect(order).toMatchObject({ id: unknown.id, status: "success", refId: unknown.refId });
    expect(done.text).toContain(`SN: ${order.sn}`);
    // Digiflazz: the first send and one re-send, the same body, one transaction
    const sent = shop.sentTo(order.refId);
    expect(sent).toHaveLength(2);
    expect(sent[1]).toEqual(sent[0]);
    expect(d.state.calls.filter((c) => c.refId === order.refId).map((c) => c.result)).toEqual([
      "created",
      "repeat",
    ]);
    expect([...d.state.txns.values()].filter((t) => t.customerNo === customerNo)).toHaveLength(1);
    expect(d.state.earlyResends).toEqual([]);
    // the seed's supplier never received it: one attempt only, nothing at the seed
    expect((await attemptsOf(j, order.id)).map((a) => a.supplier)).toEqual(["dflz"]);
    expect(s.transactions().filter((t) => t.customerNo === customerNo)).toEqual([]);
    expect(s.refusals().filter((r) => r.refId === order.refId)).toEqual([]);
    await expectMoney(j, u, 100_000 - price);
  });
});
