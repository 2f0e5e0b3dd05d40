import { signedBody } from "@kios/kit";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { updateKeySettings } from "../../src/commerce/h2h/keys.ts";
import { walletBalance } from "../../src/commerce/wallet/ledger.ts";
import { h2hOrders } from "../../src/db/schema.ts";
import { createClientAddress } from "../../src/h2h/client-address.ts";
import { testDriver } from "../helpers/db.ts";
import { bootH2h, type H2hHarness } from "../helpers/h2h.ts";

// the small truths of the H2H surface (issue 36 item 17) on a SUPPLIER_TESTING shop behind a
// trusted proxy: every answer says it was a test, the allowlist sees the forwarded caller,
// and whatever is not a known POST is answered in the envelope.

interface Envelope {
  success: boolean;
  code: string;
  message: string;
  data: Record<string, unknown> | null;
  meta: Record<string, unknown> | null;
}

describe(`the H2H surface (${testDriver})`, () => {
  let h: H2hHarness;
  beforeAll(async () => {
    h = await bootH2h({
      testing: true,
      route: { clientAddress: createClientAddress(["127.0.0.1"]) },
    });
  });
  afterAll(() => h.stop());

  const post = async (
    path: string,
    body: unknown,
    headers: Record<string, string> = {},
  ): Promise<{ status: number; body: Envelope }> => {
    const res = await fetch(`${h.baseUrl}${path}`, {
      method: "POST",
      headers: { "content-type": "application/json", ...headers },
      body: JSON.stringify(body),
    });
    return { status: res.status, body: (await res.json()) as Envelope };
  };

  it("on a SUPPLIER_TESTING shop every answer says it was a test: the simulated order, its status, a refusal", async () => {
    const key = await h.reseller(100_000);
    const order = {
      cmd: "prepaid",
      code: "TSEL10",
      customer_no: "081234567901",
      ref_id: "test-shop-1",
    };
    const placed = await post("/order", signedBody(key, order, h.clock.now()));
    expect(placed.body).toMatchObject({
      code: "ORDER_SUCCESS",
      meta: { testing: true },
      data: { testing: true },
    });
    expect(placed.body.message).toMatch(/^TEST/);
    expect(await walletBalance(h.deps.db, key.userId)).toBe(100_000);
    const status = await post("/status", signedBody(key, { ref_id: "test-shop-1" }, h.clock.now()));
    expect(status.body).toMatchObject({ meta: { testing: true }, data: { testing: true } });
    const balance = await post("/balance", signedBody(key, {}, h.clock.now()));
    expect(balance.body).toMatchObject({ code: "SUCCESS", meta: { testing: true } });
    const refused = await post(
      "/balance",
      signedBody({ ...key, secretKey: "x" }, {}, h.clock.now()),
    );
    expect(refused.body).toMatchObject({ code: "INVALID_SIGNATURE", meta: { testing: true } });
  });

  it("behind a trusted proxy the allowlist sees the address X-Forwarded-For names", async () => {
    const key = await h.reseller(10_000);
    await updateKeySettings(h.deps.db, key.userId, { ipAllowlist: ["203.0.113.7"] });
    const from = (xff: string | undefined) =>
      post("/balance", signedBody(key, {}, h.clock.now()), xff ? { "x-forwarded-for": xff } : {});
    expect((await from("203.0.113.7")).status).toBe(200);
    expect((await from("203.0.113.7, 198.51.100.2")).status).toBe(403);
    expect((await from(undefined)).status).toBe(403);
  });

  it("a NUL or a lone surrogate in any string is a VALIDATION_ERROR naming it, and nothing is stored", async () => {
    const key = await h.reseller(100_000);
    const order = { cmd: "prepaid", code: "TSEL10", customer_no: "081234567901", ref_id: "nul-1" };
    const cases: [Record<string, unknown>, string][] = [
      [{ ...order, code: "TSEL10\u0000" }, "code"],
      [{ ...order, customer_no: "0812\u000034567901" }, "customer_no"],
      [{ ...order, note: { deep: ["\ud800"] } }, "note.deep.0"],
    ];
    for (const [body, field] of cases) {
      const refused = await post("/order", signedBody(key, body, h.clock.now()));
      expect(refused).toMatchObject({ status: 400, body: { code: "VALIDATION_ERROR" } });
      expect(Object.keys((refused.body as unknown as { errors: object }).errors)).toEqual([field]);
    }
    const stranger = {
      api_id: "x\u0000",
      timestamp: Math.floor(h.clock.now() / 1000),
      signature: "ab",
    };
    const unknown = await post("/balance", stranger);
    expect(unknown).toMatchObject({ status: 400, body: { code: "VALIDATION_ERROR" } });
    const rows = await h.deps.db.select().from(h2hOrders).where(eq(h2hOrders.refId, "nul-1"));
    expect(rows).toHaveLength(0);
    const placed = await post("/order", signedBody(key, order, h.clock.now()));
    expect(placed.body).toMatchObject({ code: "ORDER_SUCCESS" });
  });

  it("a body nested thousands deep is a VALIDATION_ERROR, for a known api_id too, not a 500", async () => {
    const key = await h.reseller(10_000);
    const deep = JSON.parse(`${"[".repeat(4_000)}${"]".repeat(4_000)}`);
    // signed without it (signing it would overflow this test's own stack)
    for (const body of [
      { ...signedBody(key, {}, h.clock.now()), x: deep },
      { ...signedBody(key, {}, h.clock.now()), x: { y: deep } },
    ]) {
      const refused = await post("/balance", body);
      expect(refused).toMatchObject({ status: 400, body: { code: "VALIDATION_ERROR" } });
    }
    // a shallow nesting is still read (and refused as the signature's)
    const shallow = { ...signedBody(key, {}, h.clock.now()), x: [[1]] };
    expect((await post("/balance", shallow)).body.code).toBe("INVALID_SIGNATURE");
  });

  it("an unknown path or a GET under /h2h/v1 is answered in the envelope", async () => {
    const unknown = await post("/orders", {});
    expect(unknown.status).toBe(404);
    expect(unknown.body).toMatchObject({ success: false, code: "NOT_FOUND", data: null });
    const get = await fetch(`${h.baseUrl}/order`);
    expect(get.status).toBe(405);
    expect(get.headers.get("allow")).toBe("POST");
    expect(await get.json()).toMatchObject({ success: false, code: "METHOD_NOT_ALLOWED" });
    const root = await fetch(`${h.baseUrl}/`);
    expect(root.status).toBe(404);
    expect(await root.json()).toMatchObject({ success: false, code: "NOT_FOUND" });
  });
});
