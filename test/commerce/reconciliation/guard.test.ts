import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { confirmQuote } from "../../../src/commerce/orders/place.ts";
import { firstSupplierName } from "../../../src/commerce/orders/routing.ts";
import {
  knownSupplierBalance,
  RESERVATION_TTL_MS,
} from "../../../src/commerce/supplier-balance/known-balance.ts";
import { walletBalance } from "../../../src/commerce/wallet/ledger.ts";
import { verifyLedger } from "../../../src/commerce/wallet/verify.ts";
import { orders, supplierReservations } from "../../../src/db/schema.ts";
import { bootCommerceThatSold, type CommerceHarness } from "../../helpers/commerce.ts";
import { testDriver } from "../../helpers/db.ts";
import { payBurst } from "../../helpers/pay-burst.ts";

// the supplier balance guard reserves: a burst of Pays sends no more than the estimate
// covers, counting orders stored but not yet sent, however the Pays interleave.

describe(`the supplier balance guard reserves (${testDriver})`, () => {
  let h: CommerceHarness;
  const cost = () => h.sandbox.catalogue().find((p) => p.code === "TSEL10")!.price;

  beforeAll(async () => {
    h = await bootCommerceThatSold();
  });
  afterAll(() => h.stop());

  // a chat card's Pay runs in a transaction; an H2H order's stores its order in one
  // statement with no transaction around it (place.ts, storeOrderAlone)
  it.each([
    ["chat cards", "quote"],
    ["H2H orders", "h2hQuote"],
  ] as const)(
    "concurrent Pays (%s) send only what the known balance covers; the rest hold nothing",
    async (_, quoteOf) => {
      await h.readingFor(2);
      const buyers = await Promise.all(Array.from({ length: 6 }, () => h.newUser(100_000)));
      const quotes = await Promise.all(buyers.map((u) => h[quoteOf](u, "081234567901")));
      const before = h.sandbox.requests().length;
      const results = await payBurst(
        h.deps.db,
        buyers.map((u, i) => () => confirmQuote(h.deps, { quoteId: quotes[i]!.id, userId: u })),
      );
      expect(results.filter((r) => r.ok)).toHaveLength(2);
      expect(results.filter((r) => !r.ok && r.reason === "supplier_unavailable")).toHaveLength(4);
      // the supplier got two orders and refused none for its balance
      const sent = h.sandbox.requests().slice(before);
      expect(sent).toHaveLength(2);
      expect(h.sandbox.account().balance).toBeGreaterThanOrEqual(0);
      for (const [i, r] of results.entries()) {
        if (!r.ok) expect(await walletBalance(h.deps.db, buyers[i]!)).toBe(100_000);
      }
      expect((await verifyLedger(h.database.handle)).ok).toBe(true);
    },
  );

  it("an order stored but not sent yet counts against the estimate", async () => {
    const reading = await h.readingFor(1);
    const user = await h.newUser(100_000);
    const q = await h.quote(user, "081234567901");
    // a Pay that stored its order and was stopped before sending it (a crash, a slow hop)
    await h.deps.db.insert(orders).values({
      refId: "K-STORED-1",
      confirmKey: q.id,
      userId: user,
      chatId: user,
      kind: "prepaid",
      productCode: "TSEL10",
      productName: "Telkomsel 10.000",
      destination: "081234567901",
      price: q.price,
      cost: cost(),
      status: "created",
      createdAt: new Date(h.clock.now()),
    });
    expect(await knownSupplierBalance(h.deps.db)).toEqual({
      supplier: "main",
      checkId: reading.id,
      known: reading.balance - cost(),
    });
    const other = await h.newUser(100_000);
    const q2 = await h.quote(other, "081234567901");
    expect(await confirmQuote(h.deps, { quoteId: q2.id, userId: other })).toEqual({
      ok: false,
      reason: "supplier_unavailable",
    });
  });

  it("a reservation left by a crash holds the balance only until it expires, then is swept", async () => {
    // two orders and a half, less the order the test before left stored: one and a half
    await h.readingFor(2);
    // a Pay that reserved and crashed before its transaction: its row, never consumed
    const [left] = await h.deps.db
      .insert(supplierReservations)
      .values({
        supplier: firstSupplierName(h.deps),
        cost: cost(),
        expiresAt: new Date(h.clock.now() + RESERVATION_TTL_MS),
      })
      .returning();
    const buyer = await h.newUser(100_000);
    const q = await h.quote(buyer, "081234567908");
    // while it is live it counts: what is left covers one order, and that one is reserved
    expect(await confirmQuote(h.deps, { quoteId: q.id, userId: buyer })).toEqual({
      ok: false,
      reason: "supplier_unavailable",
    });
    expect(await walletBalance(h.deps.db, buyer)).toBe(100_000);
    // past its expiry nothing holds the money: the next Pay goes, and a later one sweeps it
    h.clock.advance(RESERVATION_TTL_MS + 1);
    const q2 = await h.quote(buyer, "081234567908");
    const paid = await confirmQuote(h.deps, { quoteId: q2.id, userId: buyer });
    expect(paid.ok).toBe(true);
    h.clock.advance(2 * RESERVATION_TTL_MS);
    await h.readingFor(2);
    const q3 = await h.quote(buyer, "081234567909");
    expect((await confirmQuote(h.deps, { quoteId: q3.id, userId: buyer })).ok).toBe(true);
    const rows = await h.deps.db.select().from(supplierReservations);
    expect(rows.map((r) => r.id)).not.toContain(left!.id);
    // and no Pay left a reservation of its own behind
    expect(rows).toEqual([]);
    expect((await verifyLedger(h.database.handle)).ok).toBe(true);
  });
});
