import { createHmac } from "node:crypto";
import { asc, eq } from "drizzle-orm";
import { afterEach, describe, expect, it } from "vitest";
import { syncCatalogue } from "../../../src/commerce/catalogue/sync.ts";
import { confirmQuote } from "../../../src/commerce/orders/place.ts";
import {
  noteAnswerBalance,
  recordAnswerBalance,
} from "../../../src/commerce/reconciliation/answer-reading.ts";
import { latestBalanceCheck } from "../../../src/commerce/reconciliation/balance-check.ts";
import { bookOf } from "../../../src/commerce/reconciliation/books.ts";
import { checkSuppliers } from "../../../src/commerce/reconciliation/every-supplier.ts";
import { knownSupplierBalance } from "../../../src/commerce/supplier-balance/known-balance.ts";
import { createSupplierReportRoute } from "../../../src/commerce/supplier-reports/route.ts";
import { notifications, orderAttempts, supplierBalanceChecks } from "../../../src/db/schema.ts";
import { createLogger } from "../../../src/logger.ts";
import { digiflazzReportReader } from "../../../src/supplier/digiflazz/webhook.ts";
import { testDriver } from "../../helpers/db.ts";
import { bootMainAndDigiflazz, type MainAndDigiflazz } from "../../helpers/digiflazz.ts";

// Digiflazz's buyer_last_saldo (docs/suppliers.md#balance-readings-from-answers): every
// answer, re-send and webhook says the account's balance; kios stores it as a reading of
// that supplier's balance, as a balance call's, and never lets an older one become the latest

describe(`balance readings from Digiflazz's answers (${testDriver})`, { timeout: 90_000 }, () => {
  let h: MainAndDigiflazz | undefined;
  afterEach(async () => {
    await h?.stop();
    h = undefined;
  });

  const backupBook = bookOf("main", "backup");

  async function buy(destination: string) {
    const user = await h!.newUser(100_000);
    const q = await h!.quote(user, destination, "TSEL10");
    const result = await confirmQuote(h!.engine, { quoteId: q.id, userId: user });
    if (!result.ok) throw new Error(result.reason);
    return result.order;
  }

  const readings = () =>
    h!.deps.db
      .select()
      .from(supplierBalanceChecks)
      .where(eq(supplierBalanceChecks.supplier, "backup"))
      .orderBy(asc(supplierBalanceChecks.id));

  it("an order's answer is a reading of the supplier's balance: the latest check, the guard's estimate, reconciliation", async () => {
    h = await bootMainAndDigiflazz();
    h.sandbox.setActive("TSEL10", false);
    const order = await buy("081234567001");
    expect(order).toMatchObject({ status: "success", supplier: "backup" });
    const after = h.digiflazz.account().balance;
    const last = await latestBalanceCheck(h.deps.db, backupBook);
    expect(last).toMatchObject({
      source: "answer",
      refId: order.refId,
      balance: after,
      status: "baseline",
    });
    // the guard's estimate starts from it
    expect(
      (await knownSupplierBalance(h.deps.db, { supplier: "backup", firstSupplier: "main" }))?.known,
    ).toBe(after);
    // a second order's answer: a check against the first, which kios's books explain
    h.clock.advance(1_000);
    const second = await buy("081234567002");
    expect(second.status).toBe("success");
    const [, next] = await readings();
    expect(next).toMatchObject({
      source: "answer",
      refId: second.refId,
      balance: h.digiflazz.account().balance,
      status: "ok",
      drift: 0,
    });
    // and the hourly balance call agrees with them
    h.clock.advance(1_000);
    const results = await checkSuppliers(h.engine);
    const backup = results.find((r) => r.book.name === "backup");
    expect(backup && "check" in backup && backup.check).toMatchObject({
      source: "balance",
      status: "ok",
      drift: 0,
    });
  });

  it("a reading older than the one stored never becomes the latest (answers out of order)", async () => {
    h = await bootMainAndDigiflazz();
    h.sandbox.setActive("TSEL10", false);
    const a = await buy("081234567001");
    h.clock.advance(1_000);
    const b = await buy("081234567002");
    const [ra, rb] = await readings();
    expect([ra?.refId, rb?.refId]).toEqual([a.refId, b.refId]);
    // A's answer arrives again later (a re-send, a webhook) with the balance of back then:
    // read somewhere after A was sent, so maybe before B's reading
    h.clock.advance(1_000);
    const late = await recordAnswerBalance(h.engine, {
      supplier: "backup",
      refId: a.refId,
      balance: ra!.balance,
      at: new Date(h.clock.now()),
    });
    expect(late).toEqual({ skipped: "not_newer" });
    expect((await latestBalanceCheck(h.deps.db, backupBook))?.id).toBe(rb!.id);
    expect(
      (await knownSupplierBalance(h.deps.db, { supplier: "backup", firstSupplier: "main" }))?.known,
    ).toBe(rb!.balance);
    // an answer about an attempt kios does not hold at that supplier is no reading
    expect(
      await recordAnswerBalance(h.engine, {
        supplier: "backup",
        refId: "KIOS-NOT-HERE",
        balance: 1,
        at: new Date(h.clock.now()),
      }),
    ).toEqual({ skipped: "no_attempt" });
    // and a reading of one supplier's answer is never the first supplier's
    expect(
      await recordAnswerBalance(h.engine, {
        supplier: null,
        refId: b.refId,
        balance: 1,
        at: new Date(h.clock.now()),
      }),
    ).toEqual({ skipped: "no_attempt" });
    expect(await readings()).toHaveLength(2);
  });

  it("a refusal's balance tells the guard the supplier is short: the next Pay does not send there", async () => {
    h = await bootMainAndDigiflazz();
    // the main's product off in kios's catalogue too: Digiflazz is the only route, and Pay's
    // guard (not a re-route) decides whether it is tried
    h.sandbox.setActive("TSEL10", false);
    await syncCatalogue(h.deps.db, h.supplier, { clock: h.clock, logger: h.deps.logger });
    h.digiflazz.account().credit(-h.digiflazz.account().balance + 5);
    const user = await h.newUser(100_000);
    const q1 = await h.quote(user, "081234567001", "TSEL10");
    const first = await confirmQuote(h.engine, { quoteId: q1.id, userId: user });
    // sent, refused (rc 44) with buyer_last_saldo 5, no route left: failed and refunded
    expect(first.ok && first.order.status).toBe("failed");
    expect(h.sentFor(first.ok ? first.order.refId : "")).toHaveLength(1);
    expect(await latestBalanceCheck(h.deps.db, backupBook)).toMatchObject({
      source: "answer",
      balance: 5,
    });
    h.clock.advance(1_000);
    const before = h.digiflazz.state.requests.length;
    const q2 = await h.quote(user, "081234567002", "TSEL10");
    const second = await confirmQuote(h.engine, { quoteId: q2.id, userId: user });
    // the guard knew: nothing was sent to Digiflazz
    expect(second).toMatchObject({ ok: false, reason: "supplier_unavailable" });
    expect(h.digiflazz.state.requests.length).toBe(before);
  });

  it("a low balance is told once when an answer crosses the line, not at every answer below it", async () => {
    h = await bootMainAndDigiflazz();
    h.sandbox.setActive("TSEL10", false);
    const engine = { ...h.engine, recon: { tolerance: 0, lowBalance: 10_000_000 } };
    const user = await h.newUser(100_000);
    for (const destination of ["081234567001", "081234567002", "081234567003"]) {
      const q = await h.quote(user, destination, "TSEL10");
      const r = await confirmQuote(engine, { quoteId: q.id, userId: user });
      expect(r.ok && r.order.status).toBe("success");
      h.clock.advance(1_000);
    }
    expect(await readings()).toHaveLength(3);
    const lows = await h.deps.db.select().from(notifications).where(eq(notifications.chatId, 1));
    const lowOnes = lows.filter(
      (n) => (n.payload as { type?: string }).type === "supplier_low_balance",
    );
    expect(lowOnes).toHaveLength(1);
    expect(lowOnes[0]!.payload).toMatchObject({ supplier: "backup" });
  });

  it("an order in flight at a reading whose final is stamped before it but committed after is settled once, not a false loss", async () => {
    // the campaign's false loss (docs/reconciliation.md): an attempt's final time is stamped
    // when its status check begins, before its transaction commits. A reading taken in
    // between counted it open; the check after it must still count its success
    h = await bootMainAndDigiflazz();
    h.sandbox.setActive("TSEL10", false);
    const pending = await buy("081234567803");
    expect(pending).toMatchObject({ status: "pending", supplier: "backup" });
    h.clock.advance(1_000);
    // its status check begins: the final's time is taken now
    const stampedAt = new Date(h.clock.now());
    h.clock.advance(1_000);
    // another order's answer is a reading while that one is still open
    const other = await buy("081234567002");
    expect(other.status).toBe("success");
    const reading = (await readings()).at(-1);
    // both open then: the answering order's own final is recorded after its answer
    expect(reading).toMatchObject({ refId: other.refId, status: "ok", openCount: 2 });
    expect(reading!.readAt.getTime()).toBeGreaterThan(stampedAt.getTime());
    // the status check's transaction commits the success with the time it took
    await h.deps.db
      .update(orderAttempts)
      .set({ status: "success", finalAt: stampedAt })
      .where(eq(orderAttempts.orderId, pending.id));
    h.clock.advance(1_000);
    const results = await checkSuppliers(h.engine);
    const backup = results.find((r) => r.book.name === "backup");
    expect(backup && "check" in backup && backup.check).toMatchObject({
      source: "balance",
      status: "ok",
      drift: 0,
      successCount: 2,
      openCost: 0,
    });
  });

  it("a webhook's balance is a reading too, through the report route", async () => {
    h = await bootMainAndDigiflazz();
    h.sandbox.setActive("TSEL10", false);
    const order = await buy("081234567803");
    expect(order).toMatchObject({ status: "pending", supplier: "backup" });
    // no reading yet after this order was sent (its own answer's is cleared for the test)
    await h.deps.db.delete(supplierBalanceChecks);
    const secret = "webhook-secret";
    const route = createSupplierReportRoute({
      db: h.deps.db,
      secretKey: secret,
      reader: digiflazzReportReader(secret),
      supplier: "backup",
      path: "/supplier/backup/callback",
      clock: h.clock,
      logger: createLogger({ level: "silent" }),
      onBalance: (refId, balance) => noteAnswerBalance(h!.engine, "backup", refId, balance),
    });
    h.clock.advance(2_000);
    const body = JSON.stringify({
      data: {
        ref_id: order.refId,
        customer_no: order.destination,
        buyer_sku_code: "tsel10",
        message: "Transaksi Sukses",
        status: "Sukses",
        rc: "00",
        sn: "SN1",
        buyer_last_saldo: 123_456.7,
        price: order.cost,
      },
    });
    const res = await route.request("/supplier/backup/callback", {
      method: "POST",
      headers: {
        "content-type": "application/json",
        "x-digiflazz-event": "update",
        "user-agent": "Digiflazz-Hookshot",
        "x-hub-signature": `sha1=${createHmac("sha1", secret).update(body).digest("hex")}`,
      },
      body,
    });
    expect(res.status).toBe(200);
    expect(await latestBalanceCheck(h.deps.db, backupBook)).toMatchObject({
      source: "answer",
      refId: order.refId,
      balance: 123_456,
    });
  });
});
