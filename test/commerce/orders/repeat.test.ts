import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { confirmQuote } from "../../../src/commerce/orders/place.ts";
import { createQuote, loadQuote } from "../../../src/commerce/orders/quotes.ts";
import type { ConfirmResult } from "../../../src/commerce/orders/types.ts";
import { walletBalance } from "../../../src/commerce/wallet/ledger.ts";
import { verifyLedger } from "../../../src/commerce/wallet/verify.ts";
import { orders } from "../../../src/db/schema.ts";
import { bootCommerce, type CommerceHarness } from "../../helpers/commerce.ts";
import { testDriver } from "../../helpers/db.ts";

// the same-day repeat rule where the order is stored: a card made before another card of the
// same product and destination was paid did not ask about that purchase, so its Pay buys
// nothing; one that asked (made after it, or CODE.n.DEST) buys. On PostgreSQL two such cards
// paid at once make one order.

describe(`the same-day repeat rule at Pay (${testDriver})`, () => {
  let h: CommerceHarness;
  beforeAll(async () => {
    h = await bootCommerce();
  });
  afterAll(() => h.stop());

  const TSEL10 = "TSEL10";

  async function ordersOf(user: number, destination: string) {
    return h.deps.db
      .select()
      .from(orders)
      .where(and(eq(orders.userId, user), eq(orders.destination, destination)));
  }

  const pay = (user: number, quoteId: string): Promise<ConfirmResult> =>
    confirmQuote(h.deps, { quoteId, userId: user });

  it("refuses the second of two cards made before either was paid, holding nothing", async () => {
    const user = await h.newUser(100_000);
    const destination = "081234567901";
    const first = await h.quote(user, destination);
    const second = await h.quote(user, destination);
    expect(first.sameDay).toBeUndefined();
    expect(second.sameDay).toBeUndefined();
    const paid = await pay(user, first.id);
    expect(paid.ok).toBe(true);
    const balance = await walletBalance(h.deps.db, user);

    const refused = await pay(user, second.id);
    expect(refused).toMatchObject({ ok: false, reason: "bought_today", count: 1 });
    if (refused.ok || refused.reason !== "bought_today") throw new Error("not refused");
    expect(refused.at).toBeInstanceOf(Date);
    expect(await ordersOf(user, destination)).toHaveLength(1);
    expect(await walletBalance(h.deps.db, user)).toBe(balance);

    // a card made now asks (it shows the purchase): its Pay is the yes
    const third = await h.quote(user, destination);
    expect(third.sameDay?.count).toBe(1);
    // and asks wherever it is drawn again (a paid "deposit and buy"'s fresh card)
    expect((await loadQuote(h.deps.db, third.id))?.sameDay?.count).toBe(1);
    expect((await loadQuote(h.deps.db, second.id))?.sameDay).toBeUndefined();
    expect((await pay(user, third.id)).ok).toBe(true);
    expect(await ordersOf(user, destination)).toHaveLength(2);
    // the second card still can't buy: it asked about none of the two
    expect(await pay(user, second.id)).toMatchObject({ reason: "bought_today", count: 2 });
    expect((await verifyLedger(h.database.handle)).ok).toBe(true);
  });

  it("lets the buyer say which of the day it is (CODE.n.DEST), and counts no failed order", async () => {
    const user = await h.newUser(100_000, "reseller");
    const destination = "081234560901";
    const quote = (nth?: number) =>
      createQuote(h.deps, {
        userId: user,
        chatId: user,
        productCode: TSEL10,
        destination,
        repeat: { nth },
      });
    const plain = await quote();
    const second = await quote(2);
    if (!plain.ok || !second.ok) throw new Error("no quote");
    // the plain one (the first of the day), then the one typed as the second: both chosen
    expect((await pay(user, plain.quote.id)).ok).toBe(true);
    expect((await pay(user, second.quote.id)).ok).toBe(true);
    const again = await quote(2);
    if (!again.ok) throw new Error("no quote");
    expect(await pay(user, again.quote.id)).toMatchObject({ reason: "bought_today", count: 2 });

    // a failed order bought nothing: it does not count
    const failing = "081234560902";
    const a = await h.quote(user, failing);
    const b = await h.quote(user, failing);
    const failed = await pay(user, a.id);
    expect(failed.ok && failed.order.status).toBe("failed");
    expect((await pay(user, b.id)).ok).toBe(true);
  });

  it("leaves H2H's quotes to its ref_id rule", async () => {
    const user = await h.newUser(100_000, "reseller");
    const destination = "081234561901";
    const quote = () =>
      createQuote(h.deps, {
        userId: user,
        chatId: user,
        productCode: TSEL10,
        destination,
        repeat: false,
      });
    const a = await quote();
    const b = await quote();
    if (!a.ok || !b.ok) throw new Error("no quote");
    expect(b.quote.sameDay).toBeUndefined();
    expect((await pay(user, a.quote.id)).ok).toBe(true);
    expect((await pay(user, b.quote.id)).ok).toBe(true);
    expect(await ordersOf(user, destination)).toHaveLength(2);
  });

  it("makes one order of two cards paid at once", async () => {
    for (let round = 0; round < 5; round++) {
      const user = await h.newUser(100_000);
      const destination = `08123457${round}901`;
      const cards = await Promise.all([h.quote(user, destination), h.quote(user, destination)]);
      const results = await Promise.all(cards.map((c) => pay(user, c.id)));
      expect(results.filter((r) => r.ok)).toHaveLength(1);
      expect(results.filter((r) => !r.ok && r.reason === "bought_today")).toHaveLength(1);
      const stored = await ordersOf(user, destination);
      expect(stored).toHaveLength(1);
      expect(await walletBalance(h.deps.db, user)).toBe(100_000 - stored[0]!.price);
    }
    expect((await verifyLedger(h.database.handle)).ok).toBe(true);
  });
});
