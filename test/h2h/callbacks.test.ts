import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { verifyCallback } from "@kios/kit";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { checkCallbackUrl } from "../../src/commerce/h2h/callback-url.ts";
import {
  CALLBACK_GIVE_UP_MS,
  type CallbackDeps,
  callbackOf,
  deliverDueCallbacks,
  queueFinalCallbacks,
  recentCallbackFailures,
} from "../../src/commerce/h2h/callbacks.ts";
import { updateKeySettings } from "../../src/commerce/h2h/keys.ts";
import { resolveOrder } from "../../src/commerce/orders/resolve.ts";
import { parseSupplierReport } from "../../src/supplier/report.ts";
import { testDriver } from "../helpers/db.ts";
import { bootH2h, type H2hHarness } from "../helpers/h2h.ts";

// a reseller's callbacks: queued once when an H2H order is final, signed as
// docs/supplier.md#callbacks, retried with backoff, every attempt logged.

interface Received {
  raw: string;
  timestamp: string | undefined;
  signature: string | undefined;
}

async function receiver(answer: () => number) {
  const received: Received[] = [];
  const server: Server = createServer((req, res) => {
    let raw = "";
    req.on("data", (c) => {
      raw += c;
    });
    req.on("end", () => {
      received.push({
        raw,
        timestamp: req.headers["x-callback-timestamp"] as string | undefined,
        signature: req.headers["x-callback-signature"] as string | undefined,
      });
      const status = answer();
      res.writeHead(status, status === 302 ? { location: "http://127.0.0.1:1/" } : {}).end("ok");
    });
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/cb`,
    received,
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}

const phone = (ending: string) =>
  `0812345${String(Math.floor(Math.random() * 1000)).padStart(3, "0")}${ending}`;

describe(`H2H callbacks (${testDriver})`, () => {
  let h: H2hHarness;
  let deps: CallbackDeps;
  beforeAll(async () => {
    h = await bootH2h();
    deps = {
      db: h.deps.db,
      box: h.box,
      clock: h.clock,
      logger: h.deps.logger,
      policy: { allowLoopbackHttp: true },
      // generous: a loaded machine must not turn a slow answer into a failed attempt
      timeoutMs: 20_000,
    };
  });
  afterAll(() => h.stop());

  it("an order answered final at once gets one signed transaction.final; queueing again adds nothing", async () => {
    const rx = await receiver(() => 200);
    const key = await h.reseller(100_000);
    await updateKeySettings(h.deps.db, key.userId, { callbackUrl: rx.url });
    const client = h.client(key);
    const refId = "cb-1";
    const placed = await client.order({
      cmd: "prepaid",
      code: "TSEL10",
      customerNo: phone("901"),
      refId,
    });
    expect(placed.outcome).toBe("accepted");
    expect(await queueFinalCallbacks(deps)).toBeGreaterThanOrEqual(1);
    expect(await queueFinalCallbacks(deps)).toBe(0);
    await deliverDueCallbacks(deps);
    await deliverDueCallbacks(deps);
    const mine = rx.received.filter((r) => r.raw.includes(`"${refId}"`));
    expect(mine).toHaveLength(1);
    const [cb] = mine;
    expect(
      verifyCallback(key.secretKey, cb!.raw, cb!.timestamp, cb!.signature, h.clock.now()),
    ).toEqual({ ok: true });
    // kios's own report parser reads it as a supplier's callback
    const report = parseSupplierReport(cb!.raw);
    expect(report).toMatchObject({
      event: "transaction.final",
      transaction: { refId, status: "success" },
    });
    expect(report.transaction.sn).toBeTruthy();
    expect(await callbackOf(h.deps.db, key.userId, refId)).toMatchObject({
      status: "delivered",
      attempts: 1,
    });
    await rx.close();
  });

  it("a pending order's callback comes once the engine settles it", async () => {
    const rx = await receiver(() => 200);
    const key = await h.reseller(100_000);
    await updateKeySettings(h.deps.db, key.userId, { callbackUrl: rx.url });
    const refId = "cb-pending";
    const placed = await h
      .client(key)
      .order({ cmd: "prepaid", code: "TSEL10", customerNo: phone("903"), refId });
    expect(placed).toMatchObject({ outcome: "accepted", transaction: { status: "pending" } });
    await queueFinalCallbacks(deps);
    expect(await callbackOf(h.deps.db, key.userId, refId)).toBeUndefined();
    await h.sandbox.settleNow();
    const { orders } = await import("../../src/db/schema.ts");
    const { eq } = await import("drizzle-orm");
    const [order] = await h.deps.db.select().from(orders).where(eq(orders.userId, key.userId));
    await resolveOrder(h.deps, order!.id);
    await queueFinalCallbacks(deps);
    await deliverDueCallbacks(deps);
    const mine = rx.received.filter((r) => r.raw.includes(`"${refId}"`));
    expect(mine.map((r) => parseSupplierReport(r.raw).transaction.status)).toEqual(["success"]);
    await rx.close();
  });

  it("a failing endpoint is retried with backoff, each attempt logged, the same body each time, given up after a day", async () => {
    let status = 500;
    const rx = await receiver(() => status);
    const key = await h.reseller(100_000);
    await updateKeySettings(h.deps.db, key.userId, { callbackUrl: rx.url });
    const refId = "cb-retry";
    await h.client(key).order({ cmd: "prepaid", code: "TSEL10", customerNo: phone("902"), refId });
    await queueFinalCallbacks(deps);
    await deliverDueCallbacks(deps);
    expect(await callbackOf(h.deps.db, key.userId, refId)).toMatchObject({
      status: "pending",
      attempts: 1,
      lastError: "HTTP 500",
    });
    // not due again before its backoff
    await deliverDueCallbacks(deps);
    expect(rx.received.filter((r) => r.raw.includes(refId))).toHaveLength(1);
    h.clock.advance(10_000);
    status = 302;
    await deliverDueCallbacks(deps);
    const failures = await recentCallbackFailures(h.deps.db, key.userId);
    expect(failures.map((f) => f.error)).toEqual([
      "HTTP 302 (redirects are not followed)",
      "HTTP 500",
    ]);
    expect(failures[0]!.refId).toBe(refId);
    const bodies = new Set(rx.received.filter((r) => r.raw.includes(refId)).map((r) => r.raw));
    expect(bodies.size).toBe(1);
    expect(parseSupplierReport([...bodies][0]!).transaction.status).toBe("failed");
    // the admins see every reseller's
    expect(
      (await recentCallbackFailures(h.deps.db, undefined, 50)).some((f) => f.refId === refId),
    ).toBe(true);
    // a day later it is given up
    h.clock.advance(CALLBACK_GIVE_UP_MS);
    await deliverDueCallbacks(deps);
    expect(await callbackOf(h.deps.db, key.userId, refId)).toMatchObject({
      status: "given_up",
      attempts: 3,
    });
    await rx.close();
  });

  it("without a callback URL nothing is sent, and the row says so", async () => {
    const key = await h.reseller(100_000);
    const refId = "cb-none";
    await h.client(key).order({ cmd: "prepaid", code: "TSEL10", customerNo: phone("901"), refId });
    await queueFinalCallbacks(deps);
    expect(await callbackOf(h.deps.db, key.userId, refId)).toMatchObject({ status: "no_url" });
  });

  it("callback URLs: https only, http only to loopback when allowed, no private or link-local addresses", () => {
    const shop = { allowLoopbackHttp: false };
    const test = { allowLoopbackHttp: true };
    expect(checkCallbackUrl("https://reseller.example/cb", shop).ok).toBe(true);
    expect(checkCallbackUrl("http://reseller.example/cb", shop)).toEqual({
      ok: false,
      code: "not_https",
      reason: "must be https",
    });
    expect(checkCallbackUrl("http://127.0.0.1:9/cb", shop).ok).toBe(false);
    expect(checkCallbackUrl("http://127.0.0.1:9/cb", test).ok).toBe(true);
    expect(checkCallbackUrl("http://10.0.0.5/cb", test).ok).toBe(false);
    for (const host of [
      "10.1.2.3",
      "192.168.1.1",
      "172.16.0.1",
      "169.254.169.254",
      "127.0.0.1",
      "[::1]",
      "[fe80::1]",
      "[fd00::1]",
      "[::ffff:10.0.0.1]",
      "localhost",
      // IPv6 forms of private and link-local IPv4 space, and IPv6's own site-local
      "[::ffff:0:a9fe:a9fe]",
      "[::ffff:0:169.254.169.254]",
      "[::ffff:a9fe:a9fe]",
      "[::ffff:169.254.169.254]",
      "[::169.254.169.254]",
      "[64:ff9b::a9fe:a9fe]",
      "[64:ff9b::10.0.0.1]",
      "[64:ff9b:1::a00:1]",
      "[2002:a9fe:a9fe::1]",
      "[2002:0a00:0001::]",
      "[2001:0:a9fe:a9fe::1]",
      "[fec0::1]",
      "[feff::1]",
    ]) {
      expect(checkCallbackUrl(`https://${host}/cb`, shop).ok, host).toBe(false);
    }
    expect(checkCallbackUrl("https://[2606:4700::1111]/cb", shop).ok).toBe(true);
    expect(checkCallbackUrl("https://user:pw@reseller.example/cb", shop).ok).toBe(false);
    expect(checkCallbackUrl("ftp://reseller.example/cb", shop).ok).toBe(false);
    expect(checkCallbackUrl("not a url", shop).ok).toBe(false);
  });

  it("a name that resolves to a private address is refused at connection time", async () => {
    const { sendToReseller } = await import("../../src/commerce/h2h/deliver.ts");
    const result = await sendToReseller(
      { method: "POST", url: new URL("https://localtest.me/cb"), body: "{}", headers: {} },
      { policy: { allowLoopbackHttp: false }, deadlineMs: 2_000 },
    );
    expect(result.ok).toBe(false);
    // localtest.me resolves to 127.0.0.1 where DNS works; without DNS it does not resolve
    if (!result.ok) expect(result.error).toMatch(/private, loopback|could not connect/);
  });

  it("a refused order keeps no row; an inquiry never paid leaves the queue's scan once it lapsed; a topped-up repeat's final is queued", async () => {
    const key = await h.reseller(1_000);
    const refId = "cb-orderless";
    const request = { cmd: "prepaid" as const, code: "TSEL10", customerNo: phone("901"), refId };
    expect((await h.client(key).order(request)).outcome).toBe("rejected");
    const { h2hOrders } = await import("../../src/db/schema.ts");
    const { and, eq } = await import("drizzle-orm");
    const row = async (ref: string) =>
      (
        await h.deps.db
          .select()
          .from(h2hOrders)
          .where(and(eq(h2hOrders.userId, key.userId), eq(h2hOrders.refId, ref)))
      )[0];
    expect(await row(refId)).toBeUndefined();
    await h
      .client(key)
      .inquiry({ code: "PLNPOST", customerNo: "530012345673", refId: "cb-unpaid" });
    await queueFinalCallbacks(deps);
    expect((await row("cb-unpaid"))?.finalQueuedAt).toBeNull();
    h.clock.advance(10 * 60_000 + 60 * 60_000 + 1_000);
    await queueFinalCallbacks(deps);
    expect((await row("cb-unpaid"))?.finalQueuedAt).not.toBeNull();
    // topped up, the same ref_id buys, and its final is queued
    const { creditWallet } = await import("../../src/commerce/wallet/ledger.ts");
    await creditWallet(h.deps.db, {
      userId: key.userId,
      amount: 50_000,
      key: `cb-topup:${key.userId}`,
    });
    const t = await h.client(key).order(request);
    expect(t).toMatchObject({ outcome: "accepted", transaction: { status: "success" } });
    await queueFinalCallbacks(deps);
    expect(await callbackOf(h.deps.db, key.userId, refId)).toMatchObject({ status: "no_url" });
  });
});
