import {
  hubSignature,
  type RunningDigiflazzSandbox,
  DIGIFLAZZ_SANDBOX_ACCOUNT as SANDBOX,
  startDigiflazzSandbox,
} from "@kios/digiflazz-sandbox";
import { ManualClock } from "@kios/kit";
import { afterEach, describe, expect, it } from "vitest";
import { createDigiflazzSupplier } from "../../../src/supplier/digiflazz/client.ts";
import { KNOWN_RCS, meaningOfRc } from "../../../src/supplier/digiflazz/codes.ts";
import {
  digiflazzReportReader,
  verifyHubSignature,
} from "../../../src/supplier/digiflazz/webhook.ts";
import type { SentRequest } from "../../../src/supplier/types.ts";
import { STUB, type StrictStub, startStrictStub } from "./strict-stub.ts";

// the Digiflazz adapter against a strict stub written from the documentation and against
// the Digiflazz sandbox over HTTP (docs/suppliers.md#digiflazz)

const txn = (rc: string, status: string, extra: Record<string, unknown> = {}) => ({
  ref_id: "R1",
  customer_no: "081234567001",
  buyer_sku_code: "tsel10",
  message: "m",
  status,
  rc,
  sn: rc === "00" ? "SN1" : "",
  buyer_last_saldo: 990_000,
  price: 10_300,
  tele: "",
  wa: "",
  ...extra,
});

const request = {
  cmd: "prepaid" as const,
  code: "tsel10",
  customerNo: "081234567001",
  refId: "R1",
};

describe("the Digiflazz adapter against a strict stub of its documentation", () => {
  let stub: StrictStub | undefined;
  afterEach(async () => {
    await stub?.close();
    stub = undefined;
  });
  const make = (clock = new ManualClock({ start: Date.UTC(2026, 0, 1) })) =>
    createDigiflazzSupplier({ baseUrl: stub!.url, ...STUB, clock, readRetries: 0, retryBaseMs: 1 });

  it("signs each endpoint its own way and reads the {data} envelope", async () => {
    stub = await startStrictStub();
    stub.script("/cek-saldo", { data: { deposit: 123_456 } });
    stub.script("/deposit", {
      data: { rc: "00", amount: 200_123, notes: "DEP 123", bank: "BCA" },
    });
    const s = make();
    expect(await s.balance()).toMatchObject({ balance: 123_456 });
    expect(
      await s.depositTicket({ amount: 200_000, bank: "BCA", ownerName: "Toko" }),
    ).toMatchObject({
      amount: 200_123,
      notes: "DEP 123",
    });
    // the stub refuses any body whose sign is not its endpoint's: these passed
    expect(stub.bodies.map((b) => b.path)).toEqual(["/v1/cek-saldo", "/v1/deposit"]);
  });

  it("sends max_price with a prepaid order; refused with nothing formed is rejected", async () => {
    stub = await startStrictStub();
    stub.script("/transaction", { data: txn("69", "Gagal", { price: 0 }) });
    const out = await make().order({ ...request, maxCost: 10_000 });
    expect(out).toMatchObject({ outcome: "rejected", error: { code: "PRODUCT_INACTIVE" } });
    expect(stub.bodies[0]!.body).toMatchObject({ max_price: 10_000, ref_id: "R1" });
  });

  it.each([
    ["00", "Sukses", "accepted", "success", undefined],
    ["03", "Pending", "accepted", "pending", undefined],
    ["99", "Pending", "accepted", "pending", undefined],
    ["55", "Gagal", "accepted", "failed", "PRODUCT_DISRUPTED"],
    ["54", "Gagal", "accepted", "failed", "INVALID_CUSTOMER_NO"],
    ["02", "Gagal", "accepted", "failed", undefined],
  ])("rc %s (%s) → %s %s", async (rc, word, outcome, status, reason) => {
    stub = await startStrictStub();
    stub.script("/transaction", { data: txn(rc, word) });
    const out = await make().order(request);
    expect(out.outcome).toBe(outcome);
    if (out.outcome !== "accepted") return;
    expect(out.transaction.status).toBe(status);
    expect(out.transaction.reason).toBe(reason);
    expect(out.transaction.balanceAfter).toBe(990_000);
  });

  it.each([
    ["41", "INVALID_SIGNATURE"],
    ["43", "PRODUCT_NOT_FOUND"],
    ["44", "INSUFFICIENT_BALANCE"],
    ["45", "UNAUTHORIZED"],
    ["68", "PRODUCT_INACTIVE"],
    ["83", "RATE_LIMITED"],
    ["80", "SUPPLIER_REFUSED"],
  ])("rc %s is a refusal with nothing formed (%s), whatever the HTTP status", async (rc, code) => {
    stub = await startStrictStub();
    stub.script("/transaction", { status: 400, data: txn(rc, "Gagal", { price: 0 }) });
    expect(await make().order(request)).toMatchObject({ outcome: "rejected", error: { code } });
  });

  it("an unknown rc, rc 49, a status word against its rc, or a 5xx is an unknown outcome", async () => {
    stub = await startStrictStub();
    stub.script(
      "/transaction",
      { data: txn("98", "Gagal") },
      { data: txn("49", "Gagal") },
      { data: txn("00", "Gagal") },
      { status: 502, data: txn("00", "Sukses") },
    );
    const s = make();
    for (let i = 0; i < 4; i++) expect((await s.order(request)).outcome).toBe("unknown");
  });

  it("a status check re-sends exactly the stored body, and refuses to send without one", async () => {
    stub = await startStrictStub();
    stub.script("/transaction", { data: txn("03", "Pending") }, { data: txn("00", "Sukses") });
    const s = make();
    await s.order({ ...request, maxCost: 10_500, testing: true });
    const sent: SentRequest = {
      kind: "order",
      code: "tsel10",
      customerNo: "081234567001",
      refId: "R1",
      testing: true,
      maxCost: 10_500,
    };
    const status = await s.status("R1", sent);
    expect(status).toMatchObject({ found: true, transaction: { status: "success", sn: "SN1" } });
    expect(stub.bodies[1]!.body).toEqual(stub.bodies[0]!.body);
    await expect(s.status("R1")).rejects.toMatchObject({ code: "VALIDATION_ERROR" });
    expect(stub.bodies).toHaveLength(2);
  });

  it("postpaid: inq-pasca then pay-pasca with its ref_id; the cost is price, not selling_price; status-pasca's Gagal is no data", async () => {
    stub = await startStrictStub();
    const bill = {
      customer_name: "Budi",
      admin: 2_750,
      selling_price: 102_750,
      periode: "202601",
      desc: { lembar_tagihan: 1, detail: [] },
    };
    stub.script(
      "/transaction",
      {
        data: txn("00", "Sukses", {
          ...bill,
          price: 102_250,
          buyer_sku_code: "pln",
          customer_no: "530000000001",
        }),
      },
      {
        data: txn("00", "Sukses", {
          ...bill,
          price: 102_250,
          buyer_sku_code: "pln",
          customer_no: "530000000001",
        }),
      },
      { data: { ref_id: "R1", status: "Gagal", rc: "02", message: "no data" } },
    );
    const s = make();
    const inq = await s.inquiry({ code: "pln", customerNo: "530000000001", refId: "R1" });
    expect(inq).toMatchObject({
      total: 102_250,
      admin: 2_750,
      tagihan: 100_000,
      customerName: "Budi",
    });
    const paid = await s.payBill({ code: "pln", customerNo: "530000000001", refId: "R1" });
    expect(paid).toMatchObject({
      outcome: "accepted",
      transaction: { kind: "bill", price: 102_250 },
    });
    expect(stub.bodies.map((b) => b.body.commands)).toEqual(["inq-pasca", "pay-pasca"]);
    expect(stub.bodies[1]!.body.ref_id).toBe(stub.bodies[0]!.body.ref_id);
    const status = await s.status("R1", {
      kind: "bill",
      code: "pln",
      customerNo: "530000000001",
      refId: "R1",
      testing: false,
    });
    expect(status).toEqual({ found: false });
    expect(stub.bodies[2]!.body.commands).toBe("status-pasca");
  });

  it("fetches a whole price list once per window: prepaid and games share it, a refusal (83) is thrown", async () => {
    stub = await startStrictStub();
    const item = (sku: string, category: string) => ({
      product_name: sku,
      category,
      brand: "B",
      type: "Umum",
      seller_name: "S",
      price: 1_000,
      buyer_sku_code: sku,
      buyer_product_status: true,
      seller_product_status: true,
      unlimited_stock: true,
      stock: 0,
      multi: true,
      start_cut_off: "0:0",
      end_cut_off: "0:0",
      desc: "",
    });
    stub.script(
      "/price-list",
      { data: [item("p1", "Pulsa"), item("g1", "Games")] },
      { data: { rc: "83", message: "limit" } },
    );
    const clock = new ManualClock({ start: Date.UTC(2026, 0, 1) });
    const s = make(clock);
    const [prepaid, games] = await Promise.all([s.products("prepaid"), s.products("game")]);
    expect(prepaid.map((p) => [p.code, p.type])).toEqual([["p1", "prepaid"]]);
    expect(games.map((p) => [p.code, p.type])).toEqual([["g1", "game"]]);
    expect(stub.bodies).toHaveLength(1);
    clock.advance(5 * 60_000);
    await expect(s.products("prepaid")).rejects.toMatchObject({ code: "RATE_LIMITED" });
  });

  it("verifies the webhook's X-Hub-Signature (HMAC-SHA1 of the raw body)", () => {
    const raw = JSON.stringify({ data: txn("00", "Sukses") });
    const reader = digiflazzReportReader("whsec");
    const header = (sig?: string) => (name: string) =>
      name === "x-hub-signature" ? sig : name === "user-agent" ? "Digiflazz-Hookshot" : undefined;
    expect(reader.verify(raw, header(hubSignature("whsec", raw)), 0)).toEqual({ ok: true });
    expect(reader.verify(raw, header(hubSignature("other", raw)), 0)).toMatchObject({ ok: false });
    expect(reader.verify(`${raw} `, header(hubSignature("whsec", raw)), 0)).toMatchObject({
      ok: false,
    });
    expect(reader.verify(raw, header(undefined), 0)).toMatchObject({ ok: false });
    expect(verifyHubSignature("whsec", raw, "sha1=zz")).toBe(false);
    expect(reader.parse(raw, header()).transaction).toMatchObject({
      refId: "R1",
      status: "success",
    });
  });

  it("maps every rc of the table to one class", () => {
    // 49 is known and proves nothing: the ref_id is held for another transaction
    for (const rc of KNOWN_RCS.filter((r) => r !== "49")) {
      expect(meaningOfRc(rc).kind).not.toBe("unknown");
    }
    expect(meaningOfRc("49")).toEqual({ kind: "unknown" });
    expect(meaningOfRc("98")).toEqual({ kind: "unknown" });
    expect(meaningOfRc("constructor")).toEqual({ kind: "unknown" });
  });
});

describe("the Digiflazz adapter against the Digiflazz sandbox over HTTP", () => {
  let sandbox: RunningDigiflazzSandbox | undefined;
  afterEach(async () => {
    await sandbox?.stop();
    sandbox = undefined;
  });
  const make = () =>
    createDigiflazzSupplier({
      baseUrl: sandbox!.url,
      username: SANDBOX.username,
      apiKey: SANDBOX.apiKey,
      readRetries: 0,
    });

  it("buys with the documentation's test numbers: success, failed, pending then final", async () => {
    sandbox = await startDigiflazzSandbox();
    const s = make();
    const buy = (refId: string, customerNo: string) =>
      s.order({ cmd: "prepaid", code: "xld10", customerNo, refId, testing: true });
    expect(await buy("T0", "087800001230")).toMatchObject({
      outcome: "accepted",
      transaction: { status: "success" },
    });
    expect(await buy("T2", "087800001232")).toMatchObject({
      outcome: "accepted",
      transaction: { status: "failed" },
    });
    expect(await buy("T3", "087800001233")).toMatchObject({
      outcome: "accepted",
      transaction: { status: "pending" },
    });
    sandbox.settle("T3");
    const sent: SentRequest = {
      kind: "order",
      code: "xld10",
      customerNo: "087800001233",
      refId: "T3",
      testing: true,
    };
    expect(await s.status("T3", sent)).toMatchObject({
      found: true,
      transaction: { status: "success" },
    });
    expect(sandbox.state.trapSprung).toEqual([]);
  });

  it("reads the price lists and the balance", async () => {
    sandbox = await startDigiflazzSandbox();
    const s = make();
    const games = await s.products("game");
    expect(games.some((g) => g.brand === "MOBILE LEGENDS" && g.type === "game")).toBe(true);
    const prepaid = await s.products("prepaid");
    expect(prepaid.find((p) => p.code === "tsel10")).toMatchObject({
      name: "Telkomsel 10.000",
      category: "Pulsa",
      active: true,
    });
    expect(sandbox.state.fullListAt.size).toBe(1);
    const pasca = await s.products("pasca");
    expect(pasca.find((p) => p.code === "pln")).toMatchObject({ type: "pasca", price: 2_250 });
    expect((await s.balance()).balance).toBe(5_000_000);
  });

  it("a whole list whose answer timed out is not asked again within its window: no retry refused with rc 83, the next fetch after the window", async () => {
    const clock = new ManualClock({ start: Date.UTC(2026, 0, 1) });
    // Digiflazz serves the list (its five minutes start) and its answer comes too late
    sandbox = await startDigiflazzSandbox({
      clock,
      slowReplyMs: 1_500,
      faults: { priceListSlowRate: 1 },
    });
    const s = createDigiflazzSupplier({
      baseUrl: sandbox.url,
      username: SANDBOX.username,
      apiKey: SANDBOX.apiKey,
      timeoutMs: 300,
      // reads are retried, but not this one
      readRetries: 3,
      retryBaseMs: 1,
      clock,
    });
    await expect(s.products("prepaid")).rejects.toMatchObject({ code: "TIMEOUT" });
    const asked = () => sandbox!.state.fullLists.map((l) => [l.cmd, l.result]);
    expect(asked()).toEqual([["prepaid", "served"]]);
    sandbox.faults = { ...sandbox.faults, priceListSlowRate: 0 };
    // a sync within the window (an admin's "sync now") is refused here, not at Digiflazz
    clock.advance(4 * 60_000);
    await expect(s.products("game")).rejects.toMatchObject({
      code: "RATE_LIMITED",
      message: expect.stringMatching(/not asked/),
    });
    expect(asked()).toEqual([["prepaid", "served"]]);
    // the other list has its own window
    expect((await s.products("pasca")).length).toBeGreaterThan(0);
    // the window over, the next fetch asks once and is served
    clock.advance(60_000);
    expect((await s.products("prepaid")).some((p) => p.code === "tsel10")).toBe(true);
    expect(asked()).toEqual([
      ["prepaid", "served"],
      ["pasca", "served"],
      ["prepaid", "served"],
    ]);
  });

  it("posts a signed webhook when a pending transaction settles", async () => {
    sandbox = await startDigiflazzSandbox();
    const got: { raw: string; sig: string | null }[] = [];
    const { createServer } = await import("node:http");
    const server = createServer((req, res) => {
      let raw = "";
      req.on("data", (c) => (raw += c));
      req.on("end", () => {
        got.push({ raw, sig: req.headers["x-hub-signature"] as string });
        res.end("{}");
      });
    });
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", () => r()));
    const port = (server.address() as { port: number }).port;
    sandbox.account().setWebhookUrl(`http://127.0.0.1:${port}/hook`);
    await make().order({ cmd: "prepaid", code: "tsel10", customerNo: "081234567803", refId: "W1" });
    sandbox.settle("W1");
    await sandbox.webhooks.idle();
    await new Promise<void>((r) => server.close(() => r()));
    expect(got).toHaveLength(1);
    expect(verifyHubSignature(SANDBOX.webhookSecret, got[0]!.raw, got[0]!.sig ?? undefined)).toBe(
      true,
    );
    const parsed = digiflazzReportReader(SANDBOX.webhookSecret).parse(got[0]!.raw, () => undefined);
    expect(parsed.transaction).toMatchObject({ refId: "W1", status: "success" });
  });
});
