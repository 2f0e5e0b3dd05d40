import { listen, ManualClock, type RunningServer } from "@kios/kit";
import { Hono } from "hono";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import {
  DEFAULT_GATEWAY_CREDENTIALS,
  midtransSignature,
  NO_GATEWAY_FAULTS,
  type RunningGatewaySandbox,
  startGatewaySandbox,
} from "../index.ts";

// the gateway sandbox over real HTTP: Midtrans's QRIS charge, status, cancel and signed
// notifications, the pay page, and each fault.

const KEY = DEFAULT_GATEWAY_CREDENTIALS.serverKey;
const auth = (key: string = KEY) => `Basic ${Buffer.from(`${key}:`).toString("base64")}`;

describe("gateway sandbox", () => {
  let sandbox: RunningGatewaySandbox;
  let receiver: RunningServer;
  const received: Record<string, unknown>[] = [];
  let answer = 200;
  const clock = new ManualClock({ start: Date.UTC(2026, 10, 24, 3, 0, 0), frozen: true });

  beforeAll(async () => {
    const app = new Hono().post("/notify", async (c) => {
      received.push((await c.req.json()) as Record<string, unknown>);
      return c.json({ ok: true }, answer as 200);
    });
    receiver = await listen(app, 0, "127.0.0.1");
    sandbox = await startGatewaySandbox({
      clock,
      notificationUrl: `http://127.0.0.1:${receiver.port}/notify`,
      notificationRetryDelaysMs: [10, 10],
    });
  });
  afterAll(async () => {
    await sandbox?.close();
    await receiver?.close();
  });
  afterEach(async () => {
    await sandbox.idle();
    sandbox.setFaults(NO_GATEWAY_FAULTS);
    received.length = 0;
    answer = 200;
  });

  let n = 0;
  const charge = async (amount = 50_000, extra: object = {}) => {
    const orderId = `T-${++n}`;
    const res = await fetch(`${sandbox.url}/v2/charge`, {
      method: "POST",
      headers: { authorization: auth(), "content-type": "application/json" },
      body: JSON.stringify({
        payment_type: "qris",
        transaction_details: { order_id: orderId, gross_amount: amount },
        ...extra,
      }),
    });
    return { orderId, res, body: (await res.json()) as Record<string, unknown> };
  };
  const status = async (orderId: string) => {
    const res = await fetch(`${sandbox.url}/v2/${orderId}/status`, {
      headers: { authorization: auth() },
    });
    return { res, body: (await res.json()) as Record<string, unknown> };
  };

  it("charges a QRIS payment as Midtrans answers it", async () => {
    const { orderId, res, body } = await charge(50_000, {
      custom_expiry: { expiry_duration: 10, unit: "minute" },
    });
    expect(res.status).toBe(200);
    expect(body).toMatchObject({
      status_code: "201",
      order_id: orderId,
      gross_amount: "50000.00",
      currency: "IDR",
      payment_type: "qris",
      transaction_status: "pending",
      transaction_time: "2026-11-24 10:00:00",
      expiry_time: "2026-11-24 10:10:00",
    });
    expect(String(body.qr_string)).toMatch(/^000201.*5405500005802ID.*6304[0-9A-F]{4}$/);
    const actions = body.actions as { name: string; url: string }[];
    expect(actions[0]?.name).toBe("generate-qr-code");
    const png = await fetch(actions[0]!.url);
    expect(png.headers.get("content-type")).toBe("image/png");
    const bytes = Buffer.from(await png.arrayBuffer());
    expect(bytes.subarray(1, 4).toString("latin1")).toBe("PNG");
    expect(bytes.length).toBeGreaterThan(200);
    expect((await status(orderId)).body).toMatchObject({
      status_code: "201",
      transaction_status: "pending",
    });
  });

  it("refuses a wrong key, a used order id and bad input, in Midtrans's shapes", async () => {
    const wrong = await fetch(`${sandbox.url}/v2/x/status`, {
      headers: { authorization: auth("nope") },
    });
    expect(wrong.status).toBe(401);
    expect(await wrong.json()).toMatchObject({ status_code: "401" });
    expect((await fetch(`${sandbox.url}/v2/x/status`)).status).toBe(401);

    const first = await charge();
    const again = await fetch(`${sandbox.url}/v2/charge`, {
      method: "POST",
      headers: { authorization: auth(), "content-type": "application/json" },
      body: JSON.stringify({
        payment_type: "qris",
        transaction_details: { order_id: first.orderId, gross_amount: 1000 },
      }),
    });
    expect(again.status).toBe(406);
    expect(await again.json()).toMatchObject({ status_code: "406" });

    const bad = await charge(-5);
    expect(bad.res.status).toBe(400);
    expect(bad.body.validation_messages).toEqual([expect.stringMatching(/gross_amount/)]);
    const unknown = await status("NOPE");
    expect(unknown.res.status).toBe(404);
    expect(unknown.body).toMatchObject({ status_code: "404" });
  });

  it("settles on pay and sends one notification signed with the server key", async () => {
    const { orderId } = await charge(75_000);
    sandbox.pay(orderId);
    await sandbox.idle();
    expect(received).toHaveLength(1);
    const note = received[0]!;
    expect(note).toMatchObject({
      order_id: orderId,
      status_code: "200",
      transaction_status: "settlement",
      gross_amount: "75000.00",
    });
    expect(note.signature_key).toBe(midtransSignature(orderId, "200", "75000.00", KEY));
    expect((await status(orderId)).body).toMatchObject({ transaction_status: "settlement" });
    // final: a second pay changes nothing and sends nothing
    sandbox.pay(orderId);
    await sandbox.idle();
    expect(received).toHaveLength(1);
  });

  it("carries another amount when a test pays one (a mismatch)", async () => {
    const { orderId } = await charge(50_000);
    sandbox.pay(orderId, { amount: 5_000 });
    await sandbox.idle();
    expect(received[0]).toMatchObject({ gross_amount: "5000.00" });
    expect((await status(orderId)).body).toMatchObject({ gross_amount: "5000.00" });
  });

  it("expires by the clock, denies and cancels", async () => {
    const a = await charge(10_000, { custom_expiry: { expiry_duration: 1, unit: "minute" } });
    clock.advance(61_000);
    sandbox.expireDue();
    expect((await status(a.orderId)).body).toMatchObject({
      transaction_status: "expire",
      status_code: "407",
    });
    const b = await charge();
    sandbox.deny(b.orderId);
    expect((await status(b.orderId)).body).toMatchObject({ transaction_status: "deny" });
    const c = await charge();
    const cancel = await fetch(`${sandbox.url}/v2/${c.orderId}/cancel`, {
      method: "POST",
      headers: { authorization: auth() },
    });
    expect(await cancel.json()).toMatchObject({ status_code: "200", transaction_status: "cancel" });
    const late = await fetch(`${sandbox.url}/v2/${c.orderId}/cancel`, {
      method: "POST",
      headers: { authorization: auth() },
    });
    expect(late.status).toBe(412);
    await sandbox.idle();
    expect(received.map((r) => r.transaction_status).sort()).toEqual(["cancel", "deny", "expire"]);
  });

  it("retries a notification the merchant did not take", async () => {
    answer = 500;
    const { orderId } = await charge();
    sandbox.pay(orderId);
    await sandbox.idle();
    expect(received).toHaveLength(3);
    expect(
      sandbox
        .notifications()
        .filter((s) => s.orderId === orderId)
        .map((s) => s.status),
    ).toEqual([500, 500, 500]);
  });

  it("faults: dropped, doubled, forged, replayed notifications and failing status", async () => {
    sandbox.setFaults({ dropNotifications: true });
    const a = await charge();
    sandbox.pay(a.orderId);
    await sandbox.idle();
    expect(received).toHaveLength(0);
    expect((await status(a.orderId)).body).toMatchObject({ transaction_status: "settlement" });

    sandbox.setFaults({ dropNotifications: false, duplicateNotifications: true });
    const b = await charge();
    sandbox.pay(b.orderId);
    await sandbox.idle();
    expect(received).toHaveLength(2);

    received.length = 0;
    sandbox.setFaults({ duplicateNotifications: false, forgeNotifications: true });
    const c = await charge(20_000);
    sandbox.pay(c.orderId);
    await sandbox.idle();
    expect(received[0]?.signature_key).not.toBe(
      midtransSignature(c.orderId, "200", "20000.00", KEY),
    );

    received.length = 0;
    sandbox.setFaults({ forgeNotifications: false });
    sandbox.resend(b.orderId);
    await sandbox.idle();
    expect(received).toHaveLength(1);
    expect(received[0]).toMatchObject({ order_id: b.orderId });

    sandbox.setFaults({ statusErrorRate: 1 });
    expect((await status(b.orderId)).res.status).toBe(500);
    sandbox.setFaults({ statusErrorRate: 0, chargeErrorRate: 1 });
    expect((await charge()).res.status).toBe(500);
    sandbox.setFaults({ chargeErrorRate: 0, chargeLostAnswerRate: 1 });
    const lost = await charge();
    expect(lost.res.status).toBe(504);
    sandbox.setFaults({ chargeLostAnswerRate: 0 });
    // its answer was lost, but the charge exists
    expect((await status(lost.orderId)).body).toMatchObject({ transaction_status: "pending" });
  });

  it("serves a pay page whose buttons pay, deny or expire the charge", async () => {
    const { orderId } = await charge(30_000);
    const page = await fetch(`${sandbox.url}/pay/${orderId}`);
    const html = await page.text();
    expect(html).toContain("Rp30000.00");
    expect(html).toContain('id="pay"');
    const paid = await fetch(`${sandbox.url}/pay/${orderId}/pay`, {
      method: "POST",
      redirect: "manual",
    });
    expect(paid.status).toBe(303);
    expect(await (await fetch(`${sandbox.url}/pay/${orderId}`)).text()).toContain(
      '<strong id="status">settlement</strong>',
    );
    expect((await fetch(`${sandbox.url}/pay/NOPE`)).status).toBe(404);
  });

  it("has a control API for scripts", async () => {
    const { orderId } = await charge(40_000);
    const res = await fetch(`${sandbox.url}/_control/charges/${orderId}/pay`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ amount: 40_000 }),
    });
    expect(await res.json()).toEqual({ ok: true, status: "settlement" });
    const list = (await (await fetch(`${sandbox.url}/_control/charges`)).json()) as {
      charges: { orderId: string }[];
    };
    expect(list.charges.some((c) => c.orderId === orderId)).toBe(true);
    expect(
      (await fetch(`${sandbox.url}/_control/charges/NOPE/pay`, { method: "POST" })).status,
    ).toBe(404);
  });
});
