import type { TextOrderLine } from "../../commerce/center/commands.ts";
import { dayRecap, orderByRef, orderReply, todayOrdersTo } from "../../commerce/center/lookups.ts";
import {
  balanceText,
  notFoundText,
  statusWord,
  textRefusalText,
} from "../../commerce/center/replies.ts";
import { markAnswered, placeTextOrder } from "../../commerce/center/text-orders.ts";
import { getOrder } from "../../commerce/orders/queries.ts";
import { walletBalance } from "../../commerce/wallet/ledger.ts";
import type { BotContext } from "../context.ts";
import { escapeHtml, rupiah } from "../ui/format.ts";

// the answers of the center's order commands: one message per order, in the form the
// OtomaX door answers (commerce/center/replies.ts, docs/center.md#text-commands)

const say = (ctx: BotContext, line: string) => ctx.reply(escapeHtml(line));

/** CODE.DEST.PIN (and each order of a multi-order text): its own order and answer */
export async function buyLine(ctx: BotContext, line: TextOrderLine): Promise<void> {
  const { db, orders } = ctx.deps;
  const userId = ctx.from!.id;
  const placed = await placeTextOrder(orders, {
    userId,
    chatId: ctx.chat!.id,
    code: line.code,
    destination: line.destination,
    nth: line.nth,
    ref: line.ref,
  });
  if (!placed.ok) {
    const req = {
      ref: line.ref,
      product: line.code,
      dest: line.destination,
      ...(placed.boughtToday === undefined ? {} : { boughtToday: placed.boughtToday }),
    };
    await say(ctx, textRefusalText(placed.reason, req, await walletBalance(db, userId)));
    return;
  }
  // the order as it is now: it may have become final since it was placed
  const order = (await getOrder(db, placed.order.id)) ?? placed.order;
  await say(
    ctx,
    await orderReply(db, order, line.ref ?? order.refId, await walletBalance(db, userId)),
  );
  // only a PROSES answer is followed by the final (center/final.ts)
  await markAnswered(db, placed.row.id, statusWord(order));
}

export async function balanceAnswer(ctx: BotContext): Promise<void> {
  await say(ctx, balanceText(await walletBalance(ctx.deps.db, ctx.from!.id)));
}

/** CEK.DEST: today's orders to that destination, one line each, in one message */
export async function checkAnswer(ctx: BotContext, destination: string): Promise<void> {
  const { db, clock } = ctx.deps;
  const userId = ctx.from!.id;
  const found = await todayOrdersTo(db, userId, destination, new Date(clock.now()));
  const balance = await walletBalance(db, userId);
  if (found.length === 0) {
    await ctx.reply(ctx.t("center-check-none", { dest: escapeHtml(destination) }));
    return;
  }
  const lines = await Promise.all(found.map((f) => orderReply(db, f.order, f.ref, balance)));
  await say(ctx, lines.join("\n"));
}

/** STA.REF: the order of that reference, as its answer was */
export async function statusAnswer(ctx: BotContext, ref: string): Promise<void> {
  const { db } = ctx.deps;
  const userId = ctx.from!.id;
  const found = await orderByRef(db, userId, ref);
  const balance = await walletBalance(db, userId);
  await say(
    ctx,
    found ? await orderReply(db, found.order, found.ref, balance) : notFoundText(ref, balance),
  );
}

/** REKAP / REKAP.DD-MM-YYYY: the day's orders counted, and what the successful ones cost */
export async function recapAnswer(
  ctx: BotContext,
  day: { y: number; m: number; d: number } | undefined,
): Promise<void> {
  const { db, clock } = ctx.deps;
  const userId = ctx.from!.id;
  const now = new Date(clock.now());
  const r = await dayRecap(db, userId, day ?? now);
  const wib = new Date(now.getTime() + 7 * 3600_000);
  const d = day ?? { y: wib.getUTCFullYear(), m: wib.getUTCMonth() + 1, d: wib.getUTCDate() };
  const pad = (n: number) => String(n).padStart(2, "0");
  await ctx.reply(
    ctx.t("center-recap", {
      day: `${pad(d.d)}-${pad(d.m)}-${d.y}`,
      success: r.success,
      failed: r.failed,
      pending: r.pending,
      spent: rupiah(r.spent),
      balance: rupiah(await walletBalance(db, userId)),
    }),
  );
}
