import {
  DEFAULT_GATEWAY_CREDENTIALS,
  midtransSignature,
  NO_GATEWAY_FAULTS,
} from "@kios/gateway-sandbox";
import { asc, desc, eq, like } from "drizzle-orm";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { getPaymentByOrderId } from "../../../src/commerce/payments/payments.ts";
import { sweepPayments } from "../../../src/commerce/payments/resolve.ts";
import { walletBalance } from "../../../src/commerce/wallet/ledger.ts";
import { notifications, orders, payments, transfers } from "../../../src/db/schema.ts";
import { airtimeCard } from "../../e2e/steps.ts";
import { labels } from "../../helpers/chat-driver.ts";
import { testDriver } from "../../helpers/db.ts";
import { E2E_ADMIN, type Journey, startJourney } from "../../helpers/e2e.ts";
import { pngSize } from "../../helpers/png.ts";

// deposits by QRIS in chat, on kios's full start-up with the embedded gateway sandbox: the QR
// as a photo, its caption moving to "✅ Saldo masuk" when the gateway says so (by notification
// or by the status poll), Cancel, the HTTP notification's checks, and "Top up and buy".

const KEY = DEFAULT_GATEWAY_CREDENTIALS.serverKey;

describe(`QRIS deposits in chat (${testDriver})`, () => {
  let j: Journey;
  beforeAll(async () => {
    j = await startJourney({ adminStarted: true });
  });
  afterAll(() => j?.stop());
  afterEach(() => j.app.app.gateway?.sandbox?.setFaults(NO_GATEWAY_FAULTS));

  const sandbox = () => j.app.app.gateway!.sandbox!;
  const db = () => j.app.app.database.db;
  const paymentOf = async (userId: number) => {
    const [row] = await db()
      .select()
      .from(payments)
      .where(eq(payments.userId, userId))
      .orderBy(desc(payments.id))
      .limit(1);
    return row!;
  };
  const qrFor = async (u: number, amount: string) => {
    const at = j.say(u, `/deposit ${amount}`);
    const qr = await j.waitMessage(u, /dengan QRIS/, at);
    return { qr, payment: await paymentOf(u) };
  };
  const notify = (body: Record<string, unknown>) =>
    fetch(`${j.app.baseUrl}/payments/midtrans/notification`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(body),
    });

  it("/deposit 50000 sends the QR; paying it turns the caption into the balance", async () => {
    const u = 71_001;
    j.user(u);
    const { qr, payment } = await qrFor(u, "50000");
    expect(qr.photo?.length).toBeGreaterThan(0);
    expect(qr.caption).toMatch(/^💳 Bayar Rp50\.000 dengan QRIS\nBerlaku sampai \d\d:\d\d WIB\./);
    expect(labels(qr)).toEqual(["🧪 Bayar (sandbox)", "❌ Batal", "🏦 Transfer manual"]);
    const url = qr.reply_markup!.inline_keyboard[0]![0]!;
    expect("url" in url && url.url).toBe(`${sandbox().url}/pay/${payment.gatewayOrderId}`);
    expect(payment).toMatchObject({ status: "pending", amount: 50_000 });

    sandbox().pay(payment.gatewayOrderId);
    const paid = await j.waitEdit(u, qr.message_id, /^✅ Saldo masuk/);
    expect(paid.caption).toBe("✅ Saldo masuk Rp50.000\n💰 Saldo kamu: Rp50.000");
    expect(paid.reply_markup).toBeUndefined();
    expect(await walletBalance(db(), u)).toBe(50_000);
    expect(await getPaymentByOrderId(db(), payment.gatewayOrderId)).toMatchObject({
      status: "paid",
      messageId: qr.message_id,
    });
  });

  it("a settlement whose notification never comes is found by the status poll", async () => {
    const u = 71_002;
    j.user(u);
    sandbox().setFaults({ dropNotifications: true });
    try {
      const { qr, payment } = await qrFor(u, "20000");
      sandbox().pay(payment.gatewayOrderId);
      await j.waitEdit(u, qr.message_id, /Saldo masuk Rp20\.000/);
    } finally {
      sandbox().setFaults({ dropNotifications: false });
    }
    expect(await walletBalance(db(), u)).toBe(20_000);
  });

  it("answers forged, unknown and malformed notifications with 4xx; replays credit once", async () => {
    const u = 71_003;
    j.user(u);
    const { qr, payment } = await qrFor(u, "30000");
    const id = payment.gatewayOrderId;
    const body = {
      order_id: id,
      status_code: "200",
      gross_amount: "30000.00",
      transaction_status: "settlement",
      signature_key: midtransSignature(id, "200", "30000.00", "not-the-key"),
    };
    // forged: the gateway's status is not even asked
    expect((await notify(body)).status).toBe(401);
    expect((await notify({ ...body, signature_key: "zz" })).status).toBe(401);
    const malformed = await fetch(`${j.app.baseUrl}/payments/midtrans/notification`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: "{not json",
    });
    expect(malformed.status).toBe(400);
    const unknown = {
      ...body,
      order_id: "KIOS-NOBODY",
      signature_key: midtransSignature("KIOS-NOBODY", "200", "30000.00", KEY),
    };
    expect((await notify(unknown)).status).toBe(404);
    // signed, but holding what PostgreSQL can't store: a clear 400, not a 500 sent again
    const nul = `${id}\u0000`;
    const unstorable = {
      ...body,
      order_id: nul,
      signature_key: midtransSignature(nul, "200", "30000.00", KEY),
    };
    const refused = await notify(unstorable);
    expect(refused.status).toBe(400);
    expect(await refused.json()).toEqual({ error: "malformed_notification" });
    // a genuine-looking "settlement" before the buyer paid: the status says pending, nothing moves
    const early = { ...body, signature_key: midtransSignature(id, "200", "30000.00", KEY) };
    expect((await notify(early)).status).toBe(200);
    await new Promise((r) => setTimeout(r, 1_500));
    expect((await getPaymentByOrderId(db(), id))?.status).toBe("pending");
    expect(await walletBalance(db(), u)).toBe(0);

    sandbox().pay(id);
    await j.waitEdit(u, qr.message_id, /^✅ Saldo masuk/);
    // the same notification again, and again later: credited once
    sandbox().resend(id);
    expect((await notify(early)).status).toBe(200);
    await sandbox().idle();
    await new Promise((r) => setTimeout(r, 1_000));
    const credits = await db()
      .select()
      .from(transfers)
      .where(eq(transfers.key, `payment:midtrans:${id}`));
    expect(credits).toHaveLength(1);
    expect(await walletBalance(db(), u)).toBe(30_000);
  });

  it("Cancel under the QR cancels it: nothing is charged", async () => {
    const u = 71_004;
    j.user(u);
    const { qr, payment } = await qrFor(u, "25000");
    j.tap(u, qr, /Batal$/);
    const cancelled = await j.waitEdit(u, qr.message_id, /dibatalkan/);
    expect(cancelled.caption).toBe("QR Rp25.000 dibatalkan. Tidak ada yang ditagih.");
    expect(
      sandbox()
        .charges()
        .find((c) => c.orderId === payment.gatewayOrderId)?.status,
    ).toBe("cancel");
  });

  it("an expired QR says so; another amount paid is flagged to the admins, not credited", async () => {
    const u = 71_005;
    j.user(u);
    const a = await qrFor(u, "15000");
    sandbox().expire(a.payment.gatewayOrderId);
    await j.waitEdit(u, a.qr.message_id, /kedaluwarsa/);

    const b = await qrFor(u, "40000");
    const at = j.lastId(E2E_ADMIN);
    sandbox().pay(b.payment.gatewayOrderId, { amount: 4_000 });
    const flagged = await j.waitEdit(u, b.qr.message_id, /tidak sama/);
    expect(flagged.caption).toContain("Dibayar Rp4.000, tidak sama dengan Rp40.000");
    const notice = await j.waitMessage(E2E_ADMIN, /QRIS tidak cocok/, at);
    expect(notice.text).toContain(b.payment.gatewayOrderId);
    expect(await walletBalance(db(), u)).toBe(0);
  });

  it("Top up and buy: a short wallet tops up the shortfall by QR and the card is bought", async () => {
    const u = 71_006;
    j.user(u);
    await j.fund(u, 3_000);
    const card = await airtimeCard(j, u, "081234567001");
    j.tap(u, card, /Bayar/);
    const short = await j.waitEdit(u, card.message_id, /Saldo tidak cukup/);
    const button = labels(short).find((l) => /& beli/.test(l));
    expect(button).toMatch(/^💳 Isi Rp\d{1,3}(\.\d{3})* & beli$/);
    j.tap(u, short, /& beli/);
    const waiting = await j.waitEdit(u, card.message_id, /Menunggu isi saldo/);
    expect(labels(waiting)).toEqual(["❌ Batal"]);
    const qr = await j.waitMessage(u, /dengan QRIS/, card.message_id);
    expect(qr.caption).toContain("pesananmu dibuat otomatis");
    const payment = await paymentOf(u);
    expect(payment).toMatchObject({ purpose: "buy", cardMessageId: card.message_id });
    expect(payment.amount % 10_000).toBe(0);

    sandbox().pay(payment.gatewayOrderId);
    await j.waitEdit(u, qr.message_id, /^✅ Saldo masuk/);
    const done = await j.waitEdit(u, card.message_id, /Berhasil|berhasil/);
    expect(done.text).toMatch(/SN/);
    const after = await getPaymentByOrderId(db(), payment.gatewayOrderId);
    expect(after?.purchase).toBe("placed");
  });

  // a refused or timed-out charge, or a QR that ends unpaid, never leaves the card stuck:
  // it says what happened and offers a new top-up, or Pay once the wallet holds enough
  it("Top up and buy: after any end of the top-up the card says so and offers a way forward", async () => {
    const u = 71_009;
    j.user(u);
    await j.fund(u, 3_000);
    const card = await airtimeCard(j, u, "081234567002");
    j.tap(u, card, /Bayar/);
    const short = await j.waitEdit(u, card.message_id, /Saldo tidak cukup/);
    const topUpLabel = labels(short).find((l) => /& beli/.test(l))!;

    // the gateway refuses the charge
    sandbox().setFaults({ chargeErrorRate: 1 });
    j.tap(u, short, /& beli/);
    const refused = await j.waitEdit(u, card.message_id, /QRIS tidak tersedia/);
    expect(refused.text).toContain("Tidak ada yang ditagih");
    expect(labels(refused)).toEqual([topUpLabel, "💳 Isi saldo", "❌ Batal"]);

    // its answer is lost: the charge may exist, but no QR was shown
    sandbox().setFaults({ chargeErrorRate: 0, chargeLostAnswerRate: 1 });
    j.tap(u, refused, /& beli/);
    const lost = await vi.waitFor(
      async () => {
        // the refused charge (an HTTP 500: kios can't know nothing was made) and this one
        const rows = await db()
          .select()
          .from(payments)
          .where(eq(payments.userId, u))
          .orderBy(asc(payments.id));
        const unseen = rows.filter((r) => r.status === "created" && r.chargingUntil === null);
        expect(unseen).toHaveLength(2);
        return unseen[1]!;
      },
      { timeout: 10_000 },
    );
    sandbox().setFaults({ chargeLostAnswerRate: 0 });

    // a third tap gets its QR: the earlier ones don't hold the card
    const seen = j.lastId(u);
    j.tap(u, await j.waitEdit(u, card.message_id, /QRIS tidak tersedia/), /& beli/);
    const qr = await j.waitMessage(u, /dengan QRIS/, seen);
    await j.waitEdit(u, card.message_id, /Menunggu isi saldo/);
    // the lost charge is found and cancelled at the gateway, never payable unseen
    await vi.waitFor(
      () =>
        expect(
          sandbox()
            .charges()
            .find((c) => c.orderId === lost.gatewayOrderId)?.status,
        ).toBe("cancel"),
      { timeout: 15_000 },
    );

    // the QR expires unpaid, while the wallet got enough by other means: Pay again buys
    await j.fund(u, 20_000);
    const shown = await paymentOf(u);
    sandbox().expire(shown.gatewayOrderId);
    await j.waitEdit(u, qr.message_id, /kedaluwarsa/);
    const expired = await j.waitEdit(u, card.message_id, /kedaluwarsa/);
    expect(labels(expired)).toEqual(["🔁 Bayar lagi", "❌ Batal"]);
    expect(expired.text).toContain("Saldo kamu: Rp23.000");
    j.tap(u, expired, /Bayar lagi/);
    await j.waitEdit(u, card.message_id, /Berhasil|berhasil|diproses/);
    const made = await db().select().from(orders).where(eq(orders.userId, u));
    expect(made).toHaveLength(1);
  });

  // Midtrans's QRIS reference answers a charge with the QR picture's link and no qr_string
  it("a charge answered with the QR's picture only sends that picture, and it pays", async () => {
    const u = 71_010;
    j.user(u);
    sandbox().setFaults({ chargeQr: "image" });
    const { qr, payment } = await qrFor(u, "35000");
    sandbox().setFaults({ chargeQr: "both" });
    expect(payment).toMatchObject({ status: "pending", qrString: null });
    const file = await fetch(`${j.telegram.url}/control/files/${qr.photo!.at(-1)!.file_id}`);
    const sent = Buffer.from(await file.arrayBuffer());
    pngSize(sent);
    const gateways = await fetch(
      `${sandbox().url}/v2/qris/${payment.gatewayTransactionId}/qr-code`,
    );
    expect(sent.equals(Buffer.from(await gateways.arrayBuffer()))).toBe(true);
    sandbox().pay(payment.gatewayOrderId);
    await j.waitEdit(u, qr.message_id, /^✅ Saldo masuk Rp35\.000/);
    expect(await walletBalance(db(), u)).toBe(35_000);
  });

  it("a charge answered without any QR is cancelled at the gateway, never left payable", async () => {
    const u = 71_011;
    j.user(u);
    sandbox().setFaults({ chargeQr: "none" });
    const at = j.say(u, "/deposit 45000");
    await j.waitMessage(u, /QRIS sedang tidak bisa dipakai/, at);
    sandbox().setFaults({ chargeQr: "both" });
    const payment = await paymentOf(u);
    // cancelled at the gateway, then the answer applied
    await vi.waitFor(
      async () =>
        expect((await getPaymentByOrderId(db(), payment.gatewayOrderId))?.status).toBe("cancelled"),
      { timeout: 15_000 },
    );
    expect(
      sandbox()
        .charges()
        .find((c) => c.orderId === payment.gatewayOrderId)?.status,
    ).toBe("cancel");
    // the buyer was never shown it, so is not told it was cancelled either
    const owed = await db()
      .select({ key: notifications.key })
      .from(notifications)
      .where(like(notifications.key, `payment:${payment.id}:%`));
    expect(owed).toEqual([]);
  });

  // the first check is due 3 s after the row is stored; a slow charge's QR is still shown
  it("a slow charge's QR is shown and payable, whatever the sweeper does meanwhile", async () => {
    const u = 71_012;
    j.user(u);
    sandbox().setFaults({ chargeAnswerDelayMs: 3_000 });
    const at = j.say(u, "/deposit 55000");
    const stored = await vi.waitFor(
      async () => {
        const [row] = await db()
          .select()
          .from(payments)
          .where(eq(payments.userId, u))
          .orderBy(asc(payments.id));
        expect(row).toBeDefined();
        return row!;
      },
      { timeout: 10_000, interval: 20 },
    );
    expect(stored.status).toBe("created");
    j.clock.advance(5_000);
    await sweepPayments(j.app.app.payments!);
    const qr = await j.waitMessage(u, /dengan QRIS/, at);
    sandbox().setFaults({ chargeAnswerDelayMs: 0 });
    expect(
      sandbox()
        .charges()
        .find((c) => c.orderId === stored.gatewayOrderId)?.status,
    ).toBe("pending");
    sandbox().pay(stored.gatewayOrderId);
    await j.waitEdit(u, qr.message_id, /^✅ Saldo masuk Rp55\.000/);
    expect(
      j.chat(u).messages.filter((m) => /dibatalkan|gangguan/.test(m.text ?? m.caption ?? "")),
    ).toEqual([]);
  });

  it("the Isi saldo button's flow ends in the QR too", async () => {
    const u = 71_007;
    j.user(u);
    const at = j.say(u, "/saldo");
    const balance = await j.waitMessage(u, /Saldo kamu/, at);
    j.tap(u, balance, /Isi saldo/);
    const ask = await j.waitMessage(u, /Mau isi saldo berapa/, balance.message_id);
    j.tap(u, ask, /^Rp100\.000$/);
    const qr = await j.waitMessage(u, /Bayar Rp100\.000 dengan QRIS/, ask.message_id);
    const payment = await paymentOf(u);
    expect(payment).toMatchObject({ amount: 100_000, status: "pending" });
    sandbox().pay(payment.gatewayOrderId);
    await j.waitEdit(u, qr.message_id, /^✅ Saldo masuk Rp100\.000/);
    expect(await walletBalance(db(), u)).toBe(100_000);
  });

  it("admins see QRIS top-ups in /stats and look one up with /payment; others can't", async () => {
    const u = 71_008;
    j.user(u);
    const a = await qrFor(u, "50000");
    sandbox().pay(a.payment.gatewayOrderId);
    await j.waitEdit(u, a.qr.message_id, /^✅ Saldo masuk/);
    const b = await qrFor(u, "20000");
    sandbox().pay(b.payment.gatewayOrderId, { amount: 2_000 });
    await j.waitEdit(u, b.qr.message_id, /tidak sama/);
    const paid = a.payment;

    let at = j.say(E2E_ADMIN, "/stats");
    const stats = await j.waitMessage(E2E_ADMIN, /QRIS: hari ini/, at);
    expect(stats.text).toMatch(
      /💳 QRIS: hari ini \d+ masuk \(Rp[\d.]+\), 7 hari \d+ \(Rp[\d.]+\); terbuka \d+/,
    );
    expect(stats.text).toMatch(/pembayaran QRIS tidak cocok dalam 7 hari/);

    at = j.say(E2E_ADMIN, `/payment ${paid.gatewayOrderId}`);
    const shown = await j.waitMessage(E2E_ADMIN, /Isi saldo QRIS #/, at);
    expect(shown.text).toContain(
      `Order: ${paid.gatewayOrderId} · user 71008 · Rp50.000 · status paid`,
    );
    at = j.say(E2E_ADMIN, `/payment ${paid.id}`);
    expect((await j.waitMessage(E2E_ADMIN, /Isi saldo QRIS #/, at)).text).toContain(
      paid.gatewayOrderId,
    );
    at = j.say(E2E_ADMIN, "/payment NOPE");
    await j.waitMessage(E2E_ADMIN, /Gunakan: \/payment/, at);

    at = j.say(u, `/payment ${paid.id}`);
    await j.waitMessage(u, /Perintah tidak dikenal/, at);
  });
});

describe(`QRIS deposits without the manual transfer (${testDriver})`, () => {
  let j: Journey;
  beforeAll(async () => {
    j = await startJourney({ env: { DEPOSIT_MANUAL: "false" } });
  });
  afterAll(() => j?.stop());

  it("offers the QR alone", async () => {
    const u = 72_001;
    j.user(u);
    const at = j.say(u, "/deposit 50000");
    const qr = await j.waitMessage(u, /dengan QRIS/, at);
    expect(labels(qr)).toEqual(["🧪 Bayar (sandbox)", "❌ Batal"]);
  });
});
