import { and, eq, gte, sql } from "drizzle-orm";
import type { Executor } from "../../db/client.ts";
import { users, walletTransfers } from "../../db/schema.ts";
import { rowsOf, toNumber } from "../../db/sql-rows.ts";
import { getSetting, isNumber } from "../settings.ts";
import {
  InsufficientFundsError,
  MAX_OPERATION_AMOUNT,
  transfer,
  walletBalance,
} from "../wallet/ledger.ts";

// balance transfers between wallets (/transfer): a reseller to a direct downline, an admin
// to anyone. Asked first (a confirmation card), then confirmed once: the row's conditional
// move from asked to done and the ledger transfer keyed to it commit together
// (design rule 16), bounded by the owner's limit per transfer and a daily cap per sender.

export const TRANSFER_SETTINGS = {
  max: "resellers.transfer_max",
  dailyCap: "resellers.transfer_daily_cap",
} as const;
const DEFAULT_MAX = 1_000_000;
const DEFAULT_DAILY_CAP = 5_000_000;
/** how long a confirmation card's transfer may be confirmed */
const ASK_TTL_MS = 10 * 60_000;
const WIB_OFFSET_MS = 7 * 3600_000;

interface TransferLimits {
  max: number;
  dailyCap: number;
}

export async function transferLimits(db: Executor): Promise<TransferLimits> {
  const [max, dailyCap] = await Promise.all([
    getSetting(db, TRANSFER_SETTINGS.max, DEFAULT_MAX, isNumber),
    getSetting(db, TRANSFER_SETTINGS.dailyCap, DEFAULT_DAILY_CAP, isNumber),
  ]);
  return { max, dailyCap };
}

function wibDayStart(now: number): Date {
  const wib = new Date(now + WIB_OFFSET_MS);
  return new Date(
    Date.UTC(wib.getUTCFullYear(), wib.getUTCMonth(), wib.getUTCDate()) - WIB_OFFSET_MS,
  );
}

/** what a sender has transferred today (WIB) */
async function sentToday(db: Executor, fromUserId: number, now: number): Promise<number> {
  const [row] = await db
    .select({ total: sql<string>`coalesce(sum(${walletTransfers.amount}), 0)` })
    .from(walletTransfers)
    .where(
      and(
        eq(walletTransfers.fromUserId, fromUserId),
        eq(walletTransfers.status, "done"),
        gte(walletTransfers.decidedAt, wibDayStart(now)),
      ),
    );
  return toNumber(row?.total);
}

export type TransferRefusal =
  | { ok: false; reason: "bad_amount" }
  | { ok: false; reason: "self" }
  | { ok: false; reason: "not_downline" }
  /** at Send: the recipient was moved out of the sender's downlines since the card */
  | { ok: false; reason: "moved_away"; toUserId: number }
  | { ok: false; reason: "above_max"; max: number }
  | { ok: false; reason: "daily_cap"; cap: number; left: number }
  | { ok: false; reason: "insufficient_balance"; balance: number }
  | { ok: false; reason: "not_found" }
  | { ok: false; reason: "expired" };

export interface AskedTransfer {
  id: number;
  toUserId: number;
  toName: string;
  amount: number;
  balance: number;
}

interface Sender {
  userId: number;
  /** an admin sends to anyone, past the owner's limits */
  isAdmin: boolean;
}

/**
 * the owner's limits on a transfer of this amount: when the card is drawn, and again at Send
 * (the owner may have lowered them since), where the transfer's own row is already counted
 * as sent today (`counted`)
 */
async function checkLimits(
  db: Executor,
  from: Sender,
  t: { amount: number; now: number; counted: boolean },
): Promise<TransferRefusal | undefined> {
  if (from.isAdmin) return undefined;
  const limits = await transferLimits(db);
  if (t.amount > limits.max) return { ok: false, reason: "above_max", max: limits.max };
  const sent = await sentToday(db, from.userId, t.now);
  const before = t.counted ? sent - t.amount : sent;
  if (before + t.amount > limits.dailyCap) {
    return {
      ok: false,
      reason: "daily_cap",
      cap: limits.dailyCap,
      left: Math.max(0, limits.dailyCap - before),
    };
  }
  return undefined;
}

/**
 * the recipient is still the sender's direct downline (an admin sends to anyone): they may
 * have been moved since the card was drawn. Their row is read under a share lock, so a move
 * under way is waited for and one that comes later waits for this Send
 */
async function stillDownline(
  tx: Executor,
  from: Sender,
  row: typeof walletTransfers.$inferSelect,
): Promise<boolean> {
  if (from.isAdmin) return true;
  const [to] = await tx
    .select({ parentId: users.parentId })
    .from(users)
    .where(eq(users.telegramId, row.toUserId))
    .for("share");
  return to?.parentId === row.fromUserId;
}

/** a transfer for the confirmation card, or why it can't be made */
export async function askTransfer(
  db: Executor,
  t: Sender & { toUserId: number; amount: number; now: number },
): Promise<{ ok: true; transfer: AskedTransfer } | TransferRefusal> {
  if (!Number.isSafeInteger(t.amount) || t.amount <= 0 || t.amount > MAX_OPERATION_AMOUNT) {
    return { ok: false, reason: "bad_amount" };
  }
  if (t.toUserId === t.userId) return { ok: false, reason: "self" };
  const [to] = await db
    .select({ parentId: users.parentId, firstName: users.firstName })
    .from(users)
    .where(eq(users.telegramId, t.toUserId));
  if (!to || (!t.isAdmin && to.parentId !== t.userId)) return { ok: false, reason: "not_downline" };
  const limited = await checkLimits(db, t, { amount: t.amount, now: t.now, counted: false });
  if (limited) return limited;
  const balance = await walletBalance(db, t.userId);
  if (balance < t.amount) return { ok: false, reason: "insufficient_balance", balance };
  const [row] = await db
    .insert(walletTransfers)
    .values({
      fromUserId: t.userId,
      toUserId: t.toUserId,
      amount: t.amount,
      createdAt: new Date(t.now),
    })
    .returning({ id: walletTransfers.id });
  return {
    ok: true,
    transfer: {
      id: row!.id,
      toUserId: t.toUserId,
      toName: to.firstName,
      amount: t.amount,
      balance,
    },
  };
}

export interface DoneTransfer {
  id: number;
  fromUserId: number;
  toUserId: number;
  amount: number;
  /** false when it was done before (a repeated tap): nothing moved now */
  now: boolean;
  fromBalance: number;
  toBalance: number;
}

class Refused extends Error {
  constructor(readonly refusal: TransferRefusal) {
    super(refusal.reason);
  }
}

/**
 * moves the money of an asked transfer, once: a repeated or concurrent confirmation finds
 * it done and moves nothing. Refused past its time, to someone no longer the sender's
 * downline, beyond the limits (as they are at Send) or the balance.
 */
export async function confirmTransfer(
  db: Executor,
  c: Sender & { transferId: number; now: number },
): Promise<{ ok: true; transfer: DoneTransfer } | TransferRefusal> {
  try {
    return await db.transaction(async (tx) => {
      // one sender's confirmations one at a time: the daily cap holds under races
      await tx.execute(
        sql`select pg_advisory_xact_lock(hashtextextended(${`wallet_transfer:${c.userId}`}, 0))`,
      );
      const [moved] = await tx
        .update(walletTransfers)
        .set({ status: "done", decidedAt: new Date(c.now) })
        .where(
          and(
            eq(walletTransfers.id, c.transferId),
            eq(walletTransfers.fromUserId, c.userId),
            eq(walletTransfers.status, "asked"),
          ),
        )
        .returning();
      if (!moved) {
        const [row] = await tx
          .select()
          .from(walletTransfers)
          .where(
            and(eq(walletTransfers.id, c.transferId), eq(walletTransfers.fromUserId, c.userId)),
          );
        if (row?.status !== "done") throw new Refused({ ok: false, reason: "not_found" });
        return { ok: true as const, transfer: await done(tx, row, false) };
      }
      if (c.now - moved.createdAt.getTime() > ASK_TTL_MS) {
        throw new Refused({ ok: false, reason: "expired" });
      }
      // re-checked at Send, on what holds now (design rule 18: a downline moved away is not
      // the sender's to pay; a limit lowered since the card binds it)
      if (!(await stillDownline(tx, c, moved))) {
        throw new Refused({ ok: false, reason: "moved_away", toUserId: moved.toUserId });
      }
      const limited = await checkLimits(tx, c, { amount: moved.amount, now: c.now, counted: true });
      if (limited) throw new Refused(limited);
      try {
        await transfer(tx, {
          key: `wallet_transfer:${moved.id}`,
          kind: "wallet_transfer",
          memo: `transfer ${moved.id}`,
          actorId: c.userId,
          legs: [
            { account: `user:${moved.fromUserId}`, amount: -moved.amount },
            { account: `user:${moved.toUserId}`, amount: moved.amount },
          ],
        });
      } catch (err) {
        if (!(err instanceof InsufficientFundsError)) throw err;
        throw new Refused({
          ok: false,
          reason: "insufficient_balance",
          balance: await walletBalance(tx, c.userId),
        });
      }
      return { ok: true as const, transfer: await done(tx, moved, true) };
    });
  } catch (err) {
    if (err instanceof Refused) return err.refusal;
    throw err;
  }
}

async function done(
  tx: Executor,
  row: typeof walletTransfers.$inferSelect,
  now: boolean,
): Promise<DoneTransfer> {
  return {
    id: row.id,
    fromUserId: row.fromUserId,
    toUserId: row.toUserId,
    amount: row.amount,
    now,
    fromBalance: await walletBalance(tx, row.fromUserId),
    toBalance: await walletBalance(tx, row.toUserId),
  };
}

/** the sender cancels an asked transfer; false when it was no longer asked */
export async function cancelTransfer(
  db: Executor,
  c: { userId: number; transferId: number; now: number },
): Promise<boolean> {
  const rows = rowsOf(
    await db.execute(sql`
      update wallet_transfers set status = 'cancelled', decided_at = ${new Date(c.now).toISOString()}::timestamptz
       where id = ${c.transferId} and from_user_id = ${c.userId} and status = 'asked'
      returning id`),
  );
  return rows.length > 0;
}

/** a user named as typed: a telegram id, or @username of someone who has used the bot */
export async function findRecipient(db: Executor, typed: string): Promise<number | undefined> {
  const name = /^@?([A-Za-z0-9_]{4,32})$/.exec(typed.trim());
  if (/^\d{1,15}$/.test(typed.trim())) return Number(typed.trim());
  if (!name) return undefined;
  const [row] = await db
    .select({ id: users.telegramId })
    .from(users)
    .where(sql`lower(${users.username}) = lower(${name[1]})`);
  return row?.id;
}
