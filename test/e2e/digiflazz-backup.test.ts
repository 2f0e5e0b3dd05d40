import { defaultPrepaid, type PrepaidItem } from "@kios/digiflazz-sandbox";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { listMarkupRules, setMarkupRule } from "../../src/commerce/catalogue/markup-rules.ts";
import { markedUp } from "../../src/commerce/catalogue/pricing.ts";
import { productRoutes, products } from "../../src/db/schema.ts";
import { testDriver } from "../helpers/db.ts";
import {
  DIGIFLAZZ_NAME,
  type DigiflazzShop,
  SEED_NAME,
  startDigiflazzShop,
} from "../helpers/digiflazz-shop.ts";
import { patient } from "../helpers/patience.ts";
import { airtimeCard, attemptsOf, expectMoney, lastOrder, rupiahOf } from "./steps.ts";

// issue 37, "Done when", end to end with the seed's signature supplier first and Digiflazz
// second (Digiflazz first: digiflazz.test.ts): kios's full start-up, the local Bot API
// server and both sandboxes over real HTTP. A user taps; the suppliers' books say what
// happened.

/** a first send's answer held past the shop's timeout (SUPPLIER_TIMEOUT_MS) */
const TIMEOUT_MS = 5_000;
const SLOW_REPLY_MS = 7_000;
/** the seed's pending orders settle after this (by the shared clock): past the timeout */
const SEED_SETTLE_MS = 9_000;
const MARKUP_BP = 500;
const MIN_MARGIN = 100;

/** a product only Digiflazz sells: the seed's Telkomsel pulsa has no 7.000 */
function onlyAtDigiflazz(): PrepaidItem {
  const tsel10 = defaultPrepaid().find((p) => p.buyer_sku_code === "tsel10")!;
  return {
    ...tsel10,
    product_name: "Telkomsel 7.000",
    buyer_sku_code: "tsel7",
    price: 7_150,
    desc: "Telkomsel 7.000",
  };
}

describe(`e2e: the seed's signature supplier first, Digiflazz second (${testDriver})`, () => {
  let shop: DigiflazzShop;
  beforeAll(async () => {
    shop = await startDigiflazzShop({
      suppliers: ["seed", "digiflazz"],
      env: { SUPPLIER_TIMEOUT_MS: String(TIMEOUT_MS), MIN_MARGIN: String(MIN_MARGIN) },
      seed: { slowReplyMs: SLOW_REPLY_MS, settleDelayMs: SEED_SETTLE_MS },
      digiflazz: { prepaid: [...defaultPrepaid(), onlyAtDigiflazz()] },
      beforeStart({ d, s }) {
        // Digiflazz no dearer than the seed for TSEL10, so its route fits under the margin
        d.setProduct("tsel10", { price: s!.catalogue().find((p) => p.code === "TSEL10")!.price });
      },
    });
    // the owner's markup: 5 % for customers (prices are read through the rules)
    await setMarkupRule(shop.j.app.app.database.db, {
      scope: "all",
      tier: "customer",
      percentBp: MARKUP_BP,
    });
  });
  afterAll(() => shop?.stop());

  it("refused with nothing formed at the seed's supplier (the product off since the sync) is bought at Digiflazz in one tap", async () => {
    const { j, d } = shop;
    const s = shop.s!;
    const u = 65_001;
    const customerNo = "081234567410";
    j.user(u);
    await j.fund(u, 100_000);
    const card = await airtimeCard(j, u, customerNo);
    const price = rupiahOf(card.text, "Harga");
    // the seed takes TSEL10 out after the shop's sync: PRODUCT_INACTIVE, nothing formed
    s.setActive("TSEL10", false);
    try {
      j.tap(u, card, /Bayar/);
      const done = await j.waitEdit(u, card.message_id, /✅ Berhasil/);
      const order = await lastOrder(j, u);
      expect(order).toMatchObject({ status: "success", supplier: DIGIFLAZZ_NAME });
      expect(done.text).toContain(`SN: ${order.sn}`);
      const [atSeed, atDigiflazz, ...more] = await attemptsOf(j, order.id);
      expect(more).toEqual([]);
      expect(atSeed).toMatchObject({
        supplier: SEED_NAME,
        status: "rejected",
        answerCode: "PRODUCT_INACTIVE",
      });
      expect(atDigiflazz).toMatchObject({
        supplier: DIGIFLAZZ_NAME,
        status: "success",
        refId: order.refId,
      });
      // the seed: the refusal, and no transaction for that ref or that number
      expect(s.refusals().filter((r) => r.refId === atSeed!.refId)).toMatchObject([
        { code: "PRODUCT_INACTIVE" },
      ]);
      expect(s.requests().filter((r) => r.refId === atSeed!.refId)).toEqual([]);
      expect(s.transactions().filter((t) => t.customerNo === customerNo)).toEqual([]);
      // Digiflazz: exactly one transaction, a success, capped at the price less the margin
      const sent = shop.sentFor(customerNo);
      expect(sent).toHaveLength(1);
      expect(sent[0]).toMatchObject({
        ref_id: order.refId,
        buyer_sku_code: "tsel10",
        max_price: price - MIN_MARGIN,
      });
      expect([...d.state.txns.values()].filter((t) => t.customerNo === customerNo)).toMatchObject([
        { status: "Sukses", sn: order.sn },
      ]);
      await expectMoney(j, u, 100_000 - price);
    } finally {
      s.setActive("TSEL10", true);
    }
  });

  it(
    "a timeout at the seed's supplier never reaches Digiflazz: the order waits, and the seed's own status settles it",
    async () => {
      const { j } = shop;
      const s = shop.s!;
      const u = 65_002;
      // ends in 906: the seed forms the order and holds its answer past the shop's timeout
      const customerNo = "081234567906";
      j.user(u);
      await j.fund(u, 100_000);
      const card = await airtimeCard(j, u, customerNo);
      const price = rupiahOf(card.text, "Harga");
      j.tap(u, card, /Bayar/);
      // settled at the seed after its delay, told by its report and its status
      const done = await j.waitEdit(u, card.message_id, /✅ Berhasil/);
      const order = await lastOrder(j, u);
      expect(order).toMatchObject({ status: "success" });
      // the seed's answer came too late: the order was unknown on the way. How long it stayed so
      // depends on the machine (its report may settle it at once), so the log says it
      const unknownLines = j.app
        .logs()
        .split("\n")
        .filter((l) => l.includes("order outcome unknown") && l.includes(order.refId));
      expect(unknownLines).toHaveLength(1);
      expect(shop.sentFor(customerNo)).toEqual([]);
      expect(done.text).toContain(`SN: ${order.sn}`);
      expect(s.transactions().filter((t) => t.customerNo === customerNo)).toMatchObject([
        { refId: order.refId, status: "success" },
      ]);
      // Digiflazz never received it: one attempt, nothing sent there for that number or ref
      expect((await attemptsOf(j, order.id)).map((a) => a.supplier)).toEqual([SEED_NAME]);
      expect(shop.sentFor(customerNo)).toEqual([]);
      expect(shop.sentTo(order.refId)).toEqual([]);
      await expectMoney(j, u, 100_000 - price);
      // the seed holds its answer past the timeout, then its status schedule (5, 10, 20 s) settles
      // it: longer than a default test on a loaded machine
    },
    patient(90_000),
  );

  it("a product only Digiflazz sells is a kios product of its own: in the menu at the marked-up price, bought there in one tap", async () => {
    const { j, d } = shop;
    const s = shop.s!;
    const db = j.app.app.database.db;
    const [own] = await db.select().from(products).where(eq(products.code, "TSEL7"));
    expect(own).toMatchObject({ originSupplier: DIGIFLAZZ_NAME, name: "Telkomsel 7.000" });
    const routes = await db
      .select()
      .from(productRoutes)
      .where(eq(productRoutes.productCode, "TSEL7"));
    expect(routes.map((r) => [r.supplier, r.supplierCode, r.cost])).toEqual([
      [DIGIFLAZZ_NAME, "tsel7", 7_150],
    ]);
    // the owner's only rule is the 5 %: the price is Digiflazz's cost marked up
    expect((await listMarkupRules(db)).map((r) => [r.scope, r.tier, r.percentBp])).toEqual([
      ["all", "customer", MARKUP_BP],
    ]);
    const expected = markedUp(7_150, MARKUP_BP, 0, 100);
    expect(expected).toBeGreaterThan(7_150 + MIN_MARGIN);

    const u = 65_003;
    const customerNo = "081234567520";
    j.user(u);
    await j.fund(u, 100_000);
    const card = await airtimeCard(j, u, customerNo, /^Telkomsel 7\.000 ·/);
    const price = rupiahOf(card.text, "Harga");
    expect(price).toBe(expected);
    j.tap(u, card, /Bayar/);
    const done = await j.waitEdit(u, card.message_id, /✅ Berhasil/);
    const order = await lastOrder(j, u);
    expect(order).toMatchObject({
      status: "success",
      productCode: "TSEL7",
      supplier: DIGIFLAZZ_NAME,
    });
    expect(done.text).toContain(`SN: ${order.sn}`);
    // Digiflazz: one transaction of its own code; the seed never asked
    expect(shop.sentFor(customerNo)).toMatchObject([
      { ref_id: order.refId, buyer_sku_code: "tsel7", max_price: price - MIN_MARGIN },
    ]);
    expect([...d.state.txns.values()].filter((t) => t.customerNo === customerNo)).toMatchObject([
      { status: "Sukses", sn: order.sn },
    ]);
    expect(s.transactions().filter((t) => t.customerNo === customerNo)).toEqual([]);
    await expectMoney(j, u, 100_000 - price);
  });
});
