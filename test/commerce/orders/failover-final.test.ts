import { asc, eq } from "drizzle-orm";
import { afterEach, describe, expect, it } from "vitest";
import { attemptsLine } from "../../../src/bot/admin/order-lines.ts";
import { confirmQuote } from "../../../src/commerce/orders/place.ts";
import { attemptsOfOrders, getOrder } from "../../../src/commerce/orders/queries.ts";
import { createBillQuote } from "../../../src/commerce/orders/quotes.ts";
import { resolveOrder } from "../../../src/commerce/orders/resolve.ts";
import { openAttempts } from "../../../src/commerce/orders/routing.ts";
import { finaliseOrder, markOpen } from "../../../src/commerce/orders/transitions.ts";
import {
  processSupplierReport,
  storeSupplierReport,
} from "../../../src/commerce/supplier-reports/inbox.ts";
import { walletBalance } from "../../../src/commerce/wallet/ledger.ts";
import { verifyLedger } from "../../../src/commerce/wallet/verify.ts";
import { orderAttempts, transfers } from "../../../src/db/schema.ts";
import { testDriver } from "../../helpers/db.ts";
import {
  BOOTS_IN_EACH_TEST,
  bootTwoSuppliers,
  type TwoSuppliers,
} from "../../helpers/two-suppliers.ts";

// design rule 15, a final failure: the next route only when the failed record's own reason
// is the product's or the supplier's (docs/supplier.md#failure-reasons), from whichever
// path learns it: the order's reply, its status check, a supplier's report. Never for the
// destination's reason, no reason, a bill, or with no route left.

/** at the backup, the main's product failures succeed (at once, or after pending) */
const BACKUP_SAVES = { "941": "901", "942": "901", "943": "903", "944": "903", "902": "901" };

describe(`re-route after a final failure (${testDriver})`, BOOTS_IN_EACH_TEST, () => {
  let h: TwoSuppliers | undefined;
  afterEach(async () => {
    await h?.stop();
    h = undefined;
  });

  const attemptsOf = (orderId: number) =>
    h!.deps.db
      .select()
      .from(orderAttempts)
      .where(eq(orderAttempts.orderId, orderId))
      .orderBy(asc(orderAttempts.seq));

  async function buy(destination: string) {
    const user = await h!.newUser(100_000);
    const q = await h!.quote(user, destination);
    const result = await confirmQuote(h!.engine, { quoteId: q.id, userId: user });
    if (!result.ok) throw new Error(result.reason);
    return { user, quote: q, order: result.order };
  }

  /** a report of the main supplier about one of its transactions, stored as the route would */
  async function mainReport(refId: string, body: Record<string, unknown>, salt = "") {
    const rawBody = `${JSON.stringify({ event: "transaction.final", data: body })}${salt}`;
    return storeSupplierReport(h!.deps.db, {
      rawBody,
      supplier: "main",
      refId,
      reportedStatus: String(body.status).toLowerCase(),
    });
  }

  /** how many times the order's hold was released (a refund) */
  async function releases(orderId: number) {
    const rows = await h!.deps.db.select().from(transfers).where(eq(transfers.kind, "release"));
    return rows.filter((r) => r.key === `order:${orderId}:settle`).length;
  }

  it("re-routes a failure at once with a product reason, in the same confirmation", async () => {
    h = await bootTwoSuppliers({ backupOutcomes: BACKUP_SAVES });
    const { user, quote, order } = await buy("081234560941");
    expect(order).toMatchObject({ status: "success", supplier: "backup", routeCode: "BTSEL10" });
    const attempts = await attemptsOf(order.id);
    expect(
      attempts.map((a) => [a.supplier, a.status, a.answerCode, a.reason, a.reroutedFor]),
    ).toEqual([
      ["main", "failed", "ORDER_FAILED", "OUT_OF_STOCK", null],
      ["backup", "success", "ORDER_SUCCESS", null, "OUT_OF_STOCK"],
    ]);
    expect(attempts[1]!.refId).not.toBe(attempts[0]!.refId);
    expect(order.refId).toBe(attempts[1]!.refId);
    // one sale: the hold stayed and was captured once
    expect(await walletBalance(h.deps.db, user)).toBe(100_000 - quote.price);
    expect(await releases(order.id)).toBe(0);
    expect(h.sandbox.transactions().map((t) => t.status)).toEqual(["failed"]);
    expect(h.backupSandbox.transactions().map((t) => t.status)).toEqual(["success"]);
    const lines = await attemptsOfOrders(h.deps.db, [order.id]);
    expect(attemptsLine(lines.get(order.id)!)).toBe("main ✗ OUT_OF_STOCK → backup ✓");
    expect((await verifyLedger(h.database.handle)).problems).toEqual([]);
  });

  it("re-routes a pending order that failed for its product, found by the status check", async () => {
    h = await bootTwoSuppliers({ backupOutcomes: BACKUP_SAVES });
    const { user, quote, order } = await buy("081234560943");
    expect(order.status).toBe("pending");
    await h.sandbox.settleNow();
    const after = await resolveOrder(h.engine, order.id);
    // the backup answers pending: the order is open there, under its new ref_id
    expect(after).toMatchObject({ status: "pending", supplier: "backup" });
    const attempts = await attemptsOf(order.id);
    expect(attempts.map((a) => [a.supplier, a.status, a.reason])).toEqual([
      ["main", "failed", "OUT_OF_STOCK"],
      ["backup", "open", null],
    ]);
    expect(after!.refId).toBe(attempts[1]!.refId);
    await h.backupSandbox.settleNow();
    const final = await resolveOrder(h.engine, order.id);
    expect(final).toMatchObject({ status: "success", supplier: "backup" });
    expect(await walletBalance(h.deps.db, user)).toBe(100_000 - quote.price);
    expect(await releases(order.id)).toBe(0);
    // the buyer was told once, of the result
    expect(await openAttempts(h.deps.db, order.id)).toBe(0);
  });

  it("re-routes on the supplier's report of a gangguan; a late report of the closed attempt changes nothing", async () => {
    h = await bootTwoSuppliers({ backupOutcomes: BACKUP_SAVES });
    const { order } = await buy("081234560944");
    expect(order.status).toBe("pending");
    await h.sandbox.settleNow();
    const failedRecord = h.sandbox.transactions()[0]!;
    const body = {
      ref_id: order.refId,
      status: "Failed",
      customer_no: failedRecord.customerNo,
      code: "TSEL10",
      name: "Telkomsel 10.000",
      price: failedRecord.price,
      sn: null,
      reason: "PRODUCT_DISRUPTED",
      created_at: "2026-11-22 10:00:00",
    };
    const report = await mainReport(order.refId, body);
    expect(await processSupplierReport(h.engine, report.id)).toBe("order pending");
    const moved = (await getOrder(h.deps.db, order.id))!;
    expect(moved.supplier).toBe("backup");
    const attempts = await attemptsOf(order.id);
    expect(attempts.map((a) => [a.supplier, a.status, a.reason, a.reroutedFor])).toEqual([
      ["main", "failed", "PRODUCT_DISRUPTED", null],
      ["backup", "open", null, "PRODUCT_DISRUPTED"],
    ]);
    // the same failure reported again (and a stale pending) is about an attempt the order left
    for (const [again, salt] of [
      [body, " "],
      [{ ...body, status: "Pending", reason: undefined }, "  "],
    ] as const) {
      const late = await mainReport(order.refId, again, salt);
      await processSupplierReport(h.engine, late.id);
    }
    expect(await attemptsOf(order.id)).toHaveLength(2);
    expect(await openAttempts(h.deps.db, order.id)).toBe(1);
    expect((await getOrder(h.deps.db, order.id))!.refId).toBe(moved.refId);
    expect(h.backupSandbox.requests()).toHaveLength(1);
  });

  it("an answer about the attempt the order left settles nothing, however late", async () => {
    h = await bootTwoSuppliers({ backupOutcomes: BACKUP_SAVES });
    const { user, order } = await buy("081234560943");
    await h.sandbox.settleNow();
    // what a submission or a check that read the order before it moved on still holds
    const stale = (await getOrder(h.deps.db, order.id))!;
    const moved = await resolveOrder(h.engine, order.id);
    expect(moved).toMatchObject({ status: "pending", supplier: "backup" });
    const now = new Date(h.clock.now());
    const failedThere = await h.deps.db.transaction((tx) =>
      finaliseOrder(tx, stale, { status: "failed", supplierCode: "ORDER_FAILED" }, now, true, {
        attempt: stale.refId,
      }),
    );
    expect(failedThere).toBeUndefined();
    const stillOpen = await h.deps.db.transaction((tx) =>
      markOpen(tx, { ...stale, status: "submitted" }, "unknown", now, now),
    );
    expect(stillOpen).toBeUndefined();
    expect(await getOrder(h.deps.db, order.id)).toMatchObject({
      status: "pending",
      refId: moved!.refId,
    });
    expect(await releases(order.id)).toBe(0);
    expect(await walletBalance(h.deps.db, user)).toBe(100_000 - order.price);
  });

  it("never re-routes the destination's reason, at once or after pending: refunded once", async () => {
    h = await bootTwoSuppliers({
      backupOutcomes: { ...BACKUP_SAVES, "946": "901", "947": "901", "948": "901" },
    });
    for (const ending of ["946", "947"]) {
      const { user, order } = await buy(`081234560${ending}`);
      expect(order.status).toBe("failed");
      expect(await walletBalance(h.deps.db, user)).toBe(100_000);
      expect(await releases(order.id)).toBe(1);
    }
    const { user, order } = await buy("081234560948");
    await h.sandbox.settleNow();
    expect((await resolveOrder(h.engine, order.id))?.status).toBe("failed");
    expect(await walletBalance(h.deps.db, user)).toBe(100_000);
    expect(await releases(order.id)).toBe(1);
    expect((await attemptsOf(order.id)).map((a) => [a.status, a.reason])).toEqual([
      ["failed", "INVALID_CUSTOMER_NO"],
    ]);
    expect(h.backupSandbox.requests()).toHaveLength(0);
  });

  it("never re-routes a failure without a reason (902, 904), though the backup would make it", async () => {
    h = await bootTwoSuppliers({ backupOutcomes: { ...BACKUP_SAVES, "904": "901" } });
    const atOnce = await buy("081234560902");
    expect(atOnce.order.status).toBe("failed");
    const later = await buy("081234560904");
    await h.sandbox.settleNow();
    expect((await resolveOrder(h.engine, later.order.id))?.status).toBe("failed");
    for (const { order, user } of [atOnce, later]) {
      expect(await walletBalance(h.deps.db, user)).toBe(100_000);
      expect(await releases(order.id)).toBe(1);
      expect((await attemptsOf(order.id)).map((a) => [a.status, a.reason])).toEqual([
        ["failed", null],
      ]);
    }
    expect(h.backupSandbox.requests()).toHaveLength(0);
  });

  it("fails and refunds once when no route is left: the last failure is the result", async () => {
    // the backup fails the same way (no outcome table of its own)
    h = await bootTwoSuppliers();
    const { user, order } = await buy("081234560941");
    expect(order.status).toBe("failed");
    expect(await walletBalance(h.deps.db, user)).toBe(100_000);
    expect(await releases(order.id)).toBe(1);
    expect((await attemptsOf(order.id)).map((a) => [a.supplier, a.status, a.reason])).toEqual([
      ["main", "failed", "OUT_OF_STOCK"],
      ["backup", "failed", "OUT_OF_STOCK"],
    ]);
    // a late repeat of the failure moves nothing
    const again = await resolveOrder(h.engine, order.id);
    expect(again?.status).toBe("failed");
    expect(await releases(order.id)).toBe(1);
    expect((await verifyLedger(h.database.handle)).problems).toEqual([]);
  });

  it("never re-routes a bill payment, whatever its reason", async () => {
    h = await bootTwoSuppliers({ backupOutcomes: BACKUP_SAVES });
    const user = await h.newUser(2_000_000);
    // pending, then failed out of stock: the status record says why
    const q = await createBillQuote(h.engine, {
      userId: user,
      chatId: user,
      productCode: "PLNPOST",
      customerNo: "530000000943",
    });
    if (!q.ok) throw new Error(q.reason);
    const result = await confirmQuote(h.engine, { quoteId: q.quote.id, userId: user });
    if (!result.ok) throw new Error(result.reason);
    expect(result.order.status).toBe("pending");
    await h.sandbox.settleNow();
    const final = await resolveOrder(h.engine, result.order.id);
    expect(final).toMatchObject({ status: "failed", supplier: null });
    expect(await walletBalance(h.deps.db, user)).toBe(2_000_000);
    expect(await releases(result.order.id)).toBe(1);
    // the supplier said why, and it was the product's: still no second supplier
    expect((await attemptsOf(result.order.id)).map((a) => [a.status, a.reason])).toEqual([
      ["failed", "OUT_OF_STOCK"],
    ]);
    expect(h.backupSandbox.requests()).toHaveLength(0);
  });

  it("a status check and a report of the same failure, side by side, open one new attempt", async () => {
    h = await bootTwoSuppliers({ backupOutcomes: BACKUP_SAVES });
    const { order } = await buy("081234560943");
    await h.sandbox.settleNow();
    const t = h.sandbox.transactions()[0]!;
    const body = {
      ref_id: order.refId,
      status: "Failed",
      customer_no: t.customerNo,
      code: "TSEL10",
      name: "Telkomsel 10.000",
      price: t.price,
      sn: null,
      reason: "OUT_OF_STOCK",
      created_at: "2026-11-22 10:00:00",
    };
    const reports = await Promise.all([
      mainReport(order.refId, body),
      mainReport(order.refId, body, " "),
    ]);
    await Promise.all([
      resolveOrder(h.engine, order.id),
      resolveOrder(h.engine, order.id),
      ...reports.map((r) => processSupplierReport(h!.engine, r.id)),
    ]);
    const attempts = await attemptsOf(order.id);
    expect(attempts.map((a) => [a.supplier, a.status])).toEqual([
      ["main", "failed"],
      ["backup", "open"],
    ]);
    expect(await openAttempts(h.deps.db, order.id)).toBe(1);
    // sent once to the backup, under the one new ref_id
    expect(h.backupSandbox.requests().map((r) => [r.refId, r.result])).toEqual([
      [attempts[1]!.refId, "created"],
    ]);
  });
});
