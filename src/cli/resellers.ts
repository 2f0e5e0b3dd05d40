import { PricingError } from "../commerce/catalogue/errors.ts";
import { chainLimits } from "../commerce/catalogue/prices.ts";
import { setChainLimits } from "../commerce/resellers/markups.ts";
import { TRANSFER_SETTINGS, transferLimits } from "../commerce/resellers/transfers.ts";
import {
  chainsDeeperThan,
  downlineCount,
  maxDepth,
  moveUser,
  setMaxDepth,
  type TreeResult,
} from "../commerce/resellers/tree.ts";
import { putSetting } from "../commerce/settings.ts";
import { setTier } from "../commerce/users.ts";
import { formatRupiah } from "../supplier/amounts.ts";
import { type CliDeps, type Command, parseFlags, UsageError } from "./command.ts";
import { withDatabase } from "./database.ts";
import { print } from "./io.ts";

// `kios reseller`: the owner's hand on the reseller tree (docs/resellers.md#for-the-owner)

const USAGE = [
  "kios reseller move <user id> <upline id|none>",
  "       kios reseller promote <user id> [--under <upline id>]",
  "       kios reseller demote <user id>",
  "       kios reseller limits [--max-flat <rupiah>] [--max-percent <n>] [--depth <levels>]",
  "                            [--transfer-max <rupiah>] [--transfer-daily-cap <rupiah>]",
].join("\n");

function userId(text: string | undefined, what: string): number {
  if (text === undefined || !/^\d{1,15}$/.test(text))
    throw new UsageError(`${what} must be a telegram id`);
  return Number(text);
}

async function report(user: number, result: TreeResult): Promise<number> {
  if (!result.ok) {
    const why =
      result.reason === "too_deep"
        ? `the tree would be deeper than ${result.maxDepth} levels`
        : result.reason === "cycle"
          ? "that upline is below this user"
          : result.reason === "unknown_upline"
            ? `kios has never seen user ${result.uplineId}: an upline must have started the bot`
            : result.reason;
    console.error(`kios reseller: refused: ${why}`);
    return 1;
  }
  await print(`user ${user}: upline ${result.uplineId ?? "none"}`);
  return 0;
}

async function move(argv: string[], deps: CliDeps): Promise<number> {
  const { positionals } = parseFlags(argv, {}, true);
  const [user, upline, ...extra] = positionals;
  if (extra.length > 0 || upline === undefined) throw new UsageError(USAGE);
  const id = userId(user, "the user");
  const uplineId = upline === "none" ? null : userId(upline, "the upline");
  return withDatabase(deps, async ({ db }) =>
    report(id, await moveUser(db, { userId: id, uplineId })),
  );
}

async function promote(argv: string[], deps: CliDeps): Promise<number> {
  const { values, positionals } = parseFlags(argv, { under: { type: "string" } }, true);
  const [user, ...extra] = positionals;
  if (extra.length > 0) throw new UsageError(USAGE);
  const id = userId(user, "the user");
  const uplineId = values.under === undefined ? undefined : userId(values.under, "--under");
  return withDatabase(deps, async ({ db }) =>
    report(id, await moveUser(db, { userId: id, uplineId, promote: true })),
  );
}

/** the command line's /role <id> customer: their markups, margins and H2H access stop */
async function demote(argv: string[], deps: CliDeps): Promise<number> {
  const { positionals } = parseFlags(argv, {}, true);
  const [user, ...extra] = positionals;
  if (extra.length > 0) throw new UsageError(USAGE);
  const id = userId(user, "the user");
  return withDatabase(deps, async ({ db }) => {
    await setTier(db, id, "customer");
    const downlines = await downlineCount(db, id);
    await print(
      `user ${id}: customer; their markups, margins and H2H access stop now` +
        (downlines > 0
          ? `\n${downlines} direct downlines now pay what the level above charges (they stay under ${id} until moved)`
          : ""),
    );
    return 0;
  });
}

async function limits(argv: string[], deps: CliDeps): Promise<number> {
  const { values } = parseFlags(argv, {
    "max-flat": { type: "string" },
    "max-percent": { type: "string" },
    depth: { type: "string" },
    "transfer-max": { type: "string" },
    "transfer-daily-cap": { type: "string" },
  });
  const whole = (s: string | undefined, what: string) => {
    if (s === undefined) return undefined;
    if (!/^\d+$/.test(s)) throw new UsageError(`${what} must be a whole number`);
    return Number(s);
  };
  const percent = values["max-percent"];
  if (percent !== undefined && !/^\d+(\.\d{1,2})?$/.test(percent)) {
    throw new UsageError("--max-percent must be a number like 10 or 2.5");
  }
  const maxFlat = whole(values["max-flat"], "--max-flat");
  const depth = whole(values.depth, "--depth");
  const transferMax = whole(values["transfer-max"], "--transfer-max");
  const transferCap = whole(values["transfer-daily-cap"], "--transfer-daily-cap");
  return withDatabase(deps, async ({ db }) => {
    await setChainLimits(db, {
      maxFlat,
      maxBp: percent === undefined ? undefined : Math.round(Number(percent) * 100),
    });
    if (depth !== undefined) await setMaxDepth(db, depth);
    // chains already deeper stay as they are until moved: the owner is told how many
    const deeper = depth === undefined ? 0 : await chainsDeeperThan(db, depth);
    if (transferMax !== undefined) await putSetting(db, TRANSFER_SETTINGS.max, transferMax);
    if (transferCap !== undefined) await putSetting(db, TRANSFER_SETTINGS.dailyCap, transferCap);
    const now = await chainLimits(db);
    const transfers = await transferLimits(db);
    await print(
      `per level: at most ${formatRupiah(now.maxFlat)} and ${now.maxBp / 100} %; at most ${await maxDepth(db)} levels\n` +
        `transfers: at most ${formatRupiah(transfers.max)} each, ${formatRupiah(transfers.dailyCap)} a day per reseller` +
        (deeper > 0
          ? `\n${deeper} chains are deeper than ${depth} levels: they stay until a user in them is moved (kios reseller move)`
          : ""),
    );
    return 0;
  });
}

export const resellerCommand: Command = {
  name: "reseller",
  summary:
    "move a user in the reseller tree, promote or demote a reseller, or set the limits per level",
  usage: USAGE,
  async run(argv, deps) {
    const [sub, ...rest] = argv;
    try {
      if (sub === "move") return await move(rest, deps);
      if (sub === "promote") return await promote(rest, deps);
      if (sub === "demote") return await demote(rest, deps);
      if (sub === "limits") return await limits(rest, deps);
    } catch (err) {
      if (err instanceof PricingError || err instanceof RangeError) {
        console.error(`kios reseller: ${err.message}`);
        return 1;
      }
      throw err;
    }
    throw new UsageError(USAGE);
  },
};
