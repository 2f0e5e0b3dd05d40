import { asc, eq } from "drizzle-orm";
import { afterEach, describe, expect, it } from "vitest";
import { attemptsLine } from "../../../src/bot/admin/order-lines.ts";
import { statsText } from "../../../src/bot/reports/daily.ts";
import { createI18n, translator } from "../../../src/bot/ui/i18n.ts";
import { changeRoute } from "../../../src/commerce/catalogue/routes.ts";
import { failoverSaves, supplierFigures } from "../../../src/commerce/orders/attempt-stats.ts";
import { confirmQuote } from "../../../src/commerce/orders/place.ts";
import { attemptsOfOrders, findUserOrder, getOrder } from "../../../src/commerce/orders/queries.ts";
import { resolveOrder } from "../../../src/commerce/orders/resolve.ts";
import { openAttempts } from "../../../src/commerce/orders/routing.ts";
import { walletBalance } from "../../../src/commerce/wallet/ledger.ts";
import { notifications, orderAttempts, supplierBalanceChecks } from "../../../src/db/schema.ts";
import { type Supplier, SupplierError } from "../../../src/supplier/types.ts";
import { timingOutSupplier } from "../../helpers/commerce.ts";
import { testDriver } from "../../helpers/db.ts";
import {
  BOOTS_IN_EACH_TEST,
  bootTwoSuppliers,
  type TwoSuppliers,
} from "../../helpers/two-suppliers.ts";

// design rule 15: a second supplier only on proof that nothing was formed at the first;
// never on a timeout, a 5xx, pending or the destination's fault. docs/suppliers.md

describe(`failover between two suppliers (${testDriver})`, BOOTS_IN_EACH_TEST, () => {
  let h: TwoSuppliers | undefined;
  afterEach(async () => {
    await h?.stop();
    h = undefined;
  });

  async function attemptsOf(orderId: number) {
    return h!.deps.db
      .select()
      .from(orderAttempts)
      .where(eq(orderAttempts.orderId, orderId))
      .orderBy(asc(orderAttempts.seq));
  }

  async function buy(destination: string, productCode = "TSEL10") {
    const user = await h!.newUser(100_000);
    const q = await h!.quote(user, destination, productCode);
    const result = await confirmQuote(h!.engine, { quoteId: q.id, userId: user });
    if (!result.ok) throw new Error(result.reason);
    return { user, quote: q, order: result.order };
  }

  const backupRequests = () => h!.backupSandbox.requests();
  const mainRequests = () => h!.sandbox.requests();

  it("buys a product inactive at the first from the second, in one confirmation", async () => {
    h = await bootTwoSuppliers();
    // kios's catalogue still says active; the main supplier refuses it now
    h.sandbox.setActive("TSEL10", false);
    const { user, quote, order } = await buy("081234560901");
    expect(order.status).toBe("success");
    expect(order.supplier).toBe("backup");
    expect(order.routeCode).toBe("BTSEL10");
    const attempts = await attemptsOf(order.id);
    expect(
      attempts.map((a) => [a.seq, a.supplier, a.supplierCode, a.status, a.answerCode]),
    ).toEqual([
      [1, "main", "TSEL10", "rejected", "PRODUCT_INACTIVE"],
      [2, "backup", "BTSEL10", "success", "ORDER_SUCCESS"],
    ]);
    // a new ref_id for the new attempt; the order carries the one that succeeded
    expect(attempts[1]!.refId).not.toBe(attempts[0]!.refId);
    expect(order.refId).toBe(attempts[1]!.refId);
    expect(attempts[1]!.reroutedFor).toBe("PRODUCT_INACTIVE");
    // one sale: charged once, at the price the buyer was quoted; the backup's cost captured
    expect(await walletBalance(h.deps.db, user)).toBe(100_000 - quote.price);
    expect(order.cost).toBe(attempts[1]!.cost);
    expect(backupRequests()).toHaveLength(1);
    expect(h.backupSandbox.transactions().filter((t) => t.status === "success")).toHaveLength(1);
    expect(h.sandbox.transactions()).toHaveLength(0);
    // the buyer never sees routing: the ref first shown still finds the order
    expect((await findUserOrder(h.deps.db, user, attempts[0]!.refId))?.id).toBe(order.id);
    expect(await findUserOrder(h.deps.db, user + 1, attempts[0]!.refId)).toBeUndefined();
    // the admins see where it went, and count the sale the re-route saved
    const lines = await attemptsOfOrders(h.deps.db, [order.id]);
    expect(attemptsLine(lines.get(order.id)!)).toBe("main ✗ PRODUCT_INACTIVE → backup ✓");
    const since = new Date(h.clock.now() - 86_400_000);
    expect(await failoverSaves(h.deps.db, since)).toBe(1);
    expect(
      (await supplierFigures(h.deps.db, since)).map((f) => [f.supplier, f.ended, f.succeeded]),
    ).toEqual([
      ["backup", 1, 1],
      ["main", 1, 0],
    ]);
    const stats = await statsText(
      h.deps.db,
      translator(createI18n(), "id"),
      new Date(h.clock.now()),
    );
    expect(stats).toContain("🔀 Diselamatkan rute cadangan: hari ini 1, 7 hari 1");
    expect(stats).toMatch(/• backup: berhasil 100% dari 1 percobaan, median \d+ s sampai final/);
  });

  it("re-routes on the first supplier's INSUFFICIENT_BALANCE and on its auth refusal", async () => {
    h = await bootTwoSuppliers();
    h.sandbox.account().setBalance(0);
    const short = await buy("081234560901");
    expect(short.order).toMatchObject({ status: "success", supplier: "backup" });
    h.sandbox.account().setBalance(5_000_000);
    h.sandbox.account().revokeKey("sandbox-api-key");
    const refused = await buy("081234560901");
    expect(refused.order).toMatchObject({ status: "success", supplier: "backup" });
    expect((await attemptsOf(refused.order.id))[0]).toMatchObject({
      status: "rejected",
      answerCode: "INVALID_API_KEY",
    });
  });

  it("fails, without a second supplier, when no route is left", async () => {
    h = await bootTwoSuppliers();
    h.sandbox.setActive("TSEL10", false);
    h.backupSandbox.setActive("BTSEL10", false);
    const { user, order } = await buy("081234560901");
    expect(order.status).toBe("failed");
    expect(await walletBalance(h.deps.db, user)).toBe(100_000);
    const attempts = await attemptsOf(order.id);
    expect(attempts.map((a) => [a.supplier, a.status])).toEqual([
      ["main", "rejected"],
      ["backup", "failed"],
    ]);
    expect(await openAttempts(h.deps.db, order.id)).toBe(0);
  });

  it("never re-routes a timeout: the order waits for its status check", async () => {
    h = await bootTwoSuppliers({ wrapMain: timingOutSupplier });
    const { order } = await buy("081234560901");
    expect(order.status).toBe("unknown");
    expect(order.supplier).toBeNull();
    expect(backupRequests()).toHaveLength(0);
    const attempts = await attemptsOf(order.id);
    expect(attempts.map((a) => [a.supplier, a.status])).toEqual([["main", "open"]]);
    expect(await openAttempts(h.deps.db, order.id)).toBe(1);
  });

  it("never re-routes a 5xx (the supplier may have done the work)", async () => {
    h = await bootTwoSuppliers();
    // 907: the order is made, the reply is a 500
    const { order } = await buy("081234560907");
    expect(order.status).toBe("unknown");
    expect(backupRequests()).toHaveLength(0);
    expect(mainRequests()).toHaveLength(1);
    expect((await attemptsOf(order.id)).map((a) => a.status)).toEqual(["open"]);
  });

  it("never re-routes pending, and the status check asks the supplier of the attempt", async () => {
    h = await bootTwoSuppliers();
    const { order } = await buy("081234561234");
    expect(order.status).toBe("pending");
    expect(backupRequests()).toHaveLength(0);
    await h.sandbox.settleNow();
    const after = await resolveOrder(h.engine, order.id);
    expect(after?.status).toBe("success");
    expect((await attemptsOf(order.id)).map((a) => [a.supplier, a.status])).toEqual([
      ["main", "success"],
    ]);
  });

  it("never re-routes the destination's fault", async () => {
    const refusingDestination = (s: Supplier): Supplier => ({
      ...s,
      order: async () => ({
        outcome: "rejected",
        error: new SupplierError("INVALID_CUSTOMER_NO", "nomor tujuan salah"),
      }),
    });
    h = await bootTwoSuppliers({ wrapMain: refusingDestination });
    const { user, order } = await buy("081234560901");
    expect(order.status).toBe("failed");
    expect(order.supplierCode).toBe("INVALID_CUSTOMER_NO");
    expect(backupRequests()).toHaveLength(0);
    expect(await walletBalance(h.deps.db, user)).toBe(100_000);
  });

  it("never re-routes kios's own 'not sent' check or a validation error about the destination", async () => {
    const refusing =
      (fields: Record<string, string[]>) =>
      (s: Supplier): Supplier => ({
        ...s,
        order: async () => ({
          outcome: "rejected",
          error: new SupplierError("VALIDATION_ERROR", "invalid", { errors: fields }),
        }),
      });
    h = await bootTwoSuppliers({ wrapMain: refusing({ customer_no: ["is invalid"] }) });
    expect((await buy("081234560901")).order.status).toBe("failed");
    expect(backupRequests()).toHaveLength(0);
    await h.stop();
    // about the product's code: another supplier may take it
    h = await bootTwoSuppliers({ wrapMain: refusing({ code: ["is closed (cut-off)"] }) });
    expect((await buy("081234560901")).order).toMatchObject({
      status: "success",
      supplier: "backup",
    });
  });

  it("checks a re-routed order with the supplier it went to, by that attempt's ref_id", async () => {
    h = await bootTwoSuppliers();
    h.sandbox.setActive("TSEL10", false);
    const { order } = await buy("081234561234");
    expect(order).toMatchObject({ status: "pending", supplier: "backup" });
    await h.backupSandbox.settleNow();
    const after = await resolveOrder(h.engine, order.id);
    expect(after?.status).toBe("success");
    expect(await openAttempts(h.deps.db, order.id)).toBe(0);
  });

  it("skips the first supplier when the balance guard finds it short, instead of failing the sale", async () => {
    h = await bootTwoSuppliers();
    // the last reading of the main supplier's balance can't cover an order
    await h.deps.db.insert(supplierBalanceChecks).values({
      readAt: new Date(h.clock.now()),
      balance: 1_000,
      openCount: 0,
      openCost: 0,
      status: "baseline",
    });
    const { order } = await buy("081234560901");
    expect(order).toMatchObject({ status: "success", supplier: "backup" });
    expect(mainRequests()).toHaveLength(0);
    expect((await attemptsOf(order.id)).map((a) => a.supplier)).toEqual(["backup"]);
    // the admins hear of the short balance all the same
    const alerts = await h.deps.db.select().from(notifications);
    expect(alerts.some((n) => JSON.stringify(n.payload).includes("supplier_low_balance"))).toBe(
      true,
    );

    // with no other route the sale is refused as before, and nothing is sent
    await changeRoute(h.deps.db, {
      productCode: "TSEL10",
      firstSupplier: "main",
      change: { action: "disable", supplier: "backup" },
    });
    const user = await h.newUser(100_000);
    const q = await h.quote(user, "081234560901");
    const refused = await confirmQuote(h.engine, { quoteId: q.id, userId: user });
    expect(refused).toMatchObject({ ok: false, reason: "supplier_unavailable" });
    expect(backupRequests()).toHaveLength(1);
  });

  it("keeps the route's cost within the price: a dearer route is not tried", async () => {
    h = await bootTwoSuppliers();
    h.sandbox.setActive("TSEL10", false);
    const user = await h.newUser(100_000);
    const q = await h.quote(user, "081234560901");
    h.backupSandbox.setPrice("BTSEL10", q.price + 500);
    const { linkSupplierCatalogue } = await import("../../../src/commerce/catalogue/link.ts");
    await linkSupplierCatalogue(h.deps.db, { name: "backup", supplier: h.backup });
    const result = await confirmQuote(h.engine, { quoteId: q.id, userId: user });
    expect(result.ok && result.order.status).toBe("failed");
    expect(backupRequests()).toHaveLength(0);
    expect(await getOrder(h.deps.db, result.ok ? result.order.id : 0)).toMatchObject({
      supplier: null,
    });
  });
});
