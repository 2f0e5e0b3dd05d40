import { eq, type SQL, sql } from "drizzle-orm";
import type { Executor } from "../../db/client.ts";
import { accounts, entries, type UplineMargin } from "../../db/schema.ts";
import { jsonOf, rowsOf } from "../../db/sql-rows.ts";

// the double-entry core: every movement of money is one transfer whose entries sum to
// zero, applied at most once per business key, inside a database transaction.

/** the shop's own accounts; user wallets are "user:<telegram id>" */
export const SHOP_ACCOUNTS = {
  /** money taken from wallets for orders not yet final */
  holds: "shop:holds",
  /** the shop's margin on successful orders (may go negative if the supplier overcharges) */
  revenue: "shop:revenue",
  /** what successful orders cost at the supplier */
  supplierCost: "shop:supplier_cost",
  /** the other side of deposits and admin credits: money the shop received from outside */
  deposits: "shop:deposits",
  /** the other side of admin debits */
  adjustments: "shop:adjustments",
  /** money the owner put into the supplier account (top-ups); orders' costs draw on it */
  supplierPrepaid: "shop:supplier_prepaid",
  /** the other side of supplier top-ups: the owner's own money, from outside */
  ownerFunds: "shop:owner_funds",
  /** money buyers paid through the payment gateway, held there until it pays the shop out */
  gateway: "shop:gateway",
} as const;

type ShopAccount = (typeof SHOP_ACCOUNTS)[keyof typeof SHOP_ACCOUNTS];

/**
 * a supplier's prepaid account: the first supplier's (null) is shop:supplier_prepaid, as
 * before there were several; another's is shop:supplier_prepaid:<name>
 */
function supplierPrepaidAccount(supplier: string | null): string {
  return supplier === null
    ? SHOP_ACCOUNTS.supplierPrepaid
    : `${SHOP_ACCOUNTS.supplierPrepaid}:${supplier}`;
}

/** another supplier's prepaid account (its name as SUPPLIER_<n>_NAME allows) */
const OTHER_PREPAID = /^shop:supplier_prepaid:[a-z0-9-]{1,32}$/;

/** shop accounts that may go below zero, and why: they mirror money outside the wallets */
const MAY_GO_NEGATIVE: ReadonlySet<string> = new Set([
  SHOP_ACCOUNTS.deposits,
  SHOP_ACCOUNTS.gateway,
  SHOP_ACCOUNTS.ownerFunds,
  SHOP_ACCOUNTS.adjustments,
  SHOP_ACCOUNTS.revenue,
]);

/**
 * accounts whose balance is not kept in their row but is the sum of their entries. Every
 * Pay and every settlement moves money through shop:holds, and every capture credits
 * shop:supplier_cost and shop:revenue: a running balance in any of them would be one row
 * every Pay, or every settlement, in the shop waits on until its commit. Their entries are
 * their truth, and `kios ledger verify` checks them (holds never negative and equal to the
 * open holds; supplier cost never negative).
 */
export const DERIVED_ACCOUNTS: ReadonlySet<string> = new Set([
  SHOP_ACCOUNTS.holds,
  SHOP_ACCOUNTS.supplierCost,
  SHOP_ACCOUNTS.revenue,
]);

type TransferKind =
  | "deposit"
  | "debit"
  | "credit"
  | "hold"
  | "capture"
  | "release"
  | "supplier_topup"
  | "margin"
  | "wallet_transfer";

interface Leg {
  /** an account key: "user:<id>" or one of SHOP_ACCOUNTS */
  account: string;
  /** signed integer rupiah: positive credits, negative debits */
  amount: number;
}

export interface TransferSpec {
  /** business key: the same key never moves money twice */
  key: string;
  kind: TransferKind;
  legs: Leg[];
  memo?: string;
  actorId?: number | undefined;
  /**
   * the transfer this one settles: its entry on `account` must exist with `amount`, or
   * nothing moves (LedgerError). Checked in the transfer's own statement
   */
  requires?: { key: string; account: string; amount: number } | undefined;
}

export interface TransferResult {
  /** false when a transfer with this key already existed (nothing moved now) */
  applied: boolean;
  transferId: number;
  /** the kind of the transfer stored under this key (differs from the request on a clash) */
  kind: TransferKind;
}

export class InsufficientFundsError extends Error {
  override name = "InsufficientFundsError";
  constructor(
    readonly account: string,
    readonly needed: number,
    /** what the account held when it was found short */
    readonly balance: number,
  ) {
    super(`not enough balance in ${account} for ${needed}`);
  }
}

export class LedgerError extends Error {
  override name = "LedgerError";
}

export const userAccountKey = (userId: number) => `user:${userId}`;

export function assertAmount(amount: number, what: string, max = Number.MAX_SAFE_INTEGER): void {
  if (!Number.isSafeInteger(amount) || amount <= 0) {
    throw new LedgerError(`${what} must be a positive whole number of rupiah, got ${amount}`);
  }
  if (amount > max) {
    throw new LedgerError(`${what} of ${amount} is above the limit of ${max} for one operation`);
  }
}

/** what kios_transfer (migration 0025) answers */
type StoredTransfer =
  | { applied: boolean; id: number; kind: TransferKind; short?: undefined; unmet?: undefined }
  | { applied: false; short: string; needed: number; balance: number; unmet?: undefined }
  | { applied: false; unmet: "missing" | "amount"; held?: number; short?: undefined };

/** an account a leg may name: a wallet, one of the shop's, another supplier's prepaid */
function accountOfKey(key: string): { userId: number | null } {
  const user = /^user:(\d+)$/.exec(key);
  if (user) return { userId: Number(user[1]) };
  if (Object.values(SHOP_ACCOUNTS).includes(key as ShopAccount) || OTHER_PREPAID.test(key)) {
    return { userId: null };
  }
  throw new LedgerError(`unknown account ${key}`);
}

/**
 * applies a balanced transfer once, in one statement (the database function kios_transfer,
 * migration 0025): the transfer stored under its key, the accounts it names made if they are
 * new, its entries, and the balances, locked wallets first and the shop's shared accounts
 * last (one order for every transfer keeps them from deadlocking). The balances are checked
 * before anything is written, so a refused transfer writes nothing and needs no savepoint:
 * it throws InsufficientFundsError and the caller's transaction may go on.
 */
export async function transfer(exec: Executor, spec: TransferSpec): Promise<TransferResult> {
  const [row] = rowsOf(
    await exec.execute(sql`select ${transferCall(spec, sql`${spec.key}`)} as stored`),
  );
  return transferResult(spec, row?.stored);
}

/**
 * the kios_transfer call that applies `spec`, as an expression of a statement (`key`, `memo`:
 * as SQL, which may be computed in that statement); the legs checked first
 */
function transferCall(spec: TransferSpec, key: SQL, memo: SQL = sql`${spec.memo ?? ""}`): SQL {
  const a = transferArgs(spec);
  return sql`kios_transfer(${key}::text, ${a.kind}::text, ${memo}::text,
    ${a.actorId}::bigint, ${a.legs}::jsonb, ${a.requires}::jsonb)`;
}

/** kios_transfer's arguments for `spec` but its key and memo, checked: the legs balance */
function transferArgs(spec: TransferSpec) {
  if (spec.legs.length < 2) throw new LedgerError("a transfer needs at least two legs");
  for (const leg of spec.legs) {
    if (!Number.isSafeInteger(leg.amount) || leg.amount === 0) {
      throw new LedgerError(`leg amounts must be non-zero whole rupiah, got ${leg.amount}`);
    }
  }
  if (spec.legs.reduce((sum, leg) => sum + leg.amount, 0) !== 0) {
    throw new LedgerError(`transfer ${spec.key} does not balance`);
  }
  const legs = spec.legs.map((leg) => ({
    account: leg.account,
    amount: leg.amount,
    userId: accountOfKey(leg.account).userId,
    allowNegative: MAY_GO_NEGATIVE.has(leg.account),
    derived: DERIVED_ACCOUNTS.has(leg.account),
  }));
  return {
    kind: spec.kind,
    actorId: spec.actorId ?? null,
    legs: JSON.stringify(legs),
    requires: spec.requires ? JSON.stringify(spec.requires) : null,
  };
}

/** what kios_transfer answered for `spec`: the transfer, or the refusal thrown */
function transferResult(spec: TransferSpec, value: unknown): TransferResult {
  const stored = jsonOf<StoredTransfer>(value);
  if (!stored) throw new LedgerError(`transfer ${spec.key} was not stored`);
  if (stored.unmet !== undefined) throw unmetRequirement(spec, stored);
  if (stored.short !== undefined) {
    throw new InsufficientFundsError(stored.short, Number(stored.needed), Number(stored.balance));
  }
  return { applied: stored.applied, transferId: Number(stored.id), kind: stored.kind };
}

function unmetRequirement(
  spec: TransferSpec,
  stored: { unmet: "missing" | "amount"; held?: number },
): LedgerError {
  const required = spec.requires;
  return new LedgerError(
    stored.unmet === "missing"
      ? `${spec.key} settles ${required?.key}, which does not exist`
      : `${spec.key} settles ${required?.key}, which holds ${stored.held}, not ${required?.amount}`,
  );
}

/** a user's wallet balance (0 when they have no account yet). */
export async function walletBalance(exec: Executor, userId: number): Promise<number> {
  return accountBalance(exec, userAccountKey(userId));
}

/**
 * a user's wallet balance as a column of another statement (a user's account keeps a running
 * balance; none yet: 0), so a read that goes with a write costs no round trip of its own;
 * `key` the wallet's account key (userAccountKey), a placeholder of a statement built once
 */
export function walletBalanceOfKey(key: SQL) {
  return sql<number>`coalesce((select ${accounts.balance} from ${accounts}
    where ${accounts.key} = ${key}), 0)`.mapWith(Number);
}

export async function accountBalance(exec: Executor, key: string): Promise<number> {
  if (DERIVED_ACCOUNTS.has(key)) {
    const [sum] = await exec
      .select({ balance: sql<string>`coalesce(sum(${entries.amount}), 0)` })
      .from(entries)
      .innerJoin(accounts, eq(accounts.id, entries.accountId))
      .where(eq(accounts.key, key));
    return Number(sum?.balance ?? 0);
  }
  const [row] = await exec
    .select({ balance: accounts.balance })
    .from(accounts)
    .where(eq(accounts.key, key));
  return row?.balance ?? 0;
}

// ---- the operations the shop performs ----

/**
 * the most one manual operation (an admin's credit or debit, a deposit) may move, unless
 * the shop sets its own bound (MAX_AMOUNT): a typo of three zeros must not mint money
 */
export const MAX_OPERATION_AMOUNT = 100_000_000;

export interface ManualTransfer {
  userId: number;
  amount: number;
  /** the bound for this operation (default MAX_OPERATION_AMOUNT) */
  max?: number;
  /** business key, e.g. "deposit:17" or "admin:<update id>" */
  key: string;
  memo?: string;
  actorId?: number;
}

/** money arrives in a wallet from outside (a confirmed deposit, an admin credit). */
export async function creditWallet(
  exec: Executor,
  t: ManualTransfer & { kind?: "deposit" | "credit" },
): Promise<TransferResult> {
  assertAmount(t.amount, "amount", t.max ?? MAX_OPERATION_AMOUNT);
  return transfer(exec, {
    key: t.key,
    kind: t.kind ?? "credit",
    memo: t.memo ?? "",
    actorId: t.actorId,
    legs: [
      { account: SHOP_ACCOUNTS.deposits, amount: -t.amount },
      { account: userAccountKey(t.userId), amount: t.amount },
    ],
  });
}

/** a payment the gateway confirmed as paid reaches the wallet: once per gateway order id */
export async function creditFromGateway(
  exec: Executor,
  t: { key: string; userId: number; amount: number; memo: string },
): Promise<TransferResult> {
  assertAmount(t.amount, "amount");
  return transfer(exec, {
    key: t.key,
    kind: "deposit",
    memo: t.memo,
    legs: [
      { account: SHOP_ACCOUNTS.gateway, amount: -t.amount },
      { account: userAccountKey(t.userId), amount: t.amount },
    ],
  });
}

/** an admin takes money out of a wallet (a correction, a withdrawal paid out by hand). */
export async function debitWallet(exec: Executor, t: ManualTransfer): Promise<TransferResult> {
  assertAmount(t.amount, "amount", t.max ?? MAX_OPERATION_AMOUNT);
  return transfer(exec, {
    key: t.key,
    kind: "debit",
    memo: t.memo ?? "",
    actorId: t.actorId,
    legs: [
      { account: userAccountKey(t.userId), amount: -t.amount },
      { account: SHOP_ACCOUNTS.adjustments, amount: t.amount },
    ],
  });
}

/** the owner put money into the supplier account: once per top-up row */
export async function bookSupplierTopup(
  exec: Executor,
  t: {
    topupId: number;
    amount: number;
    memo?: string;
    actorId?: number | undefined;
    /** the top-up row's supplier (null: the first) */
    supplier: string | null;
  },
): Promise<TransferResult> {
  return transfer(exec, {
    key: `supplier_topup:${t.topupId}`,
    kind: "supplier_topup",
    memo: t.memo ?? "",
    actorId: t.actorId,
    legs: [
      { account: SHOP_ACCOUNTS.ownerFunds, amount: -t.amount },
      { account: supplierPrepaidAccount(t.supplier), amount: t.amount },
    ],
  });
}

/** a top-up booked in error goes back: once, keyed to the top-up, the first transfer kept */
export async function reverseSupplierTopupTransfer(
  exec: Executor,
  t: {
    topupId: number;
    amount: number;
    memo: string;
    actorId?: number | undefined;
    /** the top-up row's supplier (null: the first) */
    supplier: string | null;
  },
): Promise<TransferResult> {
  return transfer(exec, {
    key: `supplier_topup:${t.topupId}:reversal`,
    kind: "supplier_topup",
    memo: t.memo,
    actorId: t.actorId,
    legs: [
      { account: supplierPrepaidAccount(t.supplier), amount: -t.amount },
      { account: SHOP_ACCOUNTS.ownerFunds, amount: t.amount },
    ],
  });
}

const holdKey = (orderId: number) => `order:${orderId}:hold`;
/** capture and release share one key: an order is settled once, one way or the other */
const settleKey = (orderId: number) => `order:${orderId}:settle`;

/** an order's hold: its price from the buyer's wallet into holds */
function holdSpec(o: { orderId: number; userId: number; amount: number }): TransferSpec {
  assertAmount(o.amount, "hold");
  return {
    key: holdKey(o.orderId),
    kind: "hold",
    memo: `order ${o.orderId}`,
    legs: [
      { account: userAccountKey(o.userId), amount: -o.amount },
      { account: SHOP_ACCOUNTS.holds, amount: o.amount },
    ],
  };
}

/** moves an order's price from the buyer's wallet into holds. */
export async function holdForOrder(
  exec: Executor,
  o: { orderId: number; userId: number; amount: number },
): Promise<TransferResult> {
  return transfer(exec, holdSpec(o));
}

/**
 * an order's hold as an expression of the statement that stores the order (Pay: one round
 * trip for both), `orderId` that statement's id of it; holdResultOf() reads its value
 */
export function holdCallOf(orderId: SQL, p: HoldCallPlaceholders, strict = false): SQL {
  // the key and memo are the order's; the legs do not depend on its id. Strict: a hold not
  // made fails the whole statement (kios_transfer_or_fail, for a statement with no
  // transaction around it)
  const call = strict ? sql`kios_transfer_or_fail` : sql`kios_transfer`;
  return sql`${call}('order:' || ${orderId} || ':hold', ${p.kind}::text,
    'order ' || ${orderId}, ${p.actorId}::bigint, ${p.legs}::jsonb, ${p.requires}::jsonb)`;
}

/** holdCallOf's placeholders in a statement built once (db/built-once.ts) */
interface HoldCallPlaceholders {
  kind: SQL;
  actorId: SQL;
  legs: SQL;
  requires: SQL;
}

/** the values of holdCallOf's placeholders for this hold (checked as any transfer's) */
export const holdCallValues = (o: { userId: number; amount: number }) =>
  transferArgs(holdSpec({ orderId: 0, ...o }));

/** what holdCallOf's value says of order `orderId`'s hold: made, or refused (thrown) */
export function holdResultOf(
  value: unknown,
  o: { orderId: number; userId: number; amount: number },
): TransferResult {
  return transferResult(holdSpec(o), value);
}

/** what an order's capture or release settles: its hold, of the order's price */
const heldFor = (orderId: number, amount: number) => ({
  key: holdKey(orderId),
  account: SHOP_ACCOUNTS.holds,
  amount,
});

function settled(result: TransferResult, wanted: TransferKind, orderId: number): TransferResult {
  if (!result.applied && result.kind !== wanted) {
    throw new LedgerError(`order ${orderId} was already settled by ${result.kind}`);
  }
  return result;
}

/** one upline's margin on one order: its key names both, so it is credited once */
const marginKey = (orderId: number, uplineId: number) => `order:${orderId}:margin:${uplineId}`;

/**
 * a successful order: its hold becomes supplier cost, the shop's margin, and each upline's
 * margin in their wallet, all in the caller's transaction (design rule 16). The margins
 * are the ones stored on the order when it was placed.
 */
export async function captureOrder(
  exec: Executor,
  o: { orderId: number; price: number; cost: number; margins?: readonly UplineMargin[] },
): Promise<TransferResult> {
  const margins = o.margins ?? [];
  const result = settled(await transfer(exec, captureSpec(o)), "capture", o.orderId);
  // a capture made before made its margins with it, in the same transaction
  if (!result.applied) return result;
  for (const m of margins) {
    await transfer(exec, {
      key: marginKey(o.orderId, m.userId),
      kind: "margin",
      memo: `order ${o.orderId}`,
      legs: [
        { account: SHOP_ACCOUNTS.holds, amount: -m.amount },
        { account: userAccountKey(m.userId), amount: m.amount },
      ],
    });
  }
  return result;
}

/**
 * an order's capture, checked: the shop's part of its hold (the price less the uplines'
 * margins) becomes supplier cost and the shop's margin; it settles the hold of the price
 */
function captureSpec(o: {
  orderId: number;
  price: number;
  cost: number;
  margins?: readonly UplineMargin[];
}): TransferSpec {
  assertAmount(o.price, "price");
  if (!Number.isSafeInteger(o.cost) || o.cost < 0) throw new LedgerError("cost must be ≥ 0");
  const margins = o.margins ?? [];
  for (const m of margins) assertAmount(m.amount, `order ${o.orderId}'s margin`);
  const uplines = margins.reduce((sum, m) => sum + m.amount, 0);
  if (uplines >= o.price) throw new LedgerError(`order ${o.orderId}'s margins exceed its price`);
  const shopPart = o.price - uplines;
  const legs: Leg[] = [{ account: SHOP_ACCOUNTS.holds, amount: -shopPart }];
  if (o.cost > 0) legs.push({ account: SHOP_ACCOUNTS.supplierCost, amount: o.cost });
  if (shopPart !== o.cost) legs.push({ account: SHOP_ACCOUNTS.revenue, amount: shopPart - o.cost });
  return {
    key: settleKey(o.orderId),
    kind: "capture",
    memo: `order ${o.orderId}`,
    legs,
    requires: heldFor(o.orderId, o.price),
  };
}

/**
 * the capture of an order with no uplines' margins, as the values of a kios_transfer_or_fail
 * call (migration 0041) in the statement that settles the order: applied there, or that
 * whole statement fails (a lone statement has no transaction to roll back for it)
 */
export function captureCallValues(o: { orderId: number; price: number; cost: number }) {
  const spec = captureSpec(o);
  return { key: spec.key, memo: spec.memo ?? "", ...transferArgs(spec) };
}

/** a failed order: its hold goes back to the buyer's wallet. */
export async function releaseOrder(
  exec: Executor,
  o: { orderId: number; userId: number; amount: number },
): Promise<TransferResult> {
  assertAmount(o.amount, "release");
  const result = await transfer(exec, {
    key: settleKey(o.orderId),
    kind: "release",
    memo: `order ${o.orderId}`,
    requires: heldFor(o.orderId, o.amount),
    legs: [
      { account: SHOP_ACCOUNTS.holds, amount: -o.amount },
      { account: userAccountKey(o.userId), amount: o.amount },
    ],
  });
  return settled(result, "release", o.orderId);
}
