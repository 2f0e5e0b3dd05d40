import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  captureOrder,
  creditWallet,
  debitWallet,
  holdForOrder,
  InsufficientFundsError,
  LedgerError,
  releaseOrder,
  walletBalance,
} from "../../../src/commerce/wallet/ledger.ts";
import { verifyLedger } from "../../../src/commerce/wallet/verify.ts";
import { createTestDatabase, type TestDatabase, testDriver } from "../../helpers/db.ts";

// model-based test: random sequences of wallet operations, retries and races, run against
// the database and a plain in-memory model; after each sequence both must agree and the
// ledger must verify.

type Op =
  | { op: "credit"; user: number; amount: number; key: number }
  | { op: "debit"; user: number; amount: number; key: number }
  | { op: "hold"; user: number; order: number; amount: number }
  | { op: "capture"; order: number; margin: number }
  | { op: "release"; order: number };

const user = fc.integer({ min: 0, max: 2 });
const order = fc.integer({ min: 0, max: 5 });
const amount = fc.integer({ min: 1, max: 30_000 });
const opArb: fc.Arbitrary<Op> = fc.oneof(
  fc.record({
    op: fc.constant("credit" as const),
    user,
    amount,
    key: fc.integer({ min: 0, max: 5 }),
  }),
  fc.record({
    op: fc.constant("debit" as const),
    user,
    amount,
    key: fc.integer({ min: 0, max: 5 }),
  }),
  fc.record({ op: fc.constant("hold" as const), user, order, amount }),
  fc.record({
    op: fc.constant("capture" as const),
    order,
    margin: fc.integer({ min: 0, max: 500 }),
  }),
  fc.record({ op: fc.constant("release" as const), order }),
);

describe(`wallet model (${testDriver})`, () => {
  let t: TestDatabase;
  let run = 0;
  beforeAll(async () => {
    t = await createTestDatabase();
  });
  afterAll(() => t.destroy());

  it("agrees with the model through random operations, retries and races", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.tuple(opArb, fc.boolean()), { minLength: 5, maxLength: 25 }),
        async (steps) => {
          run += 1;
          const base = run * 100;
          const uid = (u: number) => 10_000_000 + run * 10 + u;
          const oid = (o: number) => base * 1000 + o;
          const balances = new Map<number, number>();
          const holds = new Map<number, { user: number; amount: number; settled: boolean }>();
          const appliedKeys = new Set<string>();
          const bal = (u: number) => balances.get(u) ?? 0;

          const apply = async (s: Op): Promise<void> => {
            const db = t.handle.db;
            try {
              if (s.op === "credit") {
                await creditWallet(db, {
                  userId: uid(s.user),
                  amount: s.amount,
                  key: `m${run}c${s.key}`,
                });
              } else if (s.op === "debit") {
                await debitWallet(db, {
                  userId: uid(s.user),
                  amount: s.amount,
                  key: `m${run}d${s.key}`,
                });
              } else if (s.op === "hold") {
                await holdForOrder(db, {
                  orderId: oid(s.order),
                  userId: uid(s.user),
                  amount: s.amount,
                });
              } else if (s.op === "capture") {
                const h = holds.get(s.order);
                await captureOrder(db, {
                  orderId: oid(s.order),
                  price: h?.amount ?? 1,
                  cost: Math.max(0, (h?.amount ?? 1) - s.margin),
                });
              } else {
                const h = holds.get(s.order);
                await releaseOrder(db, {
                  orderId: oid(s.order),
                  userId: uid(h?.user ?? 0),
                  amount: h?.amount ?? 1,
                });
              }
            } catch (err) {
              if (!(err instanceof InsufficientFundsError || err instanceof LedgerError)) throw err;
            }
          };

          // the model: what the ledger must do for each op, given keys already applied
          const expect1 = (s: Op) => {
            if (s.op === "credit") {
              const key = `c${s.key}`;
              if (appliedKeys.has(key)) return;
              appliedKeys.add(key);
              balances.set(s.user, bal(s.user) + s.amount);
            } else if (s.op === "debit") {
              const key = `d${s.key}`;
              if (appliedKeys.has(key) || bal(s.user) < s.amount) return;
              appliedKeys.add(key);
              balances.set(s.user, bal(s.user) - s.amount);
            } else if (s.op === "hold") {
              if (holds.has(s.order) || bal(s.user) < s.amount) return;
              holds.set(s.order, { user: s.user, amount: s.amount, settled: false });
              balances.set(s.user, bal(s.user) - s.amount);
            } else {
              const h = holds.get(s.order);
              if (!h || h.settled) return;
              h.settled = true;
              if (s.op === "release") balances.set(h.user, bal(h.user) + h.amount);
            }
          };

          for (const [s, raced] of steps) {
            // a raced step runs twice at once, like a double tap or a retried job
            if (raced) await Promise.all([apply(s), apply(s)]);
            else await apply(s);
            expect1(s);
          }
          for (const u of [0, 1, 2]) {
            expect(await walletBalance(t.handle.db, uid(u))).toBe(bal(u));
          }
          const report = await verifyLedger(t.handle);
          expect(report.problems).toEqual([]);
        },
      ),
      { numRuns: 25 },
    );
  });
});
