import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { DEFAULT_SANDBOX_BALANCE, SANDBOX_PRODUCT_CODES, trxIdFor } from "../index.ts";
import { CREDS, type Harness, harness, phone } from "./helpers.ts";

// the key-based interface of the sandbox: Bearer auth, the alternate paths (docs/supplier.md#requests-1) and
// record, kios's rc table, and the same accounts, catalogue, outcomes and idempotency as
// the signature interface.

type KeyRecord = {
  trx_id: string;
  ref_id: string;
  product_code: string;
  product_name: string;
  customer_id: string;
  type: string;
  price: number;
  status: string;
  sn: string;
  created_at: string;
  tagihan?: number;
  admin?: number;
  total?: number;
  customer_name?: string;
  desc?: { lembar_tagihan: number };
};

const ISO_WIB = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\+07:00$/;

describe("the sandbox's key interface", () => {
  let h: Harness;
  beforeEach(async () => {
    h = await harness();
  });
  afterEach(() => h.close());

  const transaction = (body: Record<string, unknown>) =>
    h.key("POST", "/transaction", {
      body: { product_code: "TSEL10", customer_id: phone("901"), ...body },
    });
  const lookup = (refId: string) => h.key("GET", "/transaction", { query: { ref_id: refId } });
  const price = (code: string) => h.sandbox.catalogue().find((p) => p.code === code)!.price;
  const balance = () => h.sandbox.account().balance;

  describe("authentication", () => {
    it("no or a malformed Authorization header → 401 rc 20", async () => {
      for (const opts of [{ apiKey: null }, { authorization: `Basic ${CREDS.apiKey}` }]) {
        const answer = await h.key("GET", "/balance", opts);
        expect(answer.status).toBe(401);
        expect(answer.body).toEqual({
          status: "failed",
          rc: "20",
          message: "missing header Authorization: Bearer <api_key>",
          data: null,
        });
      }
      // a signed body is no credential here
      const signed = await h.call("/transaction", { product_code: "TSEL10" });
      expect(signed.status).toBe(401);
    });

    it("an unknown or a revoked key → 401 rc 21, told apart by the message", async () => {
      const unknown = await h.key("GET", "/balance", { apiKey: "nobody" });
      expect(unknown.status).toBe(401);
      expect(unknown.body).toMatchObject({ rc: "21", message: "api key not recognised" });
      h.sandbox.account().addKey({ apiKey: "ak-old", secretKey: "sk-old" });
      h.sandbox.account().revokeKey("ak-old");
      // the account's own key still works
      expect((await transaction({ ref_id: "R-1" })).status).toBe(200);
      const denied = await h.key("POST", "/transaction", {
        apiKey: "ak-old",
        body: { product_code: "TSEL10", customer_id: phone("901"), ref_id: "R-2" },
      });
      expect(denied.status).toBe(401);
      expect(denied.body).toMatchObject({ rc: "21", message: "api key is revoked or disabled" });
      expect(h.sandbox.transactions().map((t) => t.refId)).toEqual(["R-1"]);
    });

    it("a second key of an account acts for that account", async () => {
      h.sandbox.account().addKey({ apiKey: "ak-2", secretKey: "sk-2" });
      const answer = await h.key("GET", "/balance", { apiKey: "ak-2" });
      expect(answer.body.data).toEqual({
        balance: DEFAULT_SANDBOX_BALANCE,
        balance_formatted: "Rp5.000.000",
      });
    });

    it("limits requests per account with 429 rc 70 and Retry-After", async () => {
      await h.close();
      h = await harness({ rateLimitPerSecond: 3 });
      const answers = await Promise.all(Array.from({ length: 12 }, () => h.key("GET", "/balance")));
      const limited = answers.filter((a) => a.status === 429);
      expect(limited.length).toBeGreaterThan(0);
      expect(limited[0]!.body).toMatchObject({ status: "failed", rc: "70" });
      expect(limited[0]!.headers.get("retry-after")).toBe("1");
    });
  });

  describe("the old release's forms → 410 rc 60", () => {
    it("a phone field, even before authentication", async () => {
      const answer = await h.key("POST", "/transaction", {
        apiKey: null,
        body: { product_code: "TSEL10", phone: phone("901"), ref_id: "OLD-1" },
      });
      expect(answer.status).toBe(410);
      expect(answer.body).toMatchObject({ status: "failed", rc: "60", data: null });
      expect(answer.body.message).toContain("customer_id instead of phone");
      expect(h.sandbox.transactions()).toHaveLength(0);
    });

    it("a phone query parameter", async () => {
      const answer = await h.key("GET", "/transaction", { query: { phone: "0812" } });
      expect(answer.status).toBe(410);
      expect(answer.body.rc).toBe("60");
    });

    it("POST /v1/check: the key envelope with Bearer, the signature envelope without", async () => {
      const key = await h.key("POST", "/check", {
        body: { product_code: "PLNPOST", customer_id: "530012345670" },
      });
      expect(key.status).toBe(410);
      expect(key.body).toMatchObject({ rc: "60", message: expect.stringContaining("/v1/inquiry") });
      const signature = await h.raw("/check", "{}");
      expect(signature.status).toBe(410);
      expect(signature.body.code).toBe("GONE");
    });
  });

  describe("GET /v1/balance and GET /v1/products", () => {
    it("balance: status, rc, message, data { balance, balance_formatted }", async () => {
      const answer = await h.key("GET", "/balance");
      expect(answer.status).toBe(200);
      expect(answer.body).toEqual({
        status: "success",
        rc: "00",
        message: "balance",
        data: { balance: DEFAULT_SANDBOX_BALANCE, balance_formatted: "Rp5.000.000" },
      });
    });

    it("type takes a kind or a category; operator filters by brand; records carry the extras", async () => {
      const all = h.sandbox.catalogue();
      const prepaid = await h.key("GET", "/products", { query: { type: "prepaid" } });
      expect(prepaid.body.rc).toBe("00");
      const list = prepaid.body.data as Record<string, unknown>[];
      expect(list).toEqual(all.filter((p) => p.type === "prepaid"));
      expect(prepaid.body.meta).toEqual({ total: list.length });
      expect(Object.keys(list[0]!)).toEqual(
        expect.arrayContaining([
          "code",
          "name",
          "price",
          "type",
          "status",
          "category",
          "brand",
          "desc",
        ]),
      );

      const pulsa = await h.key("GET", "/products", {
        query: { type: "PULSA", operator: "Telkomsel" },
      });
      const codes = (pulsa.body.data as { code: string; category: string; brand: string }[]).map(
        (p) => [p.category, p.brand],
      );
      expect(codes.length).toBeGreaterThan(5);
      expect(new Set(codes.map((c) => c.join("|")))).toEqual(new Set(["Pulsa|TELKOMSEL"]));
      const byu = await h.key("GET", "/products", { query: { type: "prepaid", operator: "byu" } });
      expect((byu.body.data as { brand: string }[]).every((p) => p.brand === "BY.U")).toBe(true);
      expect((byu.body.data as unknown[]).length).toBeGreaterThan(0);

      const everything = await h.key("GET", "/products");
      expect((everything.body.data as unknown[]).length).toBe(all.length);
    });

    it("an unknown type → 400 rc 10 with the field named", async () => {
      const answer = await h.key("GET", "/products", { query: { type: "furniture" } });
      expect(answer.status).toBe(400);
      expect(answer.body).toMatchObject({ status: "failed", rc: "10", data: null });
      expect(answer.body.errors).toHaveProperty("type");
    });
  });

  describe("POST /v1/transaction (orders)", () => {
    it("901: rc 00 with the transaction record plus type; charged once; a repeat returns it", async () => {
      const answer = await transaction({ ref_id: "K-901" });
      expect(answer.status).toBe(200);
      expect(answer.body).toMatchObject({ status: "success", rc: "00" });
      const record = answer.body.data as KeyRecord;
      expect(record).toEqual({
        trx_id: trxIdFor(CREDS.apiId, "K-901"),
        ref_id: "K-901",
        product_code: "TSEL10",
        product_name: "Telkomsel 10.000",
        customer_id: phone("901"),
        type: "prepaid",
        price: price("TSEL10"),
        status: "success",
        sn: expect.stringMatching(/^\d{20}$/),
        created_at: expect.stringMatching(ISO_WIB),
      });
      expect(balance()).toBe(DEFAULT_SANDBOX_BALANCE - price("TSEL10"));
      const again = await transaction({ ref_id: "K-901", customer_id: phone("902") });
      expect(again.body.data).toEqual(record);
      expect(balance()).toBe(DEFAULT_SANDBOX_BALANCE - price("TSEL10"));
    });

    it("902: rc 02 with the failed record, refunded", async () => {
      const answer = await transaction({ ref_id: "K-902", customer_id: phone("902") });
      expect(answer.status).toBe(200);
      expect(answer.body).toMatchObject({ status: "failed", rc: "02" });
      expect(answer.body.data).toMatchObject({ status: "failed", sn: "" });
      expect(balance()).toBe(DEFAULT_SANDBOX_BALANCE);
    });

    it("903: pending when created, processing afterwards, then success (pending → processing → success)", async () => {
      const created = await transaction({ ref_id: "K-903", customer_id: phone("903") });
      expect(created.body).toMatchObject({
        status: "pending",
        rc: "03",
        data: { status: "pending", sn: "" },
      });
      const later = await lookup("K-903");
      expect(later.body).toMatchObject({ rc: "03", data: { status: "processing" } });
      await h.sandbox.settleNow();
      const final = await lookup("K-903");
      expect(final.body).toMatchObject({
        status: "success",
        rc: "00",
        data: { status: "success" },
      });
      expect((final.body.data as KeyRecord).sn).toMatch(/^\d{20}$/);
    });

    it("904: pending, then failed and refunded", async () => {
      await transaction({ ref_id: "K-904", customer_id: phone("904") });
      expect(balance()).toBe(DEFAULT_SANDBOX_BALANCE - price("TSEL10"));
      await h.sandbox.settleNow();
      expect((await lookup("K-904")).body).toMatchObject({ rc: "02", data: { status: "failed" } });
      expect(balance()).toBe(DEFAULT_SANDBOX_BALANCE);
    });

    it("941 and 944: the failed record carries its reason, at once and after processing", async () => {
      const answer = await transaction({ ref_id: "K-941", customer_id: phone("941") });
      expect(answer.body).toMatchObject({
        rc: "02",
        data: { status: "failed", reason: "OUT_OF_STOCK" },
      });
      const created = await transaction({ ref_id: "K-944", customer_id: phone("944") });
      expect(created.body.data).not.toHaveProperty("reason");
      await h.sandbox.settleNow();
      expect((await lookup("K-944")).body).toMatchObject({
        rc: "02",
        data: { status: "failed", reason: "PRODUCT_DISRUPTED" },
      });
    });

    it("907: the transaction is made, the reply is 500 rc 99 in the key envelope", async () => {
      const answer = await transaction({ ref_id: "K-907", customer_id: phone("907") });
      expect(answer.status).toBe(500);
      expect(answer.body).toEqual({
        status: "failed",
        rc: "99",
        message: "internal server error",
        data: null,
      });
      expect((await lookup("K-907")).body.data).toMatchObject({ ref_id: "K-907" });
    });

    it("games go through the same endpoint; testing charges nothing", async () => {
      const answer = await transaction({
        product_code: "ML86",
        customer_id: "123456789(2901)",
        ref_id: "K-GAME",
        testing: true,
      });
      expect(answer.body).toMatchObject({ rc: "00", data: { type: "game", status: "success" } });
      expect(balance()).toBe(DEFAULT_SANDBOX_BALANCE);
      expect(h.sandbox.transactions()[0]).toMatchObject({ testing: true, charged: 0 });
    });

    it("validation: 400 rc 10 with the key interface's field names", async () => {
      const missing = await h.key("POST", "/transaction", { body: {} });
      expect(missing.status).toBe(400);
      expect(missing.body).toMatchObject({ status: "failed", rc: "10", data: null });
      expect(Object.keys(missing.body.errors ?? {}).sort()).toEqual([
        "customer_id",
        "product_code",
        "ref_id",
      ]);
      const long = await transaction({ ref_id: "x".repeat(65), testing: "yes" });
      expect(Object.keys(long.body.errors ?? {}).sort()).toEqual(["ref_id", "testing"]);
      const notJson = await h.key("POST", "/transaction", { body: "{" });
      expect(notJson.body).toMatchObject({ rc: "10", errors: { body: ["is not valid JSON"] } });
      const big = await h.key("POST", "/transaction", { body: { pad: "x".repeat(70 * 1024) } });
      expect(big.status).toBe(400);
      expect(big.body.rc).toBe("10");
    });

    it("refusals: rc 31 unknown product (404), 32 inactive, 33 destination, 30 balance", async () => {
      const unknown = await transaction({ product_code: "NOPE", ref_id: "F-1" });
      expect([unknown.status, unknown.body.rc]).toEqual([404, "31"]);
      const inactive = await transaction({
        product_code: SANDBOX_PRODUCT_CODES.inactive[0],
        ref_id: "F-2",
      });
      expect([inactive.status, inactive.body.rc]).toEqual([200, "32"]);
      const destination = await transaction({ customer_id: "12", ref_id: "F-3" });
      expect([destination.status, destination.body.rc]).toEqual([200, "33"]);
      expect(destination.body.message).toBe("customer_id is not valid for TSEL10");
      h.sandbox.account().setBalance(100);
      const poor = await transaction({ ref_id: "F-4" });
      expect([poor.status, poor.body.rc, poor.body.status]).toEqual([200, "30", "failed"]);
      expect(h.sandbox.transactions()).toHaveLength(0);
    });
  });

  describe("GET /v1/transaction", () => {
    it("by ref_id: 404 rc 50 when unknown, 400 rc 10 without ref_id", async () => {
      const unknown = await lookup("NOPE");
      expect(unknown.status).toBe(404);
      expect(unknown.body).toMatchObject({ status: "failed", rc: "50", data: null });
      const missing = await h.key("GET", "/transaction");
      expect([missing.status, missing.body.rc]).toEqual([400, "10"]);
    });

    it("by trx_id: the same record; another account's transactions stay hidden", async () => {
      await h.close();
      h = await harness({
        accounts: [
          { apiId: "A", keys: [{ apiKey: "ak-a", secretKey: "sk-a" }], balance: 1_000_000 },
          { apiId: "B", keys: [{ apiKey: "ak-b", secretKey: "sk-b" }], balance: 1_000_000 },
        ],
      });
      const made = await h.key("POST", "/transaction", {
        apiKey: "ak-a",
        body: { product_code: "TSEL10", customer_id: phone("903"), ref_id: "SHARED" },
      });
      const trxId = (made.body.data as KeyRecord).trx_id;
      const mine = await h.key("GET", `/transaction/${trxId}`, { apiKey: "ak-a" });
      expect(mine.body).toMatchObject({ rc: "03", data: { trx_id: trxId, status: "processing" } });
      const theirs = await h.key("GET", `/transaction/${trxId}`, { apiKey: "ak-b" });
      expect([theirs.status, theirs.body.rc]).toEqual([404, "50"]);
      const theirLookup = await h.key("GET", "/transaction", {
        apiKey: "ak-b",
        query: { ref_id: "SHARED" },
      });
      expect(theirLookup.body.rc).toBe("50");
    });
  });

  describe("POST /v1/inquiry and bill payments", () => {
    const inquiry = (body: Record<string, unknown>) =>
      h.key("POST", "/inquiry", {
        body: { product_code: "PLNPOST", customer_id: "530012345672", ...body },
      });

    it("inquiry → pay with the same ref_id: the bill on both, charged the total once", async () => {
      const asked = await inquiry({ ref_id: "B-1" });
      expect(asked.status).toBe(200);
      expect(asked.body).toMatchObject({ status: "success", rc: "00" });
      const bill = asked.body.data as Record<string, unknown> & { total: number };
      expect(bill).toMatchObject({
        ref_id: "B-1",
        product_code: "PLNPOST",
        customer_id: "530012345672",
        customer_name: expect.any(String),
        tagihan: expect.any(Number),
        admin: expect.any(Number),
        desc: { lembar_tagihan: 2 },
        expires_at: expect.stringMatching(ISO_WIB),
      });
      expect(bill).not.toHaveProperty("customer_no");
      const paid = await h.key("POST", "/transaction", {
        body: { product_code: "PLNPOST", customer_id: "530012345672", ref_id: "B-1" },
      });
      expect(paid.body).toMatchObject({
        rc: "03",
        data: {
          type: "pasca",
          status: "pending",
          price: bill.total,
          total: bill.total,
          tagihan: bill.tagihan,
        },
      });
      expect(balance()).toBe(DEFAULT_SANDBOX_BALANCE - bill.total);
      await h.sandbox.settleNow();
      expect((await lookup("B-1")).body).toMatchObject({ rc: "00", data: { status: "success" } });
    });

    it("a failed bill payment (902) answers rc 02 with its record, refunded", async () => {
      await inquiry({ customer_id: "5300123902", ref_id: "B-902" });
      const paid = await h.key("POST", "/transaction", {
        body: { product_code: "PLNPOST", customer_id: "5300123902", ref_id: "B-902" },
      });
      expect(paid.body).toMatchObject({ rc: "02", data: { status: "failed", type: "pasca" } });
      expect(balance()).toBe(DEFAULT_SANDBOX_BALANCE);
    });

    it("rc 41 without an inquiry, 43 for another customer, 42 after five minutes, 40 with no bill", async () => {
      const pay = (customerId: string, refId: string) =>
        h.key("POST", "/transaction", {
          body: { product_code: "PLNPOST", customer_id: customerId, ref_id: refId },
        });
      const none = await pay("530012345672", "B-NONE");
      expect([none.status, none.body.rc]).toEqual([404, "41"]);
      await inquiry({ ref_id: "B-2" });
      const other = await pay("530012345680", "B-2");
      expect([other.status, other.body.rc]).toEqual([200, "43"]);
      h.clock.advance(5 * 60 * 1000 + 1000);
      const late = await pay("530012345672", "B-2");
      expect([late.status, late.body.rc]).toEqual([200, "42"]);
      const noBill = await inquiry({ customer_id: "530012345679", ref_id: "B-3" });
      expect([noBill.status, noBill.body.rc]).toEqual([200, "40"]);
    });

    it("an inquiry's ref_id taken by an order → 400 rc 10 naming ref_id", async () => {
      await transaction({ ref_id: "TAKEN" });
      const answer = await inquiry({ ref_id: "TAKEN" });
      expect(answer.status).toBe(400);
      expect(answer.body).toMatchObject({ rc: "10", errors: { ref_id: expect.any(Array) } });
    });
  });

  describe("deprecation warnings and faults", () => {
    it("a set warning rides on every key reply as headers and a field, and on signature replies as headers", async () => {
      const quiet = await h.key("GET", "/balance");
      expect(quiet.headers.get("deprecation")).toBeNull();
      expect(quiet.body).not.toHaveProperty("warning");
      h.sandbox.deprecationWarning = 'the key interface ends on 1 July 2027 — use "v2"';
      const loud = await h.key("GET", "/balance", { apiKey: "nobody" });
      expect(loud.status).toBe(401);
      expect(loud.headers.get("deprecation")).toBe("true");
      expect(loud.headers.get("warning")).toBe(
        '299 - "the key interface ends on 1 July 2027 ? use \\"v2\\""',
      );
      expect(loud.body.warning).toBe('the key interface ends on 1 July 2027 — use "v2"');
      // the signed interface's envelope has no place for it: headers only
      const signature = await h.call("/balance");
      expect(signature.headers.get("deprecation")).toBe("true");
      expect(signature.headers.get("warning")).toBe(loud.headers.get("warning"));
      expect(signature.body).not.toHaveProperty("warning");
    });

    it("is an option at start", async () => {
      await h.close();
      h = await harness({ deprecationWarning: "going away" });
      expect((await h.key("GET", "/balance")).body.warning).toBe("going away");
    });

    it("an injected 500 comes in the key envelope, after the work is done", async () => {
      h.sandbox.faults = { ...h.sandbox.faults, errorRate: 1 };
      const answer = await transaction({ ref_id: "FAULT-1" });
      expect(answer.status).toBe(500);
      expect(answer.body).toMatchObject({ status: "failed", rc: "99" });
      expect(h.sandbox.transactions().map((t) => t.refId)).toEqual(["FAULT-1"]);
    });
  });
});
