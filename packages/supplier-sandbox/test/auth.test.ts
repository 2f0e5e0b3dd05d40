import { createHash, createHmac } from "node:crypto";
import { ManualClock, signedBody } from "@kios/kit";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEFAULT_SANDBOX_CREDENTIALS } from "../index.ts";
import { CREDS, type Harness, harness } from "./helpers.ts";

// the cases of packages/kit/test/fixtures/supplier-signature-vectors.json, each with its path
const vectors = {
  credentials: { api_id: "KIOS-TEST-01", api_key: "ak_test_5f2c", secret_key: "sk_test_9b41e7" },
  timestamp: 1767225600,
  cases: [
    {
      name: "balance",
      path: "/balance",
      params: {},
      signature: "e33d23200370086bc21f966e109d08715d01c21016827659967da7630e1d5163",
    },
    {
      name: "product list",
      path: "/products",
      params: { cmd: "pasca" },
      signature: "e9b58fac8961171c18d782e5036b9705eecba8b493de9db5ee82169fa053a3e6",
    },
    {
      name: "game order with testing flag",
      path: "/order",
      params: {
        testing: true,
        ref_id: "K-01J9ZQ",
        customer_no: "123456789(2001)",
        code: "ML86",
        cmd: "game",
      },
      signature: "4a1a15946ed6eedd3339726c6140a59dbf5cc0f80b378aa897dcedc01f52e4fe",
    },
    {
      name: "bill payment; slashes are not escaped",
      path: "/order",
      params: {
        ref_id: "INV/2026/11/0001",
        customer_no: "530012345678",
        code: "PLNPOST",
        cmd: "pay-pasca",
      },
      signature: "1f900d220c614c8928fffd45954b4d49b2169338a879e3304b5637e4be2cc823",
    },
  ],
};

describe("sandbox authentication", () => {
  let h: Harness;
  beforeAll(async () => {
    h = await harness({
      // frozen: the 5-minute window is checked to the second, however slow the machine
      clock: new ManualClock({ frozen: true }),
      accounts: [
        {
          apiId: CREDS.apiId,
          keys: [
            { apiKey: CREDS.apiKey, secretKey: CREDS.secretKey },
            { apiKey: "old-key", secretKey: "old-secret", revoked: true },
          ],
          balance: 1_000_000,
        },
        {
          apiId: vectors.credentials.api_id,
          keys: [
            { apiKey: vectors.credentials.api_key, secretKey: vectors.credentials.secret_key },
          ],
          balance: 250_000,
        },
      ],
    });
  });
  afterAll(() => h.close());

  it("accepts a correctly signed request and answers the account's balance", async () => {
    const { status, body } = await h.call("/balance");
    expect(status).toBe(200);
    expect(body).toEqual({
      success: true,
      code: "SUCCESS",
      message: expect.any(String),
      data: { balance: 1_000_000, balance_formatted: "Rp1.000.000" },
      errors: null,
      meta: null,
    });
  });

  it("accepts the signature test vectors byte for byte", async () => {
    h.clock.set(vectors.timestamp * 1000);
    try {
      for (const c of vectors.cases) {
        const body = {
          ...c.params,
          api_id: vectors.credentials.api_id,
          timestamp: vectors.timestamp,
          signature: c.signature,
        };
        const { status, body: reply } = await h.raw(c.path, JSON.stringify(body));
        // authentication passed: whatever came back, it is not an auth refusal
        expect(status, c.name).not.toBe(401);
        expect(reply.code, c.name).not.toMatch(/SIGNATURE|UNAUTHORIZED|API_KEY|TIMESTAMP/);
      }
      // the game order was a testing one: nothing was charged
      expect(h.sandbox.account(vectors.credentials.api_id).balance).toBe(250_000);
    } finally {
      h.clock.set(Date.now());
    }
  });

  it("refuses an unknown api_id with UNAUTHORIZED (checked before the timestamp)", async () => {
    const { status, body } = await h.call(
      "/balance",
      {},
      { creds: { ...CREDS, apiId: "NOBODY" }, at: h.clock.now() - 3_600_000 },
    );
    expect(status).toBe(401);
    expect(body).toMatchObject({ success: false, code: "UNAUTHORIZED", data: null });
  });

  it("refuses a timestamp more than 5 minutes old or ahead with TIMESTAMP_EXPIRED", async () => {
    for (const offset of [-301_000, 301_000]) {
      const { status, body } = await h.call("/balance", {}, { at: h.clock.now() + offset });
      expect(status).toBe(401);
      expect(body.code).toBe("TIMESTAMP_EXPIRED");
    }
    // checked before the signature
    const both = await h.call(
      "/balance",
      {},
      { creds: { ...CREDS, secretKey: "wrong" }, at: h.clock.now() - 600_000 },
    );
    expect(both.body.code).toBe("TIMESTAMP_EXPIRED");
    const inside = await h.call("/balance", {}, { at: h.clock.now() - 290_000 });
    expect(inside.status).toBe(200);
  });

  it("refuses a timestamp in milliseconds", async () => {
    const now = h.clock.now();
    const body = signedBody(CREDS, {}, now);
    const ms = { ...body, timestamp: now };
    const { status, body: reply } = await h.raw("/balance", JSON.stringify(ms));
    expect(status).toBe(401);
    expect(reply.code).toBe("TIMESTAMP_EXPIRED");
  });

  it("refuses a wrong secret, a wrong api_key and a tampered body with INVALID_SIGNATURE", async () => {
    for (const creds of [
      { ...CREDS, secretKey: "not-the-secret" },
      { ...CREDS, apiKey: "not-the-key" },
    ]) {
      const { status, body } = await h.call("/balance", {}, { creds });
      expect(status).toBe(401);
      expect(body.code).toBe("INVALID_SIGNATURE");
    }
    const signed = signedBody(CREDS, { cmd: "game" }, h.clock.now());
    const tampered = await h.raw("/products", JSON.stringify({ ...signed, cmd: "pasca" }));
    expect(tampered.status).toBe(401);
    expect(tampered.body.code).toBe("INVALID_SIGNATURE");
  });

  it("refuses a signature over unsorted parameters with INVALID_SIGNATURE", async () => {
    const timestamp = Math.floor(h.clock.now() / 1000);
    const unsorted = '{"customer_no":"081234567001","code":"TSEL5","cmd":"prepaid"}';
    const bodyHash = createHash("sha256").update(unsorted).digest("hex");
    const signature = createHmac("sha256", CREDS.secretKey)
      .update(`${CREDS.apiId}|${CREDS.apiKey}|${timestamp}|${bodyHash}`)
      .digest("hex");
    const { status, body } = await h.raw(
      "/order",
      JSON.stringify({ ...JSON.parse(unsorted), api_id: CREDS.apiId, timestamp, signature }),
    );
    expect(status).toBe(401);
    expect(body.code).toBe("INVALID_SIGNATURE");
  });

  it("refuses a revoked key with INVALID_API_KEY; a key added later works", async () => {
    const revoked = await h.call(
      "/balance",
      {},
      { creds: { ...CREDS, apiKey: "old-key", secretKey: "old-secret" } },
    );
    expect(revoked.status).toBe(401);
    expect(revoked.body.code).toBe("INVALID_API_KEY");

    const account = h.sandbox.account();
    account.addKey({ apiKey: "rotated-key", secretKey: "rotated-secret" });
    const rotated = { ...CREDS, apiKey: "rotated-key", secretKey: "rotated-secret" };
    expect((await h.call("/balance", {}, { creds: rotated })).status).toBe(200);
    account.revokeKey("rotated-key");
    expect((await h.call("/balance", {}, { creds: rotated })).body.code).toBe("INVALID_API_KEY");
  });

  it("keeps accounts apart", async () => {
    const other = {
      apiId: vectors.credentials.api_id,
      apiKey: vectors.credentials.api_key,
      secretKey: vectors.credentials.secret_key,
    };
    const { body } = await h.call("/balance", {}, { creds: other });
    expect(body.data).toEqual({ balance: 250_000, balance_formatted: "Rp250.000" });
    // the default account's key does not sign for another api_id
    const crossed = await h.call("/balance", {}, { creds: { ...CREDS, apiId: other.apiId } });
    expect(crossed.body.code).toBe("INVALID_SIGNATURE");
    expect(h.sandbox.account(other.apiId).balance).toBe(250_000);
    expect(() => h.sandbox.account("NOBODY")).toThrow();
  });

  it("answers missing or mistyped envelope fields with VALIDATION_ERROR", async () => {
    const { status, body } = await h.raw("/balance", JSON.stringify({ timestamp: "soon" }));
    expect(status).toBe(400);
    expect(body).toMatchObject({ success: false, code: "VALIDATION_ERROR", data: null });
    expect(body.errors).toEqual({
      api_id: ["is required"],
      timestamp: ["must be an integer (Unix seconds)"],
      signature: ["is required"],
    });
  });
});

describe("sandbox protocol edges", () => {
  let h: Harness;
  beforeAll(async () => {
    h = await harness({ rateLimitPerSecond: 3 });
  });
  afterAll(() => h.close());

  it("answers bad JSON, a non-object body and an oversized body with VALIDATION_ERROR", async () => {
    const bad = await h.raw("/order", "{not json");
    expect(bad.status).toBe(400);
    expect(bad.body.errors).toEqual({ body: ["is not valid JSON"] });
    const array = await h.raw("/order", "[1,2]");
    expect(array.status).toBe(400);
    expect(array.body.errors).toEqual({ body: ["must be a JSON object"] });
    const big = await h.raw("/order", JSON.stringify({ pad: "x".repeat(70 * 1024) }));
    expect(big.status).toBe(400);
    expect(big.body.code).toBe("VALIDATION_ERROR");
    expect(big.body.errors?.body?.[0]).toContain("65536");
  });

  it("answers the old release's forms with 410 GONE", async () => {
    const phone = await h.call("/order", {
      cmd: "prepaid",
      code: "TSEL5",
      phone: "081234567001",
    });
    expect(phone.status).toBe(410);
    expect(phone.body).toMatchObject({ success: false, code: "GONE", data: null });
    expect(phone.body.message).toContain("1 January 2026");
    const check = await h.raw("/check", JSON.stringify({ customer_no: "530012345678" }));
    expect(check.status).toBe(410);
    expect(check.body.code).toBe("GONE");
  });

  it("answers unknown paths with 404 and other methods with 405", async () => {
    const unknown = await h.call("/refund", {});
    expect(unknown.status).toBe(404);
    expect(unknown.body.code).toBe("NOT_FOUND");
    const get = await h.raw("/order", "", "GET");
    expect(get.status).toBe(405);
    // GET /v1/balance and POST /v1/transaction are the key interface's (key-routes.test.ts)
  });

  it("limits requests per api_id with 429 RATE_LIMITED", async () => {
    const answers = await Promise.all(Array.from({ length: 12 }, () => h.call("/balance")));
    // a bucket of 3 per second cannot let 12 requests fired together through
    const limited = answers.filter((a) => a.status === 429);
    expect(limited.length).toBeGreaterThan(0);
    expect(limited[0]!.body).toMatchObject({ success: false, code: "RATE_LIMITED" });
    expect(limited[0]!.headers.get("retry-after")).toBe("1");
    expect(answers.filter((a) => a.status === 200).length).toBeGreaterThanOrEqual(3);
  });
});

describe("default credentials", () => {
  it("are the documented sandbox ones", () => {
    expect(DEFAULT_SANDBOX_CREDENTIALS).toEqual({
      apiId: "KIOS-SANDBOX",
      apiKey: "sandbox-api-key",
      secretKey: "sandbox-secret-key",
    });
  });
});
