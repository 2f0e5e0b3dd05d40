import { Composer, InlineKeyboard } from "grammy";
import { firstSupplierName } from "../../commerce/orders/routing.ts";
import { bookOf, type SupplierBook } from "../../commerce/reconciliation/books.ts";
import {
  findSupplierAccount,
  supplierAccounts,
} from "../../commerce/reconciliation/every-supplier.ts";
import {
  findSupplierTopup,
  recordSupplierTopup,
  reverseSupplierTopup,
  type SupplierTopup,
  type TopupResult,
} from "../../commerce/reconciliation/topups.ts";
import { findUser } from "../../commerce/users.ts";
import { MAX_OPERATION_AMOUNT } from "../../commerce/wallet/ledger.ts";
import { SupplierError } from "../../supplier/types.ts";
import type { BotContext } from "../context.ts";
import { words } from "../ui/args.ts";
import { CB, cb, cbInt, cbPattern, parseCb } from "../ui/callback-data.ts";
import { clearPressed } from "../ui/edit.ts";
import { escapeHtml, parseAmount, rupiah, wibDateTime } from "../ui/format.ts";

// the owner's money into the supplier account, as admins record it: /supplier_topup, the
// "another top-up" button when the same amount is already booked, /supplier_topup_reverse.
// A top-up is booked once: a second admin recording the same money is told who booked it
// and when, and a reversal is a second transfer keyed to the top-up, never an edit.

/** who recorded an admin action: their name (and id) as kios knows them */
async function adminName(ctx: BotContext, id: number | null, plain = false): Promise<string> {
  if (id === null) return ctx.t("recon-topup-by-cli");
  const user = await findUser(ctx.deps.db, id);
  if (!user?.firstName) return String(id);
  return `${plain ? user.firstName : escapeHtml(user.firstName)} (${id})`;
}

/**
 * "already booked: #12 of Rp250.000 by Owner on …"; plain for a button's answer, which
 * Telegram shows as text
 */
export async function alreadyBooked(
  ctx: BotContext,
  topup: SupplierTopup,
  plain = false,
): Promise<string> {
  return ctx.t("recon-topup-already", {
    id: String(topup.id),
    amount: rupiah(topup.amount),
    by: await adminName(ctx, topup.recordedBy, plain),
    at: wibDateTime(topup.createdAt.getTime()),
  });
}

/** a shop with several suppliers names the one a top-up went into */
function intoSupplier(ctx: BotContext, topup: SupplierTopup): string[] {
  if (supplierAccounts(ctx.deps.orders).length < 2) return [];
  const name = topup.supplier ?? firstSupplierName(ctx.deps.orders);
  return [ctx.t("recon-topup-into", { supplier: escapeHtml(name) })];
}

async function replyRecorded(ctx: BotContext, result: TopupResult & { ok: true }) {
  const lines = [
    ctx.t("recon-topup-recorded", {
      amount: rupiah(result.topup.amount),
      id: String(result.topup.id),
    }),
    ...intoSupplier(ctx, result.topup),
  ];
  if (result.explainedCheckId !== null) {
    lines.push(ctx.t("recon-topup-explains", { check: result.explainedCheckId }));
  }
  await ctx.reply(lines.join("\n"));
}

/**
 * the supplier a command names before its amount: none (the first), a known one, or an
 * unknown name (the admin is told the names there are, and undefined returned)
 */
async function namedSupplier(
  ctx: BotContext,
  args: string[],
): Promise<{ book: SupplierBook; rest: string[] } | undefined> {
  const first = firstSupplierName(ctx.deps.orders);
  const [head, second, ...others] = args;
  // "/supplier_topup 1jt BCA": an amount first is the first supplier's
  if (head === undefined || parseAmount(head) !== undefined) {
    return { book: bookOf(first), rest: args };
  }
  const found = findSupplierAccount(ctx.deps.orders, head);
  if (found.account) return { book: found.account.book, rest: [second ?? "", ...others] };
  // a word that is no amount and no supplier: the usage, unless an amount follows it
  if (second === undefined || parseAmount(second) === undefined) {
    await ctx.reply(ctx.t("recon-topup-usage"));
    return undefined;
  }
  await ctx.reply(
    ctx.t("recon-unknown-supplier", { name: escapeHtml(head), names: found.names.join(", ") }),
  );
  return undefined;
}

/**
 * /supplier_topup [<supplier>] <amount> [note]: the owner put money into a supplier
 * account (default: the first supplier's)
 */
async function supplierTopup(ctx: BotContext): Promise<void> {
  const args = words(ctx.match as string);
  if (args[1]?.toLowerCase() === "ticket") {
    await depositTicket(ctx, args[0]!, args.slice(2));
    return;
  }
  const named = await namedSupplier(ctx, args);
  if (!named) return;
  const [amountText, ...note] = named.rest;
  const amount = amountText ? parseAmount(amountText) : undefined;
  if (amount === undefined) {
    await ctx.reply(ctx.t("recon-topup-usage"));
    return;
  }
  const max = ctx.deps.config.maxAmount ?? MAX_OPERATION_AMOUNT;
  if (amount > max) {
    await ctx.reply(ctx.t("admin-amount-too-large", { max: rupiah(max) }));
    return;
  }
  const messageId = ctx.msg!.message_id;
  const result = await recordSupplierTopup(ctx.deps.db, {
    // one admin message records once, however often the update is delivered
    key: `admin:${ctx.chat!.id}:${messageId}`,
    amount,
    note: note.join(" ").slice(0, 200),
    recordedBy: ctx.from?.id,
    now: new Date(ctx.deps.clock.now()),
    book: named.book,
  });
  if (result.ok) {
    await replyRecorded(ctx, result);
    return;
  }
  if (result.reason !== "already_booked") throw new Error(`unexpected ${result.reason}`);
  await ctx.reply(
    [await alreadyBooked(ctx, result.topup), ctx.t("recon-topup-another-hint")].join("\n"),
    {
      reply_markup: new InlineKeyboard().text(
        ctx.t("btn-recon-another", { amount: rupiah(amount) }),
        cb(CB.anotherTopup, result.topup.id, messageId),
      ),
    },
  );
}

/**
 * /supplier_topup <supplier> ticket <amount> <bank> [owner]: asks the supplier (Digiflazz)
 * for a deposit ticket and shows it. Nothing is booked: the money is booked as a top-up
 * only once the supplier's balance rises (its balance check), as any other.
 */
async function depositTicket(ctx: BotContext, name: string, rest: string[]): Promise<void> {
  const [amountText, bank, ...owner] = rest;
  const amount = amountText ? parseAmount(amountText) : undefined;
  if (amount === undefined || !bank || !/^[A-Za-z]{2,12}$/.test(bank)) {
    await ctx.reply(ctx.t("recon-ticket-usage"));
    return;
  }
  const found = findSupplierAccount(ctx.deps.orders, name);
  if (!found.account) {
    await ctx.reply(
      ctx.t("recon-unknown-supplier", { name: escapeHtml(name), names: found.names.join(", ") }),
    );
    return;
  }
  const { supplier, book } = found.account;
  if (!supplier.depositTicket) {
    await ctx.reply(ctx.t("recon-ticket-none", { supplier: escapeHtml(book.name) }));
    return;
  }
  const max = ctx.deps.config.maxAmount ?? MAX_OPERATION_AMOUNT;
  if (amount > max) {
    await ctx.reply(ctx.t("admin-amount-too-large", { max: rupiah(max) }));
    return;
  }
  const ownerName = (owner.join(" ") || ctx.from?.first_name || "").slice(0, 60);
  try {
    const ticket = await supplier.depositTicket({ amount, bank: bank.toUpperCase(), ownerName });
    await ctx.reply(
      ctx.t("recon-ticket", {
        supplier: escapeHtml(book.name),
        amount: rupiah(ticket.amount),
        bank: escapeHtml(ticket.bank),
        account: escapeHtml(
          [ticket.accountNo, ticket.accountName].filter((v) => v !== undefined).join(" "),
        ),
        notes: escapeHtml(ticket.notes),
      }),
    );
  } catch (err) {
    if (!(err instanceof SupplierError)) throw err;
    await ctx.reply(ctx.t("recon-ticket-failed", { reason: escapeHtml(err.message) }));
  }
}

/** /supplier_topup_reverse <id> [note]: a top-up booked in error goes back, both kept */
async function reverseTopup(ctx: BotContext): Promise<void> {
  const [idText, ...note] = words(ctx.match as string);
  // as the replies print it: "#12" or "12"
  const topupId = cbInt(idText?.replace(/^#/, ""));
  if (topupId === undefined) {
    await ctx.reply(ctx.t("recon-reverse-usage"));
    return;
  }
  const result = await reverseSupplierTopup(ctx.deps.db, {
    topupId,
    reversedBy: ctx.from?.id,
    note: note.join(" ").slice(0, 200),
    now: new Date(ctx.deps.clock.now()),
    firstSupplier: firstSupplierName(ctx.deps.orders),
  });
  if (result.ok) {
    const lines = [
      ctx.t("recon-reverse-done", { id: String(topupId), amount: rupiah(result.topup.amount) }),
    ];
    if (result.topup.checkId !== null) {
      lines.push(ctx.t("recon-reverse-unexplained", { check: String(result.topup.checkId) }));
    }
    await ctx.reply(lines.join("\n"));
  } else if (result.reason === "not_found") {
    await ctx.reply(ctx.t("recon-reverse-not-found", { id: String(topupId) }));
  } else {
    await ctx.reply(
      ctx.t("recon-reverse-already", {
        id: String(topupId),
        by: await adminName(ctx, result.topup.reversedBy),
        at: wibDateTime(result.topup.reversedAt?.getTime() ?? 0),
      }),
    );
  }
}

export function adminSupplierTopups(): Composer<BotContext> {
  const composer = new Composer<BotContext>();
  composer.command("supplier_topup", supplierTopup);
  composer.command("supplier_topup_reverse", reverseTopup);
  return composer;
}

/** "it is another top-up": books the command that matched a booked one, once */
export function adminSupplierTopupButtons(): Composer<BotContext> {
  const composer = new Composer<BotContext>();
  composer.callbackQuery(cbPattern(CB.anotherTopup), async (ctx) => {
    const parts = parseCb(ctx.callbackQuery.data)?.parts ?? [];
    const bookedId = cbInt(parts[0]);
    const messageId = cbInt(parts[1]);
    const chatId = ctx.callbackQuery.message?.chat.id;
    const { db } = ctx.deps.orders;
    const booked = bookedId === undefined ? undefined : await findSupplierTopup(db, bookedId);
    if (!booked || messageId === undefined || chatId === undefined) {
      await ctx.answerCallbackQuery({ text: ctx.t("stale-button") });
      return;
    }
    const result = await recordSupplierTopup(db, {
      // the command's own key: the command and this button book at most one top-up
      key: `admin:${chatId}:${messageId}`,
      amount: booked.amount,
      note: `another top-up like #${booked.id}`,
      recordedBy: ctx.from.id,
      now: new Date(ctx.deps.clock.now()),
      another: true,
      // into the account the matching top-up went into
      book: bookOf(firstSupplierName(ctx.deps.orders), booked.supplier),
    });
    if (!result.ok) throw new Error(`unexpected ${result.reason}`);
    await ctx.answerCallbackQuery();
    await clearPressed(ctx);
    await replyRecorded(ctx, result);
  });
  return composer;
}
