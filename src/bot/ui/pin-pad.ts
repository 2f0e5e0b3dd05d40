import { Composer, InlineKeyboard } from "grammy";
import {
  checkPin,
  closePinEntry,
  openPinEntry,
  pinState,
  pressPinKey,
  setPin,
  takePinEntry,
  validPin,
} from "../../commerce/wallet/pin.ts";
import type { BotContext } from "../context.ts";
import { CB, cb, cbPattern, parseCb } from "./callback-data.ts";
import { editPressed, editPressedButtons } from "./edit.ts";
import { wibTime } from "./format.ts";

// the PIN guard (docs/resellers.md#the-pin). An action the PIN guards (Pay, a transfer's
// Send, a key change) asks pinGate() first: without a PIN it goes on at once; with one, the
// pressed card's buttons become a keypad. Each digit is kept server-side (users.pin_entry)
// and the keypad shows only dots, so no digit reaches the chat, a button's data or a log.
// When ✅ is pressed with the right PIN, the action runs: the composition root hands
// pinPadButtons() one continuation per action prefix (a callback prefix such as CB.pay).

/** what runs once the PIN is right: the action's own handler, on the same card */
export type PinContinuation = (ctx: BotContext, arg: string) => Promise<void>;

export function pinKeypad(ctx: BotContext, entered: number): InlineKeyboard {
  const kb = new InlineKeyboard().text(
    `🔒 PIN ${"●".repeat(entered)}${"○".repeat(Math.max(0, 4 - entered))}`,
    cb(CB.pinKey, "n"),
  );
  for (const row of [
    ["1", "2", "3"],
    ["4", "5", "6"],
    ["7", "8", "9"],
  ]) {
    kb.row();
    for (const d of row) kb.text(d, cb(CB.pinKey, d));
  }
  return kb
    .row()
    .text("⌫", cb(CB.pinKey, "b"))
    .text("0", cb(CB.pinKey, "0"))
    .text("✅", cb(CB.pinKey, "ok"))
    .row()
    .text(ctx.t("btn-cancel"), cb(CB.pinKey, "x"));
}

/** the card's way back: one button that asks again */
function retry(ctx: BotContext, action: string): InlineKeyboard {
  return new InlineKeyboard().text(ctx.t("btn-pin-retry"), action);
}

/**
 * true when the guarded action may go on now (the user has no PIN); otherwise it answers
 * the tap itself (a keypad on the card, or the lock) and the caller stops. `action` is the
 * callback data of the button that was pressed ("<prefix>:<arg>").
 */
export async function pinGate(ctx: BotContext, action: string): Promise<boolean> {
  const userId = ctx.from?.id;
  if (userId === undefined) return false;
  const state = await pinState(ctx.deps.db, userId, ctx.deps.clock.now());
  if (!state.set) return true;
  if (state.lockedUntil) {
    await ctx.answerCallbackQuery({
      text: ctx.t("pin-locked", { until: wibTime(state.lockedUntil.getTime()) }),
      show_alert: true,
    });
    return false;
  }
  await openPinEntry(ctx.deps.db, userId, action);
  await ctx.answerCallbackQuery({ text: ctx.t("pin-enter") });
  await editPressedButtons(ctx, pinKeypad(ctx, 0));
  return false;
}

/** the keypad's keys; `continuations` by the action's callback prefix */
export function pinPadButtons(
  continuations: Readonly<Record<string, PinContinuation>>,
): Composer<BotContext> {
  const composer = new Composer<BotContext>();
  composer.callbackQuery(cbPattern(CB.pinKey), async (ctx) => {
    const key = parseCb(ctx.callbackQuery.data)?.parts[0] ?? "";
    const db = ctx.deps.db;
    const userId = ctx.from.id;
    const action = ctx.user?.pinEntryFor ?? null;
    if (!action) {
      await ctx.answerCallbackQuery({ text: ctx.t("stale-button") });
      return;
    }
    if (key === "n") {
      await ctx.answerCallbackQuery({ text: ctx.t("pin-enter") });
      return;
    }
    if (key === "x") {
      await closePinEntry(db, userId);
      await ctx.answerCallbackQuery({ text: ctx.t("cancelled-toast") });
      await editPressedButtons(ctx, retry(ctx, action));
      return;
    }
    if (key !== "ok") {
      const entered = await pressPinKey(db, userId, action, key === "b" ? "back" : key);
      await ctx.answerCallbackQuery();
      if (entered !== undefined) await editPressedButtons(ctx, pinKeypad(ctx, entered));
      return;
    }
    const digits = (await takePinEntry(db, userId, action)) ?? "";
    const now = ctx.deps.clock.now();
    // a new PIN (/pin): the digits are the PIN to keep, not one to check
    if (action === cb(CB.pinSet, "new")) {
      if (!validPin(digits)) {
        await openPinEntry(db, userId, action);
        await ctx.answerCallbackQuery({ text: ctx.t("pin-invalid"), show_alert: true });
        await editPressedButtons(ctx, pinKeypad(ctx, 0));
        return;
      }
      await setPin(db, userId, digits);
      await ctx.answerCallbackQuery();
      await editPressed(ctx, ctx.t("pin-set-done"));
      return;
    }
    const checked = await checkPin(db, userId, digits, now);
    if (checked.ok || checked.reason === "no_pin") {
      const parsed = parseCb(action);
      const go = parsed ? continuations[parsed.prefix] : undefined;
      if (!go) {
        await ctx.answerCallbackQuery({ text: ctx.t("stale-button") });
        return;
      }
      await go(ctx, parsed!.parts.join(":"));
      return;
    }
    if (checked.reason === "wrong") {
      await openPinEntry(db, userId, action);
      await ctx.answerCallbackQuery({
        text: ctx.t("pin-wrong", { left: checked.triesLeft }),
        show_alert: true,
      });
      await editPressedButtons(ctx, pinKeypad(ctx, 0));
      return;
    }
    const until = wibTime(checked.until.getTime());
    await ctx.answerCallbackQuery({ text: ctx.t("pin-locked", { until }), show_alert: true });
    await editPressedButtons(ctx, retry(ctx, action));
    // the notice: once, when this try locked it
    if (checked.justLocked) await ctx.reply(ctx.t("pin-locked-notice", { until }));
  });
  return composer;
}
