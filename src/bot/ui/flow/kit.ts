import type { Conversation } from "@grammyjs/conversations";
import { InlineKeyboard } from "grammy";
import type { Language } from "../../../commerce/users.ts";
import type { BaseContext, FlowContext } from "../../context.ts";
import { CB, cb, cbInt, parseCb } from "../callback-data.ts";
import { clearButtons, editPressed } from "../edit.ts";
import type { Translate } from "../i18n.ts";
import { withCancel } from "../keyboards/common.ts";
import { addPageNav, clampPage, pageCount } from "../keyboards/paging.ts";

// the steps every flow is made of. A conversation is replayed from its stored log on every
// update, so everything here is deterministic given the updates and the logged results:
// database work goes through conversation.external, time through conversation.now.
// Cancel, /cancel, /start, other commands and the main menu never reach a step: the
// middleware in front of the conversations leaves the flow first (features/escape.ts).

export type Convo = Conversation<BaseContext, FlowContext>;

/** the JSON arguments every flow is entered with */
export interface FlowArgs {
  lang: Language;
  tier: "customer" | "reseller";
  /** the product a link named (the product flow) */
  productCode?: string;
}

export interface Choice<T> {
  label: string;
  value: T;
}

export interface AskOptions<T> {
  /** the question (HTML) */
  text: string;
  /** quick answers as buttons */
  choices?: ReadonlyArray<Choice<T>>;
  columns?: number;
  /** reads a typed answer; undefined means it is not one, and `hint` is shown */
  parse?: (text: string) => T | undefined;
  /** a short line shown above the question again after unexpected input */
  hint: string;
  /** a reason of its own for a typed text `parse` refused (a phone number as a meter…) */
  reason?: (text: string) => string | undefined;
}

/** the message ids of the step's question(s): only their buttons answer this step */
type Asked = number[];

function choiceKeyboard<T>(t: Translate, choices: ReadonlyArray<Choice<T>>, columns: number) {
  const kb = new InlineKeyboard();
  choices.forEach((c, i) => {
    kb.text(c.label, cb(CB.item, i));
    if ((i + 1) % columns === 0) kb.row();
  });
  return withCancel(t, kb);
}

async function clearKeyboard(ctx: FlowContext, chatId: number, messageIds: Asked, note?: string) {
  // a message already without buttons, or gone, is fine: its buttons are dead either way
  for (const id of messageIds) await clearButtons(ctx.api, chatId, id);
  if (note) await ctx.reply(note);
}

function isStale(asked: Asked, ctx: FlowContext): boolean {
  const id = ctx.callbackQuery?.message?.message_id;
  return id === undefined || !asked.includes(id);
}

/**
 * asks one question and returns the answer: a tapped choice or a typed text that `parse`
 * accepts. Anything else (a sticker, a photo, a wrong text) gets the hint and the same
 * question again; buttons of older messages get a polite toast.
 */
export async function ask<T>(
  conversation: Convo,
  ctx: FlowContext,
  t: Translate,
  opts: AskOptions<T>,
): Promise<T> {
  const choices = opts.choices ?? [];
  const keyboard = choiceKeyboard(t, choices, opts.columns ?? 1);
  const chatId = ctx.chatId!;
  const first = await ctx.reply(opts.text, { reply_markup: keyboard });
  const asked: Asked = [first.message_id];
  for (;;) {
    const u = await conversation.wait();
    if (u.callbackQuery) {
      const parsed = parseCb(u.callbackQuery.data);
      const index = parsed?.prefix === CB.item ? cbInt(parsed.parts[0]) : undefined;
      const choice = index === undefined ? undefined : choices[index];
      if (isStale(asked, u) || !choice) {
        await u.answerCallbackQuery({ text: t("stale-button") });
        continue;
      }
      await u.answerCallbackQuery();
      await clearKeyboard(u, chatId, asked);
      return choice.value;
    }
    const text = u.message?.text;
    if (text !== undefined && opts.parse) {
      const value = opts.parse(text);
      if (value !== undefined) {
        await clearKeyboard(u, chatId, asked);
        return value;
      }
    }
    // edits, reactions and other updates without a question to answer are ignored
    if (!u.message) continue;
    const hint = (text !== undefined && opts.reason?.(text)) || opts.hint;
    const again = await u.reply(`${hint}\n\n${opts.text}`, {
      reply_markup: keyboard,
    });
    asked.push(again.message_id);
  }
}

export interface PagedItems<T> {
  items: Array<Choice<T>>;
  total: number;
}

export interface PickOptions<T> {
  /** the title above the list (HTML) */
  text: string;
  hint: string;
  /** what to say when there is nothing to pick */
  empty: string;
  pageSize: number;
  /** loads one page; runs inside conversation.external */
  load: (offset: number, limit: number) => Promise<PagedItems<T>>;
  columns?: number;
}

/** the page a list message shows, from its page indicator (n/m) */
function shownPage(ctx: FlowContext): number | undefined {
  const rows = ctx.callbackQuery?.message?.reply_markup?.inline_keyboard ?? [];
  for (const button of rows.flat()) {
    const m = /^(\d+)\/\d+$/.exec(button.text);
    if (m) return Number(m[1]) - 1;
  }
  return undefined;
}

/**
 * picks one item from a list shown in pages (◀️ 1/3 ▶️, edited in place). Returns
 * undefined when the list is empty (the `empty` text has been sent).
 *
 * A page turn is not kept in the flow's log (conversation.skip): the flow is replayed on
 * every update, and a buyer browsing a long list would make each of their taps dearer
 * than the last (docs/performance.md, "conversations"). So an item's button names its
 * place and its page, and the flow loads that page when it is picked.
 */
export async function pickPaged<T>(
  conversation: Convo,
  ctx: FlowContext,
  t: Translate,
  opts: PickOptions<T>,
): Promise<T | undefined> {
  const chatId = ctx.chatId!;
  const load = (page: number) =>
    conversation.external(() => opts.load(page * opts.pageSize, opts.pageSize));
  const first = await load(0);
  if (first.total === 0 || first.items.length === 0) {
    await ctx.reply(opts.empty, { reply_markup: new InlineKeyboard() });
    return undefined;
  }
  const render = (page: number, shown: PagedItems<T>) => {
    const kb = new InlineKeyboard();
    const columns = opts.columns ?? 1;
    shown.items.forEach((item, i) => {
      // its place, and its page after the first: i:<place>[:<page>]
      kb.text(item.label, page === 0 ? cb(CB.item, i) : cb(CB.item, i, page));
      if ((i + 1) % columns === 0) kb.row();
    });
    addPageNav(kb, { page, pageCount: pageCount(shown.total, opts.pageSize) }, (p) =>
      cb(CB.page, p),
    );
    return withCancel(t, kb);
  };
  const sent = await ctx.reply(opts.text, { reply_markup: render(0, first) });
  const asked: Asked = [sent.message_id];
  for (;;) {
    const u = await conversation.wait();
    if (u.callbackQuery) {
      const parsed = parseCb(u.callbackQuery.data);
      if (isStale(asked, u) || !parsed) {
        await u.answerCallbackQuery({ text: t("stale-button") });
        continue;
      }
      if (parsed.prefix === CB.page) {
        const wanted = clampPage(cbInt(parsed.parts[0]) ?? 0, first.total, opts.pageSize);
        await u.answerCallbackQuery();
        if (wanted !== shownPage(u)) {
          await editPressed(u, opts.text, { keyboard: render(wanted, await load(wanted)) });
        }
        // the message shows the page now; the flow goes on as if the tap never came
        await conversation.skip();
      }
      const item = parsed.prefix === CB.item ? await pressedItem(u, parsed.parts, load) : undefined;
      if (!item) {
        await u.answerCallbackQuery({ text: t("stale-button") });
        continue;
      }
      await u.answerCallbackQuery();
      await clearKeyboard(u, chatId, asked);
      return item.value;
    }
    if (!u.message) continue;
    // the list moves down to the new message: one live list, so its page is unambiguous
    await clearKeyboard(u, chatId, asked);
    const again = await u.reply(`${opts.hint}\n\n${opts.text}`, {
      reply_markup: render(0, first),
    });
    asked.splice(0, asked.length, again.message_id);
  }
}

/**
 * the item a list's button stands for: its page loaded again, and the item that bears the
 * button's label there (the list may have moved since the page was shown: a price, an item
 * gone). Undefined when it is no longer there.
 */
async function pressedItem<T>(
  ctx: FlowContext,
  parts: readonly string[],
  load: (page: number) => Promise<PagedItems<T>>,
): Promise<Choice<T> | undefined> {
  const index = cbInt(parts[0]);
  const page = parts[1] === undefined ? 0 : cbInt(parts[1]);
  if (page === undefined || index === undefined) return undefined;
  const data = ctx.callbackQuery?.data;
  const label = ctx.callbackQuery?.message?.reply_markup?.inline_keyboard
    .flat()
    .find((b) => "callback_data" in b && b.callback_data === data)?.text;
  const { items } = await load(page);
  const at = items[index];
  if (label === undefined) return at;
  return at?.label === label ? at : items.find((i) => i.label === label);
}

/** the original text of a step's answer, shown back to the user in labels */
export function clip(s: string, max = 48): string {
  return s.length <= max ? s : `${s.slice(0, max - 1)}…`;
}
