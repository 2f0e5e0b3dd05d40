import { eq } from "drizzle-orm";
import { afterEach, describe, expect, it } from "vitest";
import { confirmQuote } from "../../../src/commerce/orders/place.ts";
import { resolveOrder } from "../../../src/commerce/orders/resolve.ts";
import type { Order } from "../../../src/commerce/orders/types.ts";
import { checkSupplierBalance } from "../../../src/commerce/reconciliation/balance-check.ts";
import { bookOf } from "../../../src/commerce/reconciliation/books.ts";
import { walletBalance } from "../../../src/commerce/wallet/ledger.ts";
import { verifyLedger } from "../../../src/commerce/wallet/verify.ts";
import { notifications, orderAttempts, supplierReservations } from "../../../src/db/schema.ts";
import type { Supplier } from "../../../src/supplier/types.ts";
import { testDriver } from "../../helpers/db.ts";
import {
  BOOTS_IN_EACH_TEST,
  bootTwoSuppliers,
  type TwoSuppliers,
} from "../../helpers/two-suppliers.ts";

// the supplier balance guard covers a re-route too (docs/reconciliation.md#the-balance-guard,
// design rules 15 and 20): a burst of orders that all fail at the main for the product's
// sake, or are refused there with nothing formed, and all go on to the backup at the same
// moment, sends the backup no more orders than its estimate covers. The others are not
// sent anywhere: the main's failure is their result, refunded, and the admins hear that the
// backup is short. On PostgreSQL the re-routes run side by side (every main answer is held
// until all of them are in), so their reservations race.

const BURST = 5;
/** at the backup, the main's product failures succeed at once */
const BACKUP_SAVES = { "941": "901", "943": "901" };

/** holds each call of `method` until `n` of them are waiting, then lets them all go */
function barrier(n: number) {
  let waiting = 0;
  let open!: () => void;
  const all = new Promise<void>((r) => {
    open = r;
  });
  return async () => {
    waiting++;
    if (waiting >= n) open();
    await all;
  };
}

/** the main supplier, its answers to `method` held until the whole burst has one */
function holdingAnswers(method: "order" | "status", n: number) {
  const wait = barrier(n);
  return (s: Supplier): Supplier =>
    new Proxy(s, {
      get(target, prop, receiver) {
        const value = Reflect.get(target, prop, receiver);
        if (prop !== method || typeof value !== "function") return value;
        return async (...args: unknown[]) => {
          const answer = await (value as (...a: unknown[]) => Promise<unknown>).apply(target, args);
          await wait();
          return answer;
        };
      },
    });
}

describe(
  `a re-route respects the supplier balance guard (${testDriver})`,
  BOOTS_IN_EACH_TEST,
  () => {
    let h: TwoSuppliers | undefined;
    afterEach(async () => {
      await h?.stop();
      h = undefined;
    });

    const backupCost = () => h!.backupSandbox.catalogue().find((p) => p.code === "BTSEL10")!.price;
    /** every order the backup was sent: formed, or declined with nothing formed */
    const sentToBackup = () =>
      h!.backupSandbox.requests().length + h!.backupSandbox.refusals().length;

    /** the backup read at a balance that covers two TSEL10 orders and a half; the main unread */
    async function backupCoversTwo() {
      h!.backupSandbox.account().setBalance(2 * backupCost() + Math.floor(backupCost() / 2));
      h!.clock.advance(10);
      const reading = await checkSupplierBalance({
        db: h!.deps.db,
        supplier: h!.backup,
        book: bookOf("main", "backup"),
        clock: h!.clock,
        adminIds: [1],
      });
      return reading.id;
    }

    async function buyers() {
      const users = await Promise.all(Array.from({ length: BURST }, () => h!.newUser(100_000)));
      return users;
    }

    async function expectCoveredOnly(users: number[], orders: Order[], checkId: number) {
      const backup = orders.filter((o) => o.supplier === "backup");
      // the backup was sent only what its estimate covered
      expect(sentToBackup()).toBe(2);
      expect(backup).toHaveLength(2);
      expect(backup.every((o) => o.status === "success")).toBe(true);
      expect(h!.backupSandbox.account().balance).toBeGreaterThanOrEqual(0);
      // the others: the main's failure is their result, the buyer refunded, no attempt left open
      const rest = orders.filter((o) => o.supplier !== "backup");
      expect(rest).toHaveLength(BURST - 2);
      for (const o of rest) {
        expect(o.status).toBe("failed");
        const attempts = await h!.deps.db
          .select()
          .from(orderAttempts)
          .where(eq(orderAttempts.orderId, o.id));
        expect(attempts.map((a) => a.supplier)).toEqual(["main"]);
        expect(attempts[0]!.status).not.toBe("open");
        expect(await walletBalance(h!.deps.db, users[orders.indexOf(o)]!)).toBe(100_000);
      }
      // every reservation consumed or released
      expect(await h!.deps.db.select().from(supplierReservations)).toEqual([]);
      // the admins heard that the backup is short, once for its reading
      const alerts = await h!.deps.db
        .select()
        .from(notifications)
        .where(eq(notifications.key, `recon:${checkId}:low:1`));
      expect(alerts).toHaveLength(1);
      expect((await verifyLedger(h!.database.handle)).problems).toEqual([]);
    }

    it("a burst failing at the main for its product (the order's own reply) sends the backup only what it covers", async () => {
      h = await bootTwoSuppliers({
        backupOutcomes: BACKUP_SAVES,
        wrapMain: holdingAnswers("order", BURST),
      });
      const checkId = await backupCoversTwo();
      const users = await buyers();
      const quotes = await Promise.all(users.map((u) => h!.quote(u, "081234560941")));
      const results = await Promise.all(
        users.map((u, i) => confirmQuote(h!.engine, { quoteId: quotes[i]!.id, userId: u })),
      );
      const orders = results.map((r) => {
        if (!r.ok) throw new Error(r.reason);
        return r.order;
      });
      await expectCoveredOnly(users, orders, checkId);
    });

    it("a burst refused at the main with nothing formed sends the backup only what it covers", async () => {
      h = await bootTwoSuppliers({ wrapMain: holdingAnswers("order", BURST) });
      const checkId = await backupCoversTwo();
      h.sandbox.setActive("TSEL10", false);
      const users = await buyers();
      const quotes = await Promise.all(users.map((u) => h!.quote(u, "081234560901")));
      const results = await Promise.all(
        users.map((u, i) => confirmQuote(h!.engine, { quoteId: quotes[i]!.id, userId: u })),
      );
      const orders = results.map((r) => {
        if (!r.ok) throw new Error(r.reason);
        return r.order;
      });
      await expectCoveredOnly(users, orders, checkId);
    });

    it("a burst found failed by status checks sends the backup only what it covers", async () => {
      h = await bootTwoSuppliers({
        backupOutcomes: BACKUP_SAVES,
        wrapMain: holdingAnswers("status", BURST),
      });
      const checkId = await backupCoversTwo();
      const users = await buyers();
      const quotes = await Promise.all(users.map((u) => h!.quote(u, "081234560943")));
      const pending: Order[] = [];
      for (const [i, u] of users.entries()) {
        const r = await confirmQuote(h.engine, { quoteId: quotes[i]!.id, userId: u });
        if (!r.ok) throw new Error(r.reason);
        expect(r.order.status).toBe("pending");
        pending.push(r.order);
      }
      await h.sandbox.settleNow();
      const orders = await Promise.all(pending.map((o) => resolveOrder(h!.engine, o.id)));
      await expectCoveredOnly(
        users,
        orders.map((o) => o!),
        checkId,
      );
    });
  },
);
