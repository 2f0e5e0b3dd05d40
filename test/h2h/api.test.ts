import { ManualClock, signedBody } from "@kios/kit";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { priceFor } from "../../src/commerce/catalogue/prices.ts";
import { revokeKey, rotateKey, updateKeySettings } from "../../src/commerce/h2h/keys.ts";
import { walletBalance } from "../../src/commerce/wallet/ledger.ts";
import { verifyLedger } from "../../src/commerce/wallet/verify.ts";
import { h2hKeys, h2hOrders, orders, transfers } from "../../src/db/schema.ts";
import type { SubmitOutcome, SupplierTransaction } from "../../src/supplier/types.ts";
import { SupplierError } from "../../src/supplier/types.ts";
import { testDriver } from "../helpers/db.ts";
import { bootH2h, type H2hHarness } from "../helpers/h2h.ts";

// kios's own H2H API (/h2h/v1) spoken to by kios's own signature client over real HTTP:
// orders go through the order engine at the reseller's price, ref_ids are the reseller's,
// authentication fails in the documented order.

function accepted(o: SubmitOutcome): SupplierTransaction {
  if (o.outcome !== "accepted") throw new Error(`expected accepted, got ${JSON.stringify(o)}`);
  return o.transaction;
}

async function thrown(p: Promise<unknown>): Promise<SupplierError> {
  try {
    await p;
  } catch (err) {
    expect(err).toBeInstanceOf(SupplierError);
    return err as SupplierError;
  }
  throw new Error("expected a SupplierError");
}

const phone = (ending: string) =>
  `0812345${String(Math.floor(Math.random() * 1000)).padStart(3, "0")}${ending}`;

describe(`the H2H API (${testDriver})`, () => {
  let h: H2hHarness;
  beforeAll(async () => {
    h = await bootH2h();
  });
  afterAll(() => h.stop());

  it("balance is the reseller's wallet; products carry the reseller's price", async () => {
    const key = await h.reseller(123_456);
    const client = h.client(key);
    expect(await client.balance()).toEqual({ balance: 123_456, balanceFormatted: "Rp123.456" });
    const prepaid = await client.products("prepaid");
    const tsel = prepaid.find((p) => p.code === "TSEL10");
    expect(tsel?.price).toBe(await priceFor(h.deps.db, "TSEL10", "reseller"));
    expect(prepaid.every((p) => p.type === "prepaid")).toBe(true);
    expect((await client.products("pasca")).length).toBeGreaterThan(0);
  });

  it("an order is held at the reseller's price, sent under kios's own ref_id, and a repeat returns it", async () => {
    const key = await h.reseller(100_000);
    const client = h.client(key);
    const price = (await priceFor(h.deps.db, "TSEL10", "reseller"))!;
    const refId = "shop-b/0001";
    const request = { cmd: "prepaid" as const, code: "TSEL10", customerNo: phone("901"), refId };
    const first = accepted(await client.order(request));
    expect(first).toMatchObject({ refId, status: "success", price, supplierCode: "ORDER_SUCCESS" });
    expect(first.sn).toBeTruthy();
    expect(await walletBalance(h.deps.db, key.userId)).toBe(100_000 - price);
    // the upstream never saw the reseller's ref_id
    expect(h.sandbox.transactions().some((t) => t.refId === refId)).toBe(false);
    const again = accepted(await client.order(request));
    expect(again).toEqual(first);
    expect(await walletBalance(h.deps.db, key.userId)).toBe(100_000 - price);
    const status = await client.status(refId);
    expect(status).toMatchObject({
      found: true,
      transaction: { refId, status: "success", sn: first.sn },
    });
    // another destination under the same ref_id: the stored one comes back (the client says mismatch)
    const other = await client.order({ ...request, customerNo: phone("901") });
    expect(other).toMatchObject({ outcome: "unknown", error: { code: "REF_ID_MISMATCH" } });
    expect(await walletBalance(h.deps.db, key.userId)).toBe(100_000 - price);
  });

  it("ref_ids are per reseller: the same ref_id from two resellers is two orders", async () => {
    const a = await h.reseller(50_000);
    const b = await h.reseller(50_000);
    const refId = "INV-42";
    const ta = accepted(
      await h.client(a).order({ cmd: "prepaid", code: "TSEL10", customerNo: phone("901"), refId }),
    );
    const tb = accepted(
      await h.client(b).order({ cmd: "prepaid", code: "TSEL10", customerNo: phone("901"), refId }),
    );
    expect(ta.customerNo).not.toBe(tb.customerNo);
    const rows = await h.deps.db.select().from(h2hOrders).where(eq(h2hOrders.refId, refId));
    expect(rows).toHaveLength(2);
    expect(await h.client(a).status("never-sent")).toEqual({ found: false });
  });

  it("a pending order is answered pending and its status follows the engine", async () => {
    const key = await h.reseller(50_000);
    const client = h.client(key);
    const refId = "pend-1";
    const t = accepted(
      await client.order({ cmd: "prepaid", code: "TSEL10", customerNo: phone("904"), refId }),
    );
    expect(t.status).toBe("pending");
    expect(t.sn).toBeNull();
    expect(await client.status(refId)).toMatchObject({
      found: true,
      transaction: { status: "pending" },
    });
  });

  it("refusals: PRODUCT_NOT_FOUND, INVALID_CUSTOMER_NO, INSUFFICIENT_BALANCE (nothing held), testing refused", async () => {
    const key = await h.reseller(1_000);
    const client = h.client(key);
    const order = (
      over: Partial<{ code: string; customerNo: string; refId: string; testing: boolean }>,
    ) =>
      client.order({
        cmd: "prepaid",
        code: "TSEL10",
        customerNo: phone("901"),
        refId: `r-${Math.random()}`.slice(0, 20),
        ...over,
      });
    const rejected = async (o: Promise<SubmitOutcome>, code: string) => {
      const outcome = await o;
      expect(outcome.outcome, JSON.stringify(outcome)).toBe("rejected");
      if (outcome.outcome === "rejected") expect(outcome.error.code).toBe(code);
    };
    await rejected(order({ code: "NO-SUCH" }), "PRODUCT_NOT_FOUND");
    await rejected(order({ code: "PLNPOST" }), "PRODUCT_NOT_FOUND");
    await rejected(order({ customerNo: "12" }), "INVALID_CUSTOMER_NO");
    await rejected(order({}), "INSUFFICIENT_BALANCE");
    await rejected(order({ testing: true }), "VALIDATION_ERROR");
    expect(await walletBalance(h.deps.db, key.userId)).toBe(1_000);
    const [row] = await h.deps.db.select().from(orders).where(eq(orders.userId, key.userId));
    expect(row).toBeUndefined();
  });

  it("a refused ref_id may be sent again once the wallet is topped up: one order", async () => {
    const key = await h.reseller(1_000);
    const client = h.client(key);
    const request = {
      cmd: "prepaid" as const,
      code: "TSEL10",
      customerNo: phone("901"),
      refId: "retry-1",
    };
    expect((await client.order(request)).outcome).toBe("rejected");
    const { creditWallet } = await import("../../src/commerce/wallet/ledger.ts");
    await creditWallet(h.deps.db, {
      userId: key.userId,
      amount: 50_000,
      key: `topup:${key.userId}`,
    });
    const t = accepted(await client.order(request));
    expect(t.status).toBe("success");
    expect(accepted(await client.order(request))).toEqual(t);
    const mine = await h.deps.db.select().from(orders).where(eq(orders.userId, key.userId));
    expect(mine).toHaveLength(1);
  });

  it("a bill: inquiry at the reseller's price, pay-pasca under the same ref_id, a repeat pays nothing more", async () => {
    const key = await h.reseller(2_000_000);
    const client = h.client(key);
    const request = { code: "PLNPOST", customerNo: "530012345671", refId: "bill-1" };
    const inquiry = await client.inquiry(request);
    expect(inquiry).toMatchObject({ refId: "bill-1", code: "PLNPOST" });
    expect(inquiry.total).toBe(inquiry.tagihan + inquiry.admin);
    const paid = accepted(await client.payBill(request));
    expect(paid).toMatchObject({ kind: "bill", refId: "bill-1", price: inquiry.total });
    expect(await walletBalance(h.deps.db, key.userId)).toBe(2_000_000 - inquiry.total);
    const again = accepted(await client.payBill(request));
    expect(again.refId).toBe("bill-1");
    expect(await walletBalance(h.deps.db, key.userId)).toBe(2_000_000 - inquiry.total);
    expect(await client.status("bill-1")).toMatchObject({
      found: true,
      transaction: { kind: "bill" },
    });
    // a payment without an inquiry, or for another customer
    const noInquiry = await client.payBill({ ...request, refId: "bill-none" });
    expect(noInquiry).toMatchObject({ outcome: "rejected", error: { code: "INQUIRY_NOT_FOUND" } });
    await client.inquiry({ ...request, refId: "bill-2", customerNo: "530012345672" });
    const mismatch = await client.payBill({ ...request, refId: "bill-2" });
    expect(mismatch).toMatchObject({ outcome: "rejected", error: { code: "INQUIRY_MISMATCH" } });
    // an order's ref_id can't be inquired with
    await client.order({
      cmd: "prepaid",
      code: "TSEL10",
      customerNo: phone("901"),
      refId: "taken",
    });
    const taken = await thrown(client.inquiry({ ...request, refId: "taken" }));
    expect(taken.code).toBe("VALIDATION_ERROR");
  });

  it("authentication fails in the documented order: api_id, timestamp, revoked, signature", async () => {
    const key = await h.reseller(10_000);
    const stale = new ManualClock({ start: h.clock.now() - 6 * 60_000 });
    expect((await thrown(h.client({ ...key, apiId: "NOBODY" }).balance())).code).toBe(
      "UNAUTHORIZED",
    );
    expect((await thrown(h.client(key, { clock: stale }).balance())).code).toBe(
      "TIMESTAMP_EXPIRED",
    );
    expect((await thrown(h.client({ ...key, secretKey: "wrong" }).balance())).code).toBe(
      "INVALID_SIGNATURE",
    );
    expect((await thrown(h.client({ ...key, apiKey: "wrong" }).balance())).code).toBe(
      "INVALID_SIGNATURE",
    );
    await revokeKey(h.deps.db, key.userId, new Date(h.clock.now()));
    // a stale request of a revoked key is still told about its clock first
    expect((await thrown(h.client(key, { clock: stale }).balance())).code).toBe(
      "TIMESTAMP_EXPIRED",
    );
    expect((await thrown(h.client(key).balance())).code).toBe("INVALID_API_KEY");
    const refused = await h
      .client(key)
      .order({ cmd: "prepaid", code: "TSEL10", customerNo: phone("901"), refId: "rev-1" });
    expect(refused).toMatchObject({ outcome: "rejected", error: { code: "INVALID_API_KEY" } });
    // rotate brings it back with new secrets; the old ones stop
    const rotated = await rotateKey(h.deps.db, h.box, key.userId, new Date(h.clock.now()));
    if (!rotated.ok) throw new Error(rotated.reason);
    expect(rotated.key.apiId).toBe(key.apiId);
    expect((await h.client(rotated.key).balance()).balance).toBe(10_000);
    expect((await thrown(h.client(key).balance())).code).toBe("INVALID_SIGNATURE");
    // switched off by the owner
    await updateKeySettings(h.deps.db, key.userId, { enabled: false });
    expect((await thrown(h.client(rotated.key).balance())).code).toBe("INVALID_API_KEY");
  });

  it("a key's rate limit answers RATE_LIMITED with HTTP 429 and Retry-After", async () => {
    const key = await h.reseller(10_000);
    await updateKeySettings(h.deps.db, key.userId, { ratePerMinute: 2 });
    const post = () =>
      fetch(`${h.baseUrl}/balance`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify(signedBody(key, {}, h.clock.now())),
      });
    expect((await post()).status).toBe(200);
    expect((await post()).status).toBe(200);
    const limited = await post();
    expect(limited.status).toBe(429);
    expect(limited.headers.get("retry-after")).toMatch(/^\d+$/);
    expect(await limited.json()).toMatchObject({ success: false, code: "RATE_LIMITED" });
    h.clock.advance(60_000);
    expect((await post()).status).toBe(200);
  });

  it("requests with a bad signature never spend the key's rate limit", async () => {
    const key = await h.reseller(10_000);
    await updateKeySettings(h.deps.db, key.userId, { ratePerMinute: 2 });
    const post = (signer: typeof key) =>
      fetch(`${h.baseUrl}/balance`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify(signedBody(signer, {}, h.clock.now())),
      });
    // someone who knows only the api_id, ten times
    const forged = { ...key, apiKey: "guessed", secretKey: "guessed" };
    for (let i = 0; i < 10; i++) {
      const res = await post(forged);
      expect(res.status).toBe(401);
      expect(await res.json()).toMatchObject({ code: "INVALID_SIGNATURE" });
    }
    expect((await post(key)).status).toBe(200);
    expect((await post(key)).status).toBe(200);
    expect((await post(key)).status).toBe(429);
  });

  it("an IP allowlist refuses other addresses", async () => {
    const key = await h.reseller(10_000);
    await updateKeySettings(h.deps.db, key.userId, { ipAllowlist: ["10.9.8.7"] });
    expect((await thrown(h.client(key).balance())).code).toBe("UNAUTHORIZED");
    // without TRUST_PROXY a forwarding header is anyone's say, and ignored
    const forwarded = await fetch(`${h.baseUrl}/balance`, {
      method: "POST",
      headers: { "content-type": "application/json", "x-forwarded-for": "10.9.8.7" },
      body: JSON.stringify(signedBody(key, {}, h.clock.now())),
    });
    expect(forwarded.status).toBe(403);
    await updateKeySettings(h.deps.db, key.userId, { ipAllowlist: ["127.0.0.1"] });
    expect((await h.client(key).balance()).balance).toBe(10_000);
  });

  it("bad input is a VALIDATION_ERROR with the field named", async () => {
    const key = await h.reseller(10_000);
    const res = await fetch(`${h.baseUrl}/order`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(
        signedBody(key, { cmd: "prepaid", code: "TSEL10", customer_no: "0812" }, h.clock.now()),
      ),
    });
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({
      code: "VALIDATION_ERROR",
      errors: { ref_id: ["is required"] },
    });
    const garbage = await fetch(`${h.baseUrl}/order`, { method: "POST", body: "not json" });
    expect(garbage.status).toBe(400);
  });

  it("the same ref_id sent many times at once makes one order and one hold", async () => {
    const key = await h.reseller(100_000);
    const price = (await priceFor(h.deps.db, "TSEL10", "reseller"))!;
    const body = { cmd: "prepaid", code: "TSEL10", customer_no: phone("901"), ref_id: "race-1" };
    const replies = await Promise.all(
      Array.from({ length: 8 }, () =>
        fetch(`${h.baseUrl}/order`, {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify(signedBody(key, body, h.clock.now())),
        }).then((r) => r.json() as Promise<{ code: string; data: { ref_id: string } }>),
      ),
    );
    // the one that sent it sees the supplier's answer; a repeat while it was in flight sees it pending
    for (const r of replies) {
      expect(["ORDER_SUCCESS", "ORDER_PENDING"]).toContain(r.code);
      expect(r.data.ref_id).toBe("race-1");
    }
    expect(replies.filter((r) => r.code === "ORDER_SUCCESS").length).toBeGreaterThanOrEqual(1);
    const mine = await h.deps.db.select().from(orders).where(eq(orders.userId, key.userId));
    expect(mine).toHaveLength(1);
    const holds = await h.deps.db
      .select()
      .from(transfers)
      .where(eq(transfers.key, `order:${mine[0]!.id}:hold`));
    expect(holds).toHaveLength(1);
    expect(await walletBalance(h.deps.db, key.userId)).toBe(100_000 - price);
    expect(h.sandbox.transactions().filter((t) => t.refId === mine[0]!.refId)).toHaveLength(1);
    const report = await verifyLedger(h.database.handle);
    expect(report.ok, JSON.stringify(report)).toBe(true);
  });

  it("a key sealed under another H2H_ENCRYPTION_KEY is a SERVER_ERROR in the envelope, never a secret", async () => {
    const key = await h.reseller(10_000);
    const { createSecretBox } = await import("../../src/commerce/h2h/cipher.ts");
    const other = createSecretBox("another-h2h-encryption-key-0123456789abcdef");
    await h.deps.db
      .update(h2hKeys)
      .set({ apiKeyEnc: other.seal(key.apiKey), secretKeyEnc: other.seal(key.secretKey) })
      .where(eq(h2hKeys.userId, key.userId));
    const res = await fetch(`${h.baseUrl}/balance`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(signedBody(key, {}, h.clock.now())),
    });
    expect(res.status).toBe(500);
    const text = await res.text();
    expect(JSON.parse(text)).toMatchObject({ success: false, code: "SERVER_ERROR" });
    expect(text).not.toContain(key.secretKey);
  });
});
