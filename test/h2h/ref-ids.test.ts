import { signedBody } from "@kios/kit";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { creditWallet, walletBalance } from "../../src/commerce/wallet/ledger.ts";
import { h2hOrders, orders, transfers } from "../../src/db/schema.ts";
import { testDriver } from "../helpers/db.ts";
import { bootH2h, type H2hHarness } from "../helpers/h2h.ts";

// what a reseller's ref_id binds (issue 36 items 13 and 16): a request refused with nothing
// formed binds nothing; repeats of a bill payment's ref_id answer that payment.

const phone = (ending: string) =>
  `0812345${String(Math.floor(Math.random() * 1000)).padStart(3, "0")}${ending}`;

describe(`H2H ref_ids (${testDriver})`, () => {
  let h: H2hHarness;
  beforeAll(async () => {
    h = await bootH2h();
  });
  afterAll(() => h.stop());

  it("a ref_id refused as INSUFFICIENT_BALANCE binds nothing: after a top-up it is a new request with its own parameters", async () => {
    const key = await h.reseller(0);
    const client = h.client(key);
    const first = {
      cmd: "prepaid" as const,
      code: "TSEL10",
      customerNo: phone("901"),
      refId: "C-1",
    };
    expect(await client.order(first)).toMatchObject({
      outcome: "rejected",
      error: { code: "INSUFFICIENT_BALANCE" },
    });
    const rows = () => h.deps.db.select().from(h2hOrders).where(eq(h2hOrders.userId, key.userId));
    expect(await rows()).toHaveLength(0);
    await creditWallet(h.deps.db, { userId: key.userId, amount: 100_000, key: `c1:${key.userId}` });
    // within the first request's quote's 10 minutes: still a request of its own
    const second = { ...first, code: "TSEL25", customerNo: phone("901") };
    const placed = await client.order(second);
    expect(placed).toMatchObject({
      outcome: "accepted",
      transaction: { refId: "C-1", code: "TSEL25", customerNo: second.customerNo },
    });
    const mine = await h.deps.db.select().from(orders).where(eq(orders.userId, key.userId));
    expect(mine.map((o) => [o.productCode, o.destination])).toEqual([
      ["TSEL25", second.customerNo],
    ]);
    // and now it is bound: the first request again returns the order it made
    expect(await client.order(first)).toMatchObject({
      outcome: "unknown",
      error: { code: "REF_ID_MISMATCH" },
    });
    expect(await h.deps.db.select().from(orders).where(eq(orders.userId, key.userId))).toHaveLength(
      1,
    );
  });

  it("six concurrent repeats of one pay-pasca ref_id: one payment, one debit, and every answer is that payment", async () => {
    const key = await h.reseller(2_000_000);
    const client = h.client(key);
    const request = { code: "PLNPOST", customerNo: "530012345681", refId: "pasca-6" };
    const inquiry = await client.inquiry(request);
    const body = {
      cmd: "pay-pasca",
      code: request.code,
      customer_no: request.customerNo,
      ref_id: request.refId,
    };
    const replies = await Promise.all(
      Array.from({ length: 6 }, () =>
        fetch(`${h.baseUrl}/order`, {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify(signedBody(key, body, h.clock.now())),
        }).then((r) => r.json() as Promise<{ code: string; data: { ref_id: string } | null }>),
      ),
    );
    for (const r of replies) {
      expect(["BILL_PAYMENT_SUCCESS", "BILL_PAYMENT_PENDING"], JSON.stringify(r)).toContain(r.code);
      expect(r.data?.ref_id).toBe(request.refId);
    }
    const mine = await h.deps.db.select().from(orders).where(eq(orders.userId, key.userId));
    expect(mine).toHaveLength(1);
    const holds = await h.deps.db
      .select()
      .from(transfers)
      .where(eq(transfers.key, `order:${mine[0]!.id}:hold`));
    expect(holds).toHaveLength(1);
    expect(await walletBalance(h.deps.db, key.userId)).toBe(2_000_000 - inquiry.total);
  });
});
