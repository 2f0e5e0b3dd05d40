import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { cancelQuote } from "../../../src/commerce/orders/cancel.ts";
import { confirmQuote } from "../../../src/commerce/orders/place.ts";
import type { PaymentEngine } from "../../../src/commerce/payments/engine.ts";
import {
  applyGatewayStatus,
  getPayment,
  type Payment,
  startPayment,
} from "../../../src/commerce/payments/payments.ts";
import {
  cancelPayment,
  completePurchase,
  resolvePayment,
  sweepPayments,
} from "../../../src/commerce/payments/resolve.ts";
import { walletBalance } from "../../../src/commerce/wallet/ledger.ts";
import { verifyLedger } from "../../../src/commerce/wallet/verify.ts";
import { notifications, orders, payments, transfers } from "../../../src/db/schema.ts";
import { bootCommerce, type CommerceHarness } from "../../helpers/commerce.ts";
import { testDriver } from "../../helpers/db.ts";
import { createFakeGateway, type FakeGateway } from "../../helpers/fake-gateway.ts";

// deposits through a payment gateway keep the money rules of orders: stored before the
// gateway is asked, credited once and only on the gateway's own "paid" for the exact amount,
// forward only; a paid "Top up and buy" buys its card once, and never a cancelled one.

describe(`gateway payments (${testDriver})`, () => {
  let h: CommerceHarness;
  let gateway: FakeGateway;
  let deps: PaymentEngine;
  beforeAll(async () => {
    h = await bootCommerce();
    gateway = createFakeGateway();
    deps = { gateway, orders: h.deps, expiryMinutes: 15, depositStep: 10_000 };
  });
  afterAll(() => h?.stop());

  const db = () => h.deps.db;
  const start = async (userId: number, amount = 50_000) => {
    const r = await startPayment(deps, { userId, chatId: userId, amount });
    if (!r.ok) throw new Error(`refused: ${r.reason}`);
    return r.payment;
  };
  const creditsOf = async (p: Payment) =>
    (
      await db()
        .select()
        .from(transfers)
        .where(eq(transfers.key, `payment:${p.gateway}:${p.gatewayOrderId}`))
    ).length;
  const notificationsOf = async (p: Payment) =>
    (
      await db()
        .select({ key: notifications.key, chatId: notifications.chatId })
        .from(notifications)
        .where(sql`${notifications.key} like ${`payment:${p.id}:%`}`)
    ).map((n) => n.key);

  it("stores the payment before the gateway is asked, then shows its QR", async () => {
    const user = await h.newUser();
    let seen: string[] = [];
    gateway.onCreate = async (orderId) => {
      const rows = await db().select().from(payments).where(eq(payments.gatewayOrderId, orderId));
      seen = rows.map((r) => r.status);
    };
    const p = await start(user);
    gateway.onCreate = undefined;
    expect(seen).toEqual(["created"]);
    expect(p.status).toBe("pending");
    expect(p.qrString).toContain("QRIS");
    expect(p.amount).toBe(50_000);
    expect(await walletBalance(db(), user)).toBe(0);
  });

  it("refuses amounts outside the shop's deposit limits", async () => {
    const user = await h.newUser();
    expect(await startPayment(deps, { userId: user, chatId: user, amount: 9_999 })).toMatchObject({
      ok: false,
      reason: "amount_too_small",
    });
    expect(
      await startPayment(deps, { userId: user, chatId: user, amount: 20_000_000 }),
    ).toMatchObject({ ok: false, reason: "amount_too_large" });
  });

  it("credits a settlement only the status poll sees, once, however often it is applied", async () => {
    const user = await h.newUser();
    const p = await start(user, 75_000);
    expect((await resolvePayment(deps, p.id))?.status).toBe("pending");
    expect(await walletBalance(db(), user)).toBe(0);

    gateway.pay(p.gatewayOrderId);
    expect((await resolvePayment(deps, p.id))?.status).toBe("paid");
    // a late notification, a duplicate poll, a replayed status: nothing more
    await resolvePayment(deps, p.id);
    await applyGatewayStatus(deps, p.id, {
      orderId: p.gatewayOrderId,
      state: "paid",
      amount: 75_000,
      raw: "settlement",
    });
    expect(await walletBalance(db(), user)).toBe(75_000);
    expect(await creditsOf(p)).toBe(1);
    expect(await notificationsOf(p)).toEqual([`payment:${p.id}:final`]);
    expect((await verifyLedger(h.database.handle)).ok).toBe(true);
  });

  it("flags a payment of another amount to the admins and credits nothing", async () => {
    const user = await h.newUser();
    const p = await start(user, 50_000);
    gateway.pay(p.gatewayOrderId, 5_000);
    const after = await resolvePayment(deps, p.id);
    expect(after).toMatchObject({ status: "mismatch", paidAmount: 5_000 });
    expect(await walletBalance(db(), user)).toBe(0);
    expect(await creditsOf(p)).toBe(0);
    expect((await notificationsOf(p)).sort()).toEqual(
      [`payment:${p.id}:final`, `payment:${p.id}:mismatch:1`].sort(),
    );
  });

  it("credits nothing for an expired, cancelled or denied payment, and keeps it final", async () => {
    for (const state of ["expired", "cancelled", "denied"] as const) {
      const user = await h.newUser();
      const p = await start(user);
      gateway.set(p.gatewayOrderId, state);
      expect((await resolvePayment(deps, p.id))?.status).toBe(state);
      // a "paid" heard after it is final moves nothing (forward only)
      gateway.pay(p.gatewayOrderId);
      expect((await resolvePayment(deps, p.id))?.status).toBe(state);
      expect(await walletBalance(db(), user)).toBe(0);
    }
  });

  it("asks again later when the gateway can't answer, and credits when it can", async () => {
    const user = await h.newUser();
    const p = await start(user);
    gateway.pay(p.gatewayOrderId);
    gateway.statusDown = true;
    const during = await resolvePayment(deps, p.id);
    gateway.statusDown = false;
    expect(during?.status).toBe("pending");
    const row = await getPayment(db(), p.id);
    expect(row?.checks).toBe(1);
    expect(row?.nextCheckAt?.getTime()).toBeGreaterThan(h.clock.now());
    // the sweeper finds it once it is due
    h.clock.advance(60_000);
    await sweepPayments(deps);
    expect((await getPayment(db(), p.id))?.status).toBe("paid");
    expect(await walletBalance(db(), user)).toBe(50_000);
  });

  it("survives a crash between the status answer and the credit: credited once after", async () => {
    const user = await h.newUser();
    const p = await start(user);
    gateway.pay(p.gatewayOrderId);
    // the credit's transaction dies half-way (as a killed process's would): nothing of it stays
    const handle = h.database.handle;
    await handle.executeSql(`create or replace function kios_test_crash() returns trigger
      language plpgsql as $$ begin raise exception 'crash'; end $$`);
    await handle.executeSql(`create trigger kios_test_crash before insert on transfers
      for each row execute function kios_test_crash()`);
    try {
      await expect(resolvePayment(deps, p.id)).rejects.toThrow();
    } finally {
      await handle.executeSql("drop trigger kios_test_crash on transfers");
    }
    expect((await getPayment(db(), p.id))?.status).toBe("pending");
    expect(await walletBalance(db(), user)).toBe(0);
    expect(await notificationsOf(p)).toEqual([]);
    // the resolver's next look credits it, once
    await resolvePayment(deps, p.id);
    await resolvePayment(deps, p.id);
    expect(await walletBalance(db(), user)).toBe(50_000);
    expect(await creditsOf(p)).toBe(1);
  });

  it("never loses a charge whose answer was lost: it is found and cancelled, never payable unseen", async () => {
    const user = await h.newUser();
    gateway.loseNextCreateAnswer();
    const r = await startPayment(deps, { userId: user, chatId: user, amount: 50_000 });
    expect(r).toMatchObject({ ok: false, reason: "gateway_unavailable" });
    const stored = r.ok ? undefined : "payment" in r ? r.payment : undefined;
    expect(stored?.status).toBe("created");
    // the gateway did make it: the buyer never saw its QR, so it is cancelled there
    const after = await resolvePayment(deps, stored!.id);
    expect(after?.status).toBe("cancelled");
    expect(gateway.payments.get(stored!.gatewayOrderId)?.state).toBe("cancelled");
  });

  // the charge call may take up to its timeout, while the first check is due 3 s after the row
  // is stored: the sweeper (or a notification's check) must not cancel a QR the buyer is
  // about to see
  it("a payment whose charge is still under way is not the sweeper's, nor a notification's", async () => {
    const user = await h.newUser();
    let looked: Payment | undefined;
    gateway.onCreate = async (orderId) => {
      h.clock.advance(5_000); // the charge's answer is slow: its first check is past due
      await sweepPayments(deps);
      const [row] = await db().select().from(payments).where(eq(payments.gatewayOrderId, orderId));
      looked = await resolvePayment(deps, row!.id); // the gateway's "pending" notification
    };
    try {
      const r = await startPayment(deps, { userId: user, chatId: user, amount: 50_000 });
      expect(looked?.status).toBe("created");
      expect(r).toMatchObject({ ok: true, payment: { status: "pending" } });
      const p = r.ok ? r.payment : looked!;
      expect(p.qrString).toContain("QRIS");
      expect(gateway.payments.get(p.gatewayOrderId)?.state).toBe("pending");
      expect(await notificationsOf(p)).toEqual([]);
      // and once it is shown, it is the resolver's like any other
      gateway.pay(p.gatewayOrderId);
      expect((await resolvePayment(deps, p.id))?.status).toBe("paid");
      expect(await walletBalance(db(), user)).toBe(50_000);
    } finally {
      gateway.onCreate = undefined;
    }
  });

  it("a charge's answer that comes after its payment was settled is reconciled, never shown", async () => {
    const user = await h.newUser();
    gateway.onCreate = async () => {
      // the answer is so late that the charge was taken for lost: the sweeper cancels it
      h.clock.advance(5 * 60_000);
      await sweepPayments(deps);
    };
    let r: Awaited<ReturnType<typeof startPayment>>;
    try {
      r = await startPayment(deps, { userId: user, chatId: user, amount: 50_000 });
    } finally {
      gateway.onCreate = undefined;
    }
    expect(r).toMatchObject({ ok: false, reason: "gateway_unavailable" });
    const [row] = await db().select().from(payments).where(eq(payments.userId, user));
    expect(row?.status).toBe("cancelled");
    expect(gateway.payments.get(row!.gatewayOrderId)?.state).toBe("cancelled");
    // the buyer never saw this QR: no "QR cancelled" for it either
    expect(await notificationsOf(row!)).toEqual([]);
    expect(await walletBalance(db(), user)).toBe(0);
  });

  it("a charge the gateway never got is failed once it can no longer appear", async () => {
    const user = await h.newUser();
    const [row] = await db()
      .insert(payments)
      .values({
        gateway: "fake",
        gatewayOrderId: `KIOS-NEVER-${user}`,
        userId: user,
        chatId: user,
        purpose: "deposit",
        amount: 50_000,
        createdAt: new Date(h.clock.now()),
        expiresAt: new Date(h.clock.now() + 15 * 60_000),
        nextCheckAt: new Date(h.clock.now()),
      })
      .returning();
    expect((await resolvePayment(deps, row!.id))?.status).toBe("created");
    h.clock.advance(11 * 60_000);
    expect((await resolvePayment(deps, row!.id))?.status).toBe("failed");
  });

  it("Cancel under a QR cancels it at the gateway; one paid meanwhile is credited instead", async () => {
    const user = await h.newUser();
    const p = await start(user);
    expect(await cancelPayment(deps, { paymentId: p.id, userId: user })).toMatchObject({
      state: "cancelled",
    });
    expect(gateway.payments.get(p.gatewayOrderId)?.state).toBe("cancelled");

    const q = await start(user, 60_000);
    gateway.pay(q.gatewayOrderId);
    expect(await cancelPayment(deps, { paymentId: q.id, userId: user })).toMatchObject({
      state: "final",
      payment: { status: "paid" },
    });
    expect(await walletBalance(db(), user)).toBe(60_000);
    // someone else's payment is not theirs to cancel
    const other = await h.newUser();
    expect(await cancelPayment(deps, { paymentId: q.id, userId: other })).toEqual({
      state: "not_found",
    });
  });

  describe("Top up and buy", () => {
    const buy = async (balance: number) => {
      const user = await h.newUser(balance);
      const quote = await h.quote(user);
      const refused = await confirmQuote(h.deps, { quoteId: quote.id, userId: user });
      expect(refused).toMatchObject({ ok: false, reason: "insufficient_balance" });
      const r = await startPayment(deps, {
        userId: user,
        chatId: user,
        amount: 20_000,
        purpose: "buy",
        quoteId: quote.id,
        cardMessageId: 77,
        skipMinimum: true,
      });
      if (!r.ok) throw new Error(r.reason);
      return { user, quote, payment: r.payment };
    };
    const ordersOf = async (quoteId: string) =>
      db().select().from(orders).where(eq(orders.confirmKey, quoteId));

    it("places the card's order once the top-up is paid, once however often it runs", async () => {
      const { user, quote, payment } = await buy(1_000);
      gateway.pay(payment.gatewayOrderId);
      const after = await resolvePayment(deps, payment.id);
      expect(after?.purchase).toBe("placed");
      await resolvePayment(deps, payment.id);
      await completePurchase(deps, (await getPayment(db(), payment.id))!);
      await sweepPayments(deps);
      const made = await ordersOf(quote.id);
      expect(made).toHaveLength(1);
      expect(made[0]?.messageId).toBe(77);
      expect(await walletBalance(db(), user)).toBe(1_000 + 20_000 - quote.price);
      expect(await notificationsOf(payment)).toContain(`payment:${payment.id}:purchase`);
    });

    it("buys nothing when the buyer cancelled the card; the top-up stays in the wallet", async () => {
      const { user, quote, payment } = await buy(1_000);
      await cancelQuote(db(), { quoteId: quote.id, userId: user, now: new Date(h.clock.now()) });
      gateway.pay(payment.gatewayOrderId);
      expect((await resolvePayment(deps, payment.id))?.purchase).toBe("cancelled");
      expect(await ordersOf(quote.id)).toHaveLength(0);
      expect(await walletBalance(db(), user)).toBe(21_000);
    });

    it("Cancel under its QR voids the card first, so a payment landing then buys nothing", async () => {
      const { user, quote, payment } = await buy(1_000);
      gateway.pay(payment.gatewayOrderId); // paid just before the tap reached kios
      const r = await cancelPayment(deps, { paymentId: payment.id, userId: user });
      expect(r).toMatchObject({
        state: "final",
        payment: { status: "paid", purchase: "cancelled" },
      });
      expect(await ordersOf(quote.id)).toHaveLength(0);
      expect(await walletBalance(db(), user)).toBe(21_000);
    });

    it("offers a fresh card instead when the quote ran out before the payment", async () => {
      const { user, quote, payment } = await buy(1_000);
      h.clock.advance(60 * 60_000); // the quote's life is past
      gateway.pay(payment.gatewayOrderId);
      expect((await resolvePayment(deps, payment.id))?.purchase).toBe("fresh_card");
      expect(await ordersOf(quote.id)).toHaveLength(0);
      expect(await walletBalance(db(), user)).toBe(21_000);
    });

    const again = (user: number, quoteId: string) =>
      startPayment(deps, {
        userId: user,
        chatId: user,
        amount: 20_000,
        purpose: "buy",
        quoteId,
        skipMinimum: true,
      });

    // a top-up that ended without being paid, or whose QR was never shown, leaves the card
    // free for another: "QR already sent" only while a QR of it can still be paid
    it("gives the card back after a refused or timed-out charge, or an unpaid QR", async () => {
      const user = await h.newUser(1_000);
      const quote = await h.quote(user);
      gateway.refuseNextCreate();
      expect(await again(user, quote.id)).toMatchObject({
        ok: false,
        reason: "gateway_unavailable",
      });
      gateway.loseNextCreateAnswer();
      const lost = await again(user, quote.id);
      expect(lost).toMatchObject({ ok: false, reason: "gateway_unavailable" });
      const shown = await again(user, quote.id);
      expect(shown).toMatchObject({ ok: true, payment: { status: "pending" } });
      // while it can be paid, it is the card's one QR
      expect(await again(user, quote.id)).toEqual({ ok: false, reason: "duplicate" });
      const first = shown.ok ? shown.payment : undefined;
      gateway.set(first!.gatewayOrderId, "expired");
      expect((await resolvePayment(deps, first!.id))?.status).toBe("expired");
      const next = await again(user, quote.id);
      expect(next).toMatchObject({ ok: true, payment: { status: "pending" } });

      // the lost charge is found and cancelled; the one QR shown last buys the card, once
      const unseen = lost.ok ? undefined : "payment" in lost ? lost.payment : undefined;
      expect((await resolvePayment(deps, unseen!.id))?.status).toBe("cancelled");
      const paid = next.ok ? next.payment : undefined;
      gateway.pay(paid!.gatewayOrderId);
      expect((await resolvePayment(deps, paid!.id))?.purchase).toBe("placed");
      expect(await ordersOf(quote.id)).toHaveLength(1);
      expect(await walletBalance(db(), user)).toBe(1_000 + 20_000 - quote.price);
    });

    it("asks for one QR per card", async () => {
      const { user, quote } = await buy(1_000);
      const again = await startPayment(deps, {
        userId: user,
        chatId: user,
        amount: 20_000,
        purpose: "buy",
        quoteId: quote.id,
        skipMinimum: true,
      });
      expect(again).toEqual({ ok: false, reason: "duplicate" });
    });
  });

  // a race only PostgreSQL can show (PGlite runs one transaction at a time)
  it("credits once when many checks of one paid payment race", async () => {
    const user = await h.newUser();
    const p = await start(user, 90_000);
    gateway.pay(p.gatewayOrderId);
    await Promise.all(Array.from({ length: 12 }, () => resolvePayment(deps, p.id)));
    expect(await walletBalance(db(), user)).toBe(90_000);
    expect(await creditsOf(p)).toBe(1);
    expect(await notificationsOf(p)).toEqual([`payment:${p.id}:final`]);
  });
});
