import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { confirmQuote } from "../../../src/commerce/orders/place.ts";
import { createBillQuote } from "../../../src/commerce/orders/quotes.ts";
import { resolveOrder } from "../../../src/commerce/orders/resolve.ts";
import { walletBalance } from "../../../src/commerce/wallet/ledger.ts";
import { verifyLedger } from "../../../src/commerce/wallet/verify.ts";
import { orders as ordersTable } from "../../../src/db/schema.ts";
import { bootCommerce, type CommerceHarness } from "../../helpers/commerce.ts";
import { testDriver } from "../../helpers/db.ts";

// a bill from inquiry to payment, once per supplier interface: the inquiry prices it and
// opens its 5-minute window, and the payment carries the inquiry's own ref_id.

/** customer numbers with nothing due (…19), of two kinds of bill */
const NOTHING_DUE = [
  { productCode: "PLNPOST", customerNo: "530000000019" },
  { productCode: "BPJS", customerNo: "8888000000019" },
] as const;

describe.each(["signature", "key"] as const)(
  `bills over the %s interface (${testDriver})`,
  (supplierInterface) => {
    let h: CommerceHarness;
    beforeAll(async () => {
      h = await bootCommerce({ supplierInterface });
    });
    afterAll(() => h.stop());

    function inquire(user: number, customerNo: string, productCode = "PLNPOST") {
      return createBillQuote(h.deps, { userId: user, chatId: user, productCode, customerNo });
    }

    it("inquiry, quote with its window, paid inside it, then success by status", async () => {
      const user = await h.newUser(2_000_000);
      const q = await inquire(user, "530000000012");
      if (!q.ok) throw new Error(q.reason);
      expect(q.quote.bill?.customerName).toBeTruthy();
      expect(q.quote.bill?.details?.lembarTagihan).toBe(2);
      expect(q.quote.expiresAt.getTime() - h.clock.now()).toBeLessThanOrEqual(5 * 60_000);
      expect(q.quote.price).toBe(q.quote.bill!.tagihan + q.quote.bill!.admin);
      h.clock.advance(4 * 60_000);
      const result = await confirmQuote(h.deps, { quoteId: q.quote.id, userId: user });
      if (!result.ok) throw new Error(result.reason);
      // pay-pasca carries the inquiry's own ref_id
      expect(result.order.refId).toBe(q.quote.bill!.refId);
      expect(result.order.status).toBe("pending");
      await h.sandbox.settleNow();
      const final = await resolveOrder(h.deps, result.order.id);
      expect(final?.status).toBe("success");
      expect(final?.sn).toBeTruthy();
      expect(await walletBalance(h.deps.db, user)).toBe(2_000_000 - q.quote.price);
      const paid = h.sandbox.transactions().find((t) => t.refId === result.order.refId);
      expect(paid).toMatchObject({ kind: "bill", cmd: "pay-pasca", status: "success" });
    });

    it("a bill past its 5-minute window cannot be paid, and nothing is charged", async () => {
      const user = await h.newUser(2_000_000);
      const q = await inquire(user, "530000000010");
      if (!q.ok) throw new Error(q.reason);
      h.clock.advance(5 * 60_000 + 1_000);
      const result = await confirmQuote(h.deps, { quoteId: q.quote.id, userId: user });
      expect(result).toMatchObject({
        ok: false,
        reason: "quote_expired",
        kind: "bill",
        productCode: "PLNPOST",
        destination: "530000000010",
      });
      expect(await walletBalance(h.deps.db, user)).toBe(2_000_000);
    });

    it("two Pays at once on two cards of one bill: one payment, both shown it", async () => {
      const user = await h.newUser(5_000_000);
      const other = await h.newUser(5_000_000);
      const cards = await Promise.all([
        inquire(user, "530000000032"),
        inquire(user, "530000000032"),
        inquire(other, "530000000032"),
      ]);
      const [a, b, c] = cards.map((q) => {
        if (!q.ok) throw new Error(q.reason);
        return q.quote;
      });
      // both of the buyer's cards, and the first card twice more (a repeated tap)
      const results = await Promise.all(
        [a!, b!, a!, b!].map((q) => confirmQuote(h.deps, { quoteId: q.id, userId: user })),
      );
      const orders = await h.deps.db.select().from(ordersTable);
      const paid = orders.filter((o) => o.userId === user);
      expect(paid).toHaveLength(1);
      const payment = paid[0]!;
      for (const r of results) {
        // each answer is that one payment: the order itself, or the refusal naming it
        if (r.ok) expect(r.order.id).toBe(payment.id);
        else expect(r).toMatchObject({ reason: "bill_already_paid", ownOrderId: payment.id });
      }
      expect(results.filter((r) => r.ok && !r.duplicate)).toHaveLength(1);
      expect(await walletBalance(h.deps.db, user)).toBe(5_000_000 - payment.price);
      // another buyer's Pay of the same bill is refused without naming the payment
      const theirs = await confirmQuote(h.deps, { quoteId: c!.id, userId: other });
      expect(theirs).toMatchObject({ ok: false, reason: "bill_already_paid", state: "open" });
      expect(theirs).not.toHaveProperty("ownOrderId");
      expect(await walletBalance(h.deps.db, other)).toBe(5_000_000);
    });

    for (const { productCode, customerNo } of NOTHING_DUE) {
      it(`no ${productCode} bill due: the inquiry says so (no_bill)`, async () => {
        const user = await h.newUser(0);
        const q = await inquire(user, customerNo, productCode);
        expect(q).toMatchObject({ ok: false, reason: "no_bill" });
      });
    }

    it("the ledger verifies after the bills", async () => {
      expect((await verifyLedger(h.database.handle)).problems).toEqual([]);
    });
  },
);
