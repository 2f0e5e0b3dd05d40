import { randomBytes } from "node:crypto";
import { and, eq, isNull, sql } from "drizzle-orm";
import type { Executor } from "../../db/client.ts";
import { users } from "../../db/schema.ts";
import { rowsOf, toNumber } from "../../db/sql-rows.ts";
import { getSetting, isNumber, putSetting } from "../settings.ts";

// the reseller tree (docs/resellers.md#joining): each user has at most one upline, set once
// when a plain customer says yes to a reseller's link, or by an admin (design rule 19). The
// tree has no cycle and is no deeper than the owner's setting. Every change to it takes one
// transaction-scoped advisory lock, so two moves can never build a cycle between them.

const MAX_DEPTH_SETTING = "resellers.max_depth";
const DEFAULT_MAX_DEPTH = 5;
/** the advisory lock every change to the tree holds until its transaction ends */
const TREE_LOCK = 0x6b696f73_7472; // "kiostr"

export async function maxDepth(db: Executor): Promise<number> {
  return getSetting(db, MAX_DEPTH_SETTING, DEFAULT_MAX_DEPTH, isNumber);
}

export async function setMaxDepth(db: Executor, depth: number): Promise<void> {
  if (!Number.isSafeInteger(depth) || depth < 1 || depth > 10) {
    throw new RangeError(`the depth must be a whole number from 1 to 10 (got ${depth})`);
  }
  await putSetting(db, MAX_DEPTH_SETTING, depth);
}

/**
 * how many chains (a top of a tree down to a user with no downline) are deeper than `depth`
 * levels: after the limit is lowered they stay as they are until an admin moves someone
 */
export async function chainsDeeperThan(db: Executor, depth: number): Promise<number> {
  const [row] = rowsOf(
    await db.execute(sql`
      with recursive down(id, depth) as (
        select telegram_id, 0 from users where parent_id is null
        union all
        select u.telegram_id, down.depth + 1
          from users u join down on u.parent_id = down.id where down.depth < 64
      )
      select count(*) as n from down
       where depth > ${depth}
         and not exists (select 1 from users d where d.parent_id = down.id)`),
  );
  return toNumber(row?.n);
}

/** how many users hang directly under this one */
export async function downlineCount(db: Executor, userId: number): Promise<number> {
  const [row] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(users)
    .where(eq(users.parentId, userId));
  return toNumber(row?.n);
}

const CODE_ALPHABET = "abcdefghjkmnpqrstuvwxyz23456789";

function newCode(): string {
  return [...randomBytes(8)].map((b) => CODE_ALPHABET[b % CODE_ALPHABET.length]).join("");
}

/** the user's referral code (what follows r_ in their link), made the first time it is asked */
export async function referralCodeOf(db: Executor, userId: number): Promise<string> {
  for (let attempt = 0; attempt < 5; attempt++) {
    const [row] = await db
      .select({ code: users.referralCode })
      .from(users)
      .where(eq(users.telegramId, userId));
    if (row?.code) return row.code;
    try {
      // conditional: a concurrent call's code stands
      await db
        .insert(users)
        .values({ telegramId: userId, referralCode: newCode() })
        .onConflictDoUpdate({
          target: users.telegramId,
          set: { referralCode: sql`coalesce(${users.referralCode}, excluded.referral_code)` },
        });
    } catch (err) {
      // another user drew the same code: draw again
      if (attempt === 4) throw err;
    }
  }
  throw new Error("no referral code could be made");
}

/**
 * the owner of a referral code, if it is a reseller's. `lock`: their row is share-locked for
 * the rest of the transaction, so a demotion racing a join waits for it (or wins it)
 */
export async function resellerByCode(
  db: Executor,
  code: string,
  lock = false,
): Promise<{ telegramId: number; firstName: string; username: string | null } | undefined> {
  const query = db
    .select({ telegramId: users.telegramId, firstName: users.firstName, username: users.username })
    .from(users)
    .where(and(eq(users.referralCode, code.trim().toLowerCase()), eq(users.tier, "reseller")));
  const [row] = await (lock ? query.for("share") : query);
  return row;
}

/** how many levels sit above a user (0: no upline) */
async function depthOf(tx: Executor, userId: number): Promise<number> {
  const [row] = rowsOf(
    await tx.execute(sql`
      with recursive up(id, parent, depth) as (
        select telegram_id, parent_id, 0 from users where telegram_id = ${userId}
        union all
        select u.telegram_id, u.parent_id, up.depth + 1
          from users u join up on u.telegram_id = up.parent where up.depth < 64
      )
      select max(depth) as depth from up`),
  );
  return toNumber(row?.depth);
}

/** how many levels hang below a user (0: no downline), and whether `other` is among them */
async function subtreeOf(
  tx: Executor,
  userId: number,
  other: number,
): Promise<{ height: number; contains: boolean }> {
  const [row] = rowsOf(
    await tx.execute(sql`
      with recursive down(id, depth) as (
        select telegram_id, 0 from users where telegram_id = ${userId}
        union all
        select u.telegram_id, down.depth + 1
          from users u join down on u.parent_id = down.id where down.depth < 64
      )
      select coalesce(max(depth), 0) as height, bool_or(id = ${other}) as contains from down`),
  );
  return { height: toNumber(row?.height), contains: row?.contains === true };
}

type TreeRefusal =
  | { ok: false; reason: "unknown_code" }
  | { ok: false; reason: "unknown_upline"; uplineId: number }
  | { ok: false; reason: "self" }
  | { ok: false; reason: "already_joined"; uplineId: number }
  /** a reseller, or anyone with downlines: only an admin moves them (design rule 19) */
  | { ok: false; reason: "in_trade"; why: "reseller" | "downlines" }
  | { ok: false; reason: "cycle" }
  | { ok: false; reason: "too_deep"; maxDepth: number };

export type TreeResult = { ok: true; uplineId: number | null } | TreeRefusal;

/** may `userId` hang under `uplineId`: not themselves, no cycle, within the depth bound */
async function placeable(
  tx: Executor,
  userId: number,
  uplineId: number,
): Promise<TreeRefusal | undefined> {
  if (uplineId === userId) return { ok: false, reason: "self" };
  const below = await subtreeOf(tx, userId, uplineId);
  if (below.contains) return { ok: false, reason: "cycle" };
  const limit = await maxDepth(tx);
  if ((await depthOf(tx, uplineId)) + 1 + below.height > limit) {
    return { ok: false, reason: "too_deep", maxDepth: limit };
  }
  return undefined;
}

type Reseller = NonNullable<Awaited<ReturnType<typeof resellerByCode>>>;

/**
 * whether a link's code may take `userId` into its reseller's tree: a plain customer with no
 * upline and no downlines only, within the tree's bounds. `lock`: the user's and the
 * reseller's rows are locked for the rest of the transaction, so a promotion of the one or a
 * demotion of the other racing the join waits for it (or wins).
 */
async function joinable(
  tx: Executor,
  userId: number,
  code: string,
  lock: boolean,
): Promise<{ ok: true; upline: Reseller } | TreeRefusal> {
  const upline = await resellerByCode(tx, code, lock);
  if (!upline) return { ok: false, reason: "unknown_code" };
  if (upline.telegramId === userId) return { ok: false, reason: "self" };
  const [user] = rowsOf(
    await tx.execute(sql`
      select tier, parent_id,
        exists (select 1 from users d where d.parent_id = ${userId}) as has_downlines
        from users where telegram_id = ${userId}
        ${lock ? sql`for update` : sql``}`),
  );
  if (user?.parent_id != null) {
    return { ok: false, reason: "already_joined", uplineId: toNumber(user.parent_id) };
  }
  if (user?.tier === "reseller") return { ok: false, reason: "in_trade", why: "reseller" };
  if (user?.has_downlines === true) return { ok: false, reason: "in_trade", why: "downlines" };
  const refused = await placeable(tx, userId, upline.telegramId);
  return refused ?? { ok: true, upline };
}

/**
 * what opening a referral link would do, changing nothing: the reseller the user would join
 * under, or why they can't (docs/resellers.md#joining). The join itself is joinByCode, after
 * the user said yes.
 */
export async function joinOffer(
  db: Executor,
  userId: number,
  code: string,
): Promise<{ ok: true; upline: Reseller } | TreeRefusal> {
  return joinable(db, userId, code, false);
}

/**
 * the user said yes to a reseller's link: they become that reseller's downline, once, if they
 * still may (a plain customer without an upline or downlines, the link still a reseller's).
 * A user who already has an upline keeps it (only an admin moves a user).
 */
export async function joinByCode(db: Executor, userId: number, code: string): Promise<TreeResult> {
  return db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(${TREE_LOCK})`);
    // every change to the tree waits on the lock above; a change of tier (a promotion) waits
    // on the user's row, which joinable() locks before it reads the tier
    await tx.insert(users).values({ telegramId: userId }).onConflictDoNothing();
    const may = await joinable(tx, userId, code, true);
    if (!may.ok) return may;
    const [moved] = await tx
      .update(users)
      .set({ parentId: may.upline.telegramId, joinedAt: sql`now()`, updatedAt: sql`now()` })
      .where(and(eq(users.telegramId, userId), isNull(users.parentId), eq(users.tier, "customer")))
      .returning({ id: users.telegramId });
    return moved
      ? { ok: true, uplineId: may.upline.telegramId }
      : { ok: false, reason: "already_joined", uplineId: may.upline.telegramId };
  });
}

/**
 * an admin puts a user under another (null: at the top of a tree of their own; undefined:
 * where they are); with `promote`, the user becomes a reseller too
 */
export async function moveUser(
  db: Executor,
  m: { userId: number; uplineId: number | null | undefined; promote?: boolean },
): Promise<TreeResult> {
  return db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(${TREE_LOCK})`);
    if (m.uplineId === undefined) {
      await tx.insert(users).values({ telegramId: m.userId }).onConflictDoNothing();
      const [row] = await tx
        .update(users)
        .set({ ...(m.promote ? { tier: "reseller" as const } : {}), updatedAt: sql`now()` })
        .where(eq(users.telegramId, m.userId))
        .returning({ parentId: users.parentId });
      return { ok: true, uplineId: row?.parentId ?? null };
    }
    if (m.uplineId !== null) {
      // an upline is someone kios knows: a mistyped id must not become an empty customer
      const [known] = await tx
        .select({ id: users.telegramId })
        .from(users)
        .where(eq(users.telegramId, m.uplineId));
      if (!known) return { ok: false, reason: "unknown_upline", uplineId: m.uplineId };
      const refused = await placeable(tx, m.userId, m.uplineId);
      if (refused) return refused;
    }
    await tx.insert(users).values({ telegramId: m.userId }).onConflictDoNothing();
    await tx
      .update(users)
      .set({
        parentId: m.uplineId,
        joinedAt: m.uplineId === null ? null : sql`now()`,
        ...(m.promote ? { tier: "reseller" as const } : {}),
        updatedAt: sql`now()`,
      })
      .where(eq(users.telegramId, m.userId));
    return { ok: true, uplineId: m.uplineId };
  });
}
