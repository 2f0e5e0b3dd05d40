import { Composer } from "grammy";
import { productByCode } from "../../commerce/catalogue/queries.ts";
import { loadAliases } from "../../commerce/center/aliases.ts";
import {
  type CenterCommand,
  type CenterError,
  KEYWORDS,
  numericCodesIn,
  parseCenterCommand,
  type TypedOrder,
  typedOrders,
} from "../../commerce/center/commands.ts";
import { numericProductCodes } from "../../commerce/center/lookups.ts";
import { notRunText, type OrderNotRun } from "../../commerce/center/replies.ts";
import { askTransfer, confirmTransfer, findRecipient } from "../../commerce/resellers/transfers.ts";
import { findUser } from "../../commerce/users.ts";
import { walletBalance } from "../../commerce/wallet/ledger.ts";
import { checkPin, type PinChange, replacePin } from "../../commerce/wallet/pin.ts";
import type { BotContext } from "../context.ts";
import { offerDeposit } from "../deposits/qris.ts";
import { transferRefusalText } from "../resellers/transfer.ts";
import { escapeHtml, rupiah, wibTime } from "../ui/format.ts";
import { balanceAnswer, buyLine, checkAnswer, recapAnswer, statusAnswer } from "./orders.ts";
import { deleteCarrier } from "./sealed.ts";

// the center's text commands in chat (docs/center.md#text-commands), for resellers: the
// dotted format with the wallet's PIN last. Every command goes through what the buttons
// use (the order engine, the transfer's two steps, /deposit's way, the PIN's counted and
// locked check): nothing here is a second path to money. The message that carried the PIN
// is deleted once read, so the chat shows the answer alone.

const USAGE_KEY: Record<Exclude<CenterError, { error: "unknown_keyword" }>["error"], string> = {
  format: "",
  pin_format: "center-pin-format",
  pin_only_last: "center-pin-only-last",
  ref_repeated: "center-ref-repeated",
  too_many: "center-too-many",
};

function errorText(ctx: BotContext, e: CenterError, aliases: Map<string, string>): string {
  switch (e.error) {
    case "unknown_keyword": {
      const extra = [...aliases.entries()].map(([a, k]) => `${a}=${k}`);
      return ctx.t("center-unknown-keyword", {
        word: escapeHtml(e.word),
        list: [...KEYWORDS, ...extra].join(", "),
      });
    }
    case "format":
      return ctx.t("center-format", {
        usage: ctx.t(`center-usage-${e.keyword.toLowerCase()}`),
      });
    case "ref_repeated":
      return ctx.t(USAGE_KEY[e.error], { ref: escapeHtml(e.ref) });
    case "too_many":
      return ctx.t(USAGE_KEY[e.error], { max: e.max });
    default:
      return ctx.t(USAGE_KEY[e.error]);
  }
}

/** the PIN check's failure as an order's reason (an order text's answers) */
function pinNotRun(checked: Exclude<PinChange, { ok: true }>): OrderNotRun {
  switch (checked.reason) {
    case "no_pin":
      return { why: "no_pin" };
    case "wrong":
      return { why: "pin_wrong", left: checked.triesLeft };
    case "locked":
      return {
        why: "pin_locked",
        until: wibTime(checked.until.getTime()),
        justLocked: checked.justLocked,
      };
    case "changed":
      return { why: "pin_changed" };
  }
}

/**
 * the PIN's answer when it is not right (a wrong one, the lock, none set); true when right.
 * `orders`: the text's orders, answered each in the order form with its R# (one message)
 */
async function pinAnswered(
  ctx: BotContext,
  checked: PinChange,
  orders?: readonly TypedOrder[],
): Promise<boolean> {
  if (checked.ok) return true;
  if (orders) {
    await notRunAnswer(ctx, orders, pinNotRun(checked));
    return false;
  }
  switch (checked.reason) {
    case "no_pin":
      await ctx.reply(ctx.t("center-no-pin"));
      break;
    case "wrong":
      await ctx.reply(ctx.t("pin-wrong", { left: checked.triesLeft }));
      break;
    case "locked": {
      const until = wibTime(checked.until.getTime());
      await ctx.reply(ctx.t(checked.justLocked ? "pin-locked-notice" : "pin-locked", { until }));
      break;
    }
    case "changed":
      await ctx.reply(ctx.t("center-pin-changed-meanwhile"));
      break;
  }
  return false;
}

/** an order text not run: each order GAGAL with the reason and its R#, in one message */
async function notRunAnswer(
  ctx: BotContext,
  orders: readonly TypedOrder[],
  r: OrderNotRun,
): Promise<void> {
  const balance = await walletBalance(ctx.deps.db, ctx.from!.id);
  await ctx.reply(escapeHtml(notRunText(orders, r, balance)));
}

/** an order text's refusal by the grammar, as the reason of each of its orders */
function orderErrorNotRun(e: CenterError): OrderNotRun | undefined {
  switch (e.error) {
    case "format":
      return e.keyword === "buy" ? { why: "format" } : undefined;
    case "pin_only_last":
      return { why: "pin_only_last" };
    case "ref_repeated":
      return { why: "ref_repeated", ref: e.ref };
    case "too_many":
      return { why: "too_many", max: e.max };
    default:
      return undefined;
  }
}

async function priceAnswer(ctx: BotContext, code: string): Promise<void> {
  const item = await productByCode(ctx.deps.db, code, {
    tier: ctx.user?.tier ?? "customer",
    buyer: ctx.from!.id,
  });
  await ctx.reply(
    item
      ? ctx.t("center-price", {
          code: escapeHtml(item.code),
          name: escapeHtml(item.name),
          price: rupiah(item.price),
        })
      : ctx.t("quick-unknown-code", { code: escapeHtml(code) }),
  );
}

/** TRANS.ID.AMOUNT.PIN: the card's two steps at once, the PIN given (today's limits hold) */
async function transferAnswer(ctx: BotContext, to: string, amount: number): Promise<void> {
  const { db, clock } = ctx.deps;
  const userId = ctx.from!.id;
  const toUserId = await findRecipient(db, to);
  if (toUserId === undefined) {
    await ctx.reply(ctx.t("transfer-unknown-user", { who: escapeHtml(to) }));
    return;
  }
  const sender = { userId, isAdmin: ctx.isAdmin };
  const asked = await askTransfer(db, { ...sender, toUserId, amount, now: clock.now() });
  if (!asked.ok) {
    await ctx.reply(transferRefusalText(ctx, asked));
    return;
  }
  const done = await confirmTransfer(db, {
    ...sender,
    transferId: asked.transfer.id,
    now: clock.now(),
  });
  if (!done.ok) {
    await ctx.reply(`${transferRefusalText(ctx, done)}\n${ctx.t("transfer-not-sent")}`);
    return;
  }
  const t = done.transfer;
  await ctx.reply(
    ctx.t("transfer-done", {
      amount: rupiah(t.amount),
      id: String(t.toUserId),
      balance: rupiah(t.fromBalance),
    }),
  );
  const from = ctx.from!.first_name + (ctx.from!.username ? ` @${ctx.from!.username}` : "");
  const recipient = ctx.translatorFor((await findUser(db, t.toUserId))?.language ?? ctx.lang);
  // a courtesy: the money is in their wallet whether or not this message arrives
  await ctx.api
    .sendMessage(
      t.toUserId,
      recipient("transfer-received", {
        amount: rupiah(t.amount),
        from: escapeHtml(from),
        balance: rupiah(t.toBalance),
      }),
    )
    .catch((err) => ctx.deps.logger.info({ err, transfer: t.id }, "telling a recipient failed"));
}

async function run(ctx: BotContext, command: CenterCommand): Promise<void> {
  const { db, clock } = ctx.deps;
  const userId = ctx.from!.id;
  if (command.kind === "change_pin") {
    // the current PIN is checked (and counted) in the moment the new one is written
    const changed = await replacePin(db, userId, command.current, command.next, clock.now());
    if (await pinAnswered(ctx, changed)) await ctx.reply(ctx.t("center-pin-changed"));
    return;
  }
  const orders =
    command.kind === "buy"
      ? command.lines.map((l) => ({
          product: l.code,
          dest: l.destination,
          ...(l.ref === undefined ? {} : { ref: l.ref }),
        }))
      : undefined;
  const checked = await checkPin(db, userId, command.pin, clock.now());
  if (!(await pinAnswered(ctx, checked, orders))) return;
  switch (command.kind) {
    case "buy":
      for (const line of command.lines) await buyLine(ctx, line);
      return;
    case "balance":
      return balanceAnswer(ctx);
    case "price":
      return priceAnswer(ctx, command.code);
    case "check":
      return checkAnswer(ctx, command.destination);
    case "status":
      return statusAnswer(ctx, command.ref);
    case "recap":
      return recapAnswer(ctx, command.day);
    case "ticket":
      return offerDeposit(ctx, command.amount);
    case "transfer":
      return transferAnswer(ctx, command.to, command.amount);
  }
}

const DOTTED = /^\s*[A-Za-z0-9_-]+\.\S/;

export function centerCommandsFeature(): Composer<BotContext> {
  const composer = new Composer<BotContext>();
  composer.on("message:text", async (ctx, next) => {
    // only a dotted text can be one: the aliases are read for those alone
    if (!DOTTED.test(ctx.message.text)) return next();
    const text = ctx.message.text;
    const aliases = await loadAliases(ctx.deps.db);
    // an all-digit code is a product's only when the shop sells it and no flow waits for an
    // answer (a phone or meter typed with dots, 0812.3456.7890, is the flow's)
    const digits = numericCodesIn(text);
    const flowWaits = Object.keys(ctx.conversation.active()).length > 0;
    const numericCodes =
      digits.length === 0 || flowWaits ? undefined : await numericProductCodes(ctx.deps.db, digits);
    const parsed = parseCenterCommand(text, aliases, { numericCodes });
    if (!parsed) return next();
    // the PIN was read: the message that carried it goes
    await deleteCarrier(ctx);
    if (ctx.user?.tier !== "reseller") {
      await ctx.reply(ctx.t("center-resellers-only"));
      return;
    }
    if (!parsed.ok) {
      // an order text: each of its orders answered in the order form, its R# echoed
      const notRun = orderErrorNotRun(parsed);
      if (notRun) await notRunAnswer(ctx, typedOrders(text), notRun);
      else await ctx.reply(errorText(ctx, parsed, aliases));
      return;
    }
    await run(ctx, parsed.command);
  });
  return composer;
}
