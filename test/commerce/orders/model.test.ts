import { signCallback } from "@kios/kit";
import { DEFAULT_SANDBOX_CREDENTIALS } from "@kios/supplier-sandbox";
import { and, eq, inArray, like } from "drizzle-orm";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { confirmQuote } from "../../../src/commerce/orders/place.ts";
import { createQuote } from "../../../src/commerce/orders/quotes.ts";
import { resolveOrder, sweepOpenOrders } from "../../../src/commerce/orders/resolve.ts";
import { processSupplierReport } from "../../../src/commerce/supplier-reports/inbox.ts";
import { createSupplierReportRoute } from "../../../src/commerce/supplier-reports/route.ts";
import { walletBalance } from "../../../src/commerce/wallet/ledger.ts";
import { verifyLedger } from "../../../src/commerce/wallet/verify.ts";
import { notifications, orders, supplierReports, transfers } from "../../../src/db/schema.ts";
import { bootCommerce, type CommerceHarness } from "../../helpers/commerce.ts";
import { testDriver } from "../../helpers/db.ts";

// random interleavings of everything that can happen to orders: confirms and double
// confirms, every supplier outcome, timeouts, callbacks (genuine, duplicate, late,
// forged), polls, sweeps after a restart, and time passing. After each run the money must
// add up: nothing charged twice, no hold left on a final order, every final order
// notified once, kios and the supplier agreeing on every outcome, the ledger clean.

const ENDINGS = ["0901", "0902", "0903", "0904", "0905", "0907", "0908", "1234"] as const;

type Action =
  | { a: "quote"; user: number; ending: number }
  | { a: "confirm"; quote: number; copies: number }
  | { a: "settle" }
  | { a: "poll"; order: number }
  | { a: "sweep" }
  | { a: "callback"; order: number; kind: "genuine" | "forged" | "stale" | "lying" }
  | { a: "process" }
  | { a: "advance"; ms: number };

const actionArb: fc.Arbitrary<Action> = fc.oneof(
  {
    weight: 4,
    arbitrary: fc.record({
      a: fc.constant("quote" as const),
      user: fc.nat(2),
      ending: fc.nat(ENDINGS.length - 1),
    }),
  },
  {
    weight: 4,
    arbitrary: fc.record({
      a: fc.constant("confirm" as const),
      quote: fc.nat(20),
      copies: fc.integer({ min: 1, max: 3 }),
    }),
  },
  { weight: 2, arbitrary: fc.constant({ a: "settle" as const }) },
  { weight: 2, arbitrary: fc.record({ a: fc.constant("poll" as const), order: fc.nat(20) }) },
  { weight: 1, arbitrary: fc.constant({ a: "sweep" as const }) },
  {
    weight: 3,
    arbitrary: fc.record({
      a: fc.constant("callback" as const),
      order: fc.nat(20),
      kind: fc.constantFrom(
        "genuine" as const,
        "forged" as const,
        "stale" as const,
        "lying" as const,
      ),
    }),
  },
  { weight: 2, arbitrary: fc.constant({ a: "process" as const }) },
  {
    weight: 1,
    arbitrary: fc.record({
      a: fc.constant("advance" as const),
      ms: fc.constantFrom(1_000, 30_000, 90_000, 200_000),
    }),
  },
);

describe(`order engine model (${testDriver})`, () => {
  let h: CommerceHarness;
  let route: ReturnType<typeof createSupplierReportRoute>;
  beforeAll(async () => {
    // nothing settles by itself: the test decides when the supplier moves
    h = await bootCommerce({ sandbox: { settleDelayMs: 24 * 3600_000 } });
    route = createSupplierReportRoute({
      db: h.deps.db,
      secretKey: DEFAULT_SANDBOX_CREDENTIALS.secretKey,
      clock: h.clock,
      logger: h.deps.logger,
      onStored: async () => {},
    });
  });
  afterAll(() => h.stop());

  it("keeps every rupiah accounted for", async () => {
    let run = 0;
    await fc.assert(
      fc.asyncProperty(fc.array(actionArb, { minLength: 8, maxLength: 30 }), async (actions) => {
        run += 1;
        const START = 200_000;
        const users = [await h.newUser(START), await h.newUser(START), await h.newUser(START)];
        const quoteIds: { id: string; user: number }[] = [];
        const orderIds: number[] = [];

        const callback = async (orderId: number, kind: string) => {
          const [o] = await h.deps.db.select().from(orders).where(eq(orders.id, orderId));
          if (!o) return;
          const tx = h.sandbox.transactions().find((t) => t.refId === o.refId);
          const status =
            kind === "lying"
              ? "Success"
              : tx?.status === "success"
                ? "Success"
                : tx?.status === "failed"
                  ? "Failed"
                  : "Pending";
          const body = JSON.stringify({
            event: "transaction.final",
            data: {
              ref_id: o.refId,
              status,
              customer_no: o.destination,
              code: o.productCode,
              name: "x",
              price: o.cost,
              sn: status === "Success" ? "SN-CB" : null,
              created_at: "2026-11-22 10:00:00",
            },
          });
          let at = Math.floor(h.clock.now() / 1000);
          if (kind === "stale") at -= 600;
          const secret =
            kind === "forged" ? "not-the-secret" : DEFAULT_SANDBOX_CREDENTIALS.secretKey;
          await route.request("/supplier/callback", {
            method: "POST",
            body,
            headers: {
              "x-callback-timestamp": String(at),
              "x-callback-signature": signCallback(secret, at, body),
            },
          });
        };

        const processAll = async () => {
          const pending = await h.deps.db.select({ id: supplierReports.id }).from(supplierReports);
          for (const c of pending) await processSupplierReport(h.deps, c.id);
        };

        for (const act of actions) {
          if (act.a === "quote") {
            const user = users[act.user]!;
            const q = await createQuote(h.deps, {
              userId: user,
              chatId: user,
              productCode: "TSEL10",
              destination: `0812${run % 10}${act.user}${String(quoteIds.length).padStart(2, "0")}${ENDINGS[act.ending]}`,
            });
            if (q.ok) quoteIds.push({ id: q.quote.id, user });
          } else if (act.a === "confirm" && quoteIds.length > 0) {
            const q = quoteIds[act.quote % quoteIds.length]!;
            const results = await Promise.all(
              Array.from({ length: act.copies }, () =>
                confirmQuote(h.deps, { quoteId: q.id, userId: q.user }),
              ),
            );
            for (const r of results)
              if (r.ok && !orderIds.includes(r.order.id)) orderIds.push(r.order.id);
          } else if (act.a === "settle") {
            await h.sandbox.settleNow();
          } else if (act.a === "poll" && orderIds.length > 0) {
            await resolveOrder(h.deps, orderIds[act.order % orderIds.length]!);
          } else if (act.a === "sweep") {
            await sweepOpenOrders(h.deps);
          } else if (act.a === "callback" && orderIds.length > 0) {
            await callback(orderIds[act.order % orderIds.length]!, act.kind);
          } else if (act.a === "process") {
            await processAll();
          } else if (act.a === "advance") {
            h.clock.advance(act.ms);
          }
        }

        // let everything finish: the supplier settles, time passes, the resolver runs
        await h.sandbox.settleNow();
        h.clock.advance(5 * 60_000);
        for (let i = 0; i < 3; i++) await sweepOpenOrders(h.deps, 1000);
        await processAll();

        const mine = orderIds.length
          ? await h.deps.db.select().from(orders).where(inArray(orders.id, orderIds))
          : [];
        let spent = new Map<number, number>();
        for (const o of mine) {
          expect(["success", "failed"]).toContain(o.status);
          const tx = h.sandbox.transactions().filter((t) => t.refId === o.refId);
          expect(tx.length).toBeLessThanOrEqual(1);
          // kios and the supplier agree on every outcome
          expect(o.status).toBe(tx[0]?.status === "success" ? "success" : "failed");
          const keys = await h.deps.db
            .select()
            .from(transfers)
            .where(like(transfers.key, `order:${o.id}:%`));
          expect(keys.map((k) => k.kind).sort()).toEqual(
            o.status === "success" ? ["capture", "hold"] : ["hold", "release"],
          );
          const notes = await h.deps.db
            .select()
            .from(notifications)
            .where(and(eq(notifications.key, `order:${o.id}:final`)));
          expect(notes).toHaveLength(1);
          if (o.status === "success")
            spent = spent.set(o.userId, (spent.get(o.userId) ?? 0) + o.price);
        }
        for (const u of users)
          expect(await walletBalance(h.deps.db, u)).toBe(START - (spent.get(u) ?? 0));
        expect((await verifyLedger(h.database.handle)).problems).toEqual([]);
      }),
      { numRuns: 12 },
    );
  });
});
