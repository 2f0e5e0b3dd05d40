import { randomInt } from "node:crypto";
import type { Clock } from "@kios/kit";
import { systemClock } from "@kios/kit";
import { and, eq, gt, lte } from "drizzle-orm";
import type { Database, Executor } from "../../db/client.ts";
import { isUniqueViolation } from "../../db/errors.ts";
import { depositRequests } from "../../db/schema.ts";
import { enqueueNotification } from "../notifications/outbox.ts";
import { getSetting, isNumber, isString } from "../settings.ts";
import { creditWallet, MAX_OPERATION_AMOUNT } from "./ledger.ts";

export type DepositRequest = typeof depositRequests.$inferSelect;

export const DEPOSIT_SETTINGS = {
  min: { key: "deposit.min", fallback: 10_000 },
  max: { key: "deposit.max", fallback: 10_000_000 },
  ttlMinutes: { key: "deposit.ttl_minutes", fallback: 24 * 60 },
  instructions: {
    key: "deposit.instructions",
    // {amount} and {reference} are filled in; the shop sets its own bank or e-wallet text
    fallback:
      "Transfer exactly {amount} to BCA 1234567890 (Toko Kios) and mention {reference}. " +
      "An admin confirms it shortly.",
  },
} as const;

export class DepositError extends Error {
  override name = "DepositError";
  constructor(
    readonly reason:
      | "amount_too_small"
      | "amount_too_large"
      | "not_found"
      | "already_decided"
      | "expired"
      | "busy",
    message: string,
  ) {
    super(message);
  }
}

/** the smallest and largest deposit the shop accepts (settings, with defaults), by any way to pay */
export async function depositLimits(db: Executor): Promise<{ min: number; max: number }> {
  const [min, max] = await Promise.all([
    getSetting(db, DEPOSIT_SETTINGS.min.key, DEPOSIT_SETTINGS.min.fallback, isNumber),
    getSetting(db, DEPOSIT_SETTINGS.max.key, DEPOSIT_SETTINGS.max.fallback, isNumber),
  ]);
  return { min, max };
}

function newReference(): string {
  const alphabet = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789";
  let out = "D";
  for (let i = 0; i < 7; i++) out += alphabet[randomInt(alphabet.length)];
  return out;
}

/**
 * a user asks to top up: they are told to pay the amount plus a small unique code (1–999
 * rupiah), so the admin can match the bank transfer to this request.
 */
export async function requestDeposit(
  db: Database,
  r: {
    userId: number;
    amount: number;
    clock?: Clock;
    maxAmount?: number;
    /** admins who get the request (a deposit_requested notice each, in the same transaction) */
    adminIds?: readonly number[];
  },
): Promise<DepositRequest & { instructions: string }> {
  const clock = r.clock ?? systemClock;
  const { min, max } = await depositLimits(db);
  if (!Number.isSafeInteger(r.amount) || r.amount < min) {
    throw new DepositError("amount_too_small", `the smallest deposit is ${min}`);
  }
  const largest = Math.min(max, r.maxAmount ?? MAX_OPERATION_AMOUNT);
  if (r.amount > largest) {
    throw new DepositError("amount_too_large", `the largest deposit is ${largest}`);
  }
  const ttl = await getSetting(
    db,
    DEPOSIT_SETTINGS.ttlMinutes.key,
    DEPOSIT_SETTINGS.ttlMinutes.fallback,
    isNumber,
  );
  const template = await getSetting(
    db,
    DEPOSIT_SETTINGS.instructions.key,
    DEPOSIT_SETTINGS.instructions.fallback,
    isString,
  );
  for (let attempt = 0; attempt < 25; attempt++) {
    try {
      // one transaction an attempt: the request and its notices to the admins, or nothing
      const row = await db.transaction(async (tx) => {
        const [row] = await tx
          .insert(depositRequests)
          .values({
            userId: r.userId,
            amount: r.amount,
            payAmount: r.amount + randomInt(1, 1000),
            reference: newReference(),
            expiresAt: new Date(clock.now() + ttl * 60_000),
          })
          .returning();
        for (const adminId of r.adminIds ?? []) {
          await enqueueNotification(tx, {
            key: `deposit:${row!.id}:requested:${adminId}`,
            chatId: adminId,
            payload: { type: "deposit_requested", depositId: row!.id },
          });
        }
        return row;
      });
      const instructions = template
        .replaceAll("{amount}", formatPlain(row!.payAmount))
        .replaceAll("{reference}", row!.reference);
      return { ...row!, instructions };
    } catch (err) {
      // another open request already waits for that exact amount: draw another code
      if (!isUniqueViolation(err)) throw err;
    }
  }
  throw new DepositError("busy", "too many open deposit requests for this amount; try another");
}

function formatPlain(n: number): string {
  return `Rp${n.toLocaleString("id-ID")}`;
}

async function decide(
  tx: Executor,
  id: number,
  status: "confirmed" | "rejected",
  adminId: number,
  now: Date,
): Promise<DepositRequest> {
  const [row] = await tx
    .update(depositRequests)
    .set({ status, decidedAt: now, decidedBy: adminId })
    .where(
      and(
        eq(depositRequests.id, id),
        eq(depositRequests.status, "requested"),
        gt(depositRequests.expiresAt, now),
      ),
    )
    .returning();
  if (row) return row;
  const [existing] = await tx.select().from(depositRequests).where(eq(depositRequests.id, id));
  if (!existing) throw new DepositError("not_found", `no deposit request ${id}`);
  if (existing.status !== "requested") {
    throw new DepositError(
      "already_decided",
      `deposit request ${id} is already ${existing.status}`,
    );
  }
  throw new DepositError("expired", `deposit request ${id} has expired`);
}

/** the user hears of the decision: queued with it, so a crash can't keep it from them */
function tellDecision(tx: Executor, row: DepositRequest): Promise<boolean> {
  return enqueueNotification(tx, {
    key: `deposit:${row.id}:decided`,
    chatId: row.userId,
    payload: { type: "deposit_decided", depositId: row.id },
  });
}

/** an admin saw the money arrive: the request is confirmed and the wallet credited, at once. */
export function confirmDeposit(
  db: Database,
  c: { id: number; adminId: number; clock?: Clock },
): Promise<DepositRequest> {
  const now = new Date((c.clock ?? systemClock).now());
  return db.transaction(async (tx) => {
    const row = await decide(tx, c.id, "confirmed", c.adminId, now);
    await tellDecision(tx, row);
    await creditWallet(tx, {
      key: `deposit:${row.id}`,
      kind: "deposit",
      userId: row.userId,
      amount: row.payAmount,
      memo: `deposit ${row.reference}`,
      actorId: c.adminId,
    });
    return row;
  });
}

export function rejectDeposit(
  db: Database,
  c: { id: number; adminId: number; clock?: Clock },
): Promise<DepositRequest> {
  const now = new Date((c.clock ?? systemClock).now());
  return db.transaction(async (tx) => {
    const row = await decide(tx, c.id, "rejected", c.adminId, now);
    await tellDecision(tx, row);
    return row;
  });
}

/** closes requests past their time, and tells their users (in the same transaction). */
export async function expireDeposits(db: Database, clock: Clock = systemClock) {
  return db.transaction(async (tx) => {
    const expired = await tx
      .update(depositRequests)
      .set({ status: "expired", decidedAt: new Date(clock.now()) })
      .where(
        and(
          eq(depositRequests.status, "requested"),
          lte(depositRequests.expiresAt, new Date(clock.now())),
        ),
      )
      .returning();
    for (const row of expired) await tellDecision(tx, row);
    return expired;
  });
}

export async function findDeposit(exec: Executor, id: number) {
  const [row] = await exec.select().from(depositRequests).where(eq(depositRequests.id, id));
  return row;
}
