import { Composer, InlineKeyboard } from "grammy";
import { createBox, type Sealer } from "../../commerce/secrets/box.ts";
import {
  checkPin,
  type PinCheck,
  pinState,
  replacePin,
  setFirstPin,
  validPin,
} from "../../commerce/wallet/pin.ts";
import {
  closePad,
  digitAt,
  openPad,
  PAD_POSITIONS,
  type PadEntry,
  type PadStep,
  type PinPad,
  padLayout,
  padOf,
  pressed,
  savePad,
  takePad,
} from "../../commerce/wallet/pin-pads.ts";
import type { BotContext } from "../context.ts";
import type { BotDeps } from "../deps.ts";
import { CB, cb, cbPattern, parseCb } from "./callback-data.ts";
import { clearPressed, editPressed, editPressedButtons } from "./edit.ts";
import { wibTime } from "./format.ts";

// the PIN guard (docs/resellers.md#the-pin). An action the PIN guards (Pay, a transfer's
// Send, a key setting) asks pinGate() first: without a PIN it goes on at once; with one, the
// pressed card's buttons become a keypad bound to that action (commerce/wallet/pin-pads.ts).
// The keys carry the keypad's id and a position, never a digit; the keypad shows only dots
// for what was typed, and what was typed is sealed in the database. When ✅ is pressed with
// the right PIN the action runs: the composition root hands pinPadButtons() one continuation
// per action prefix (a callback prefix such as CB.pay). /pin's keypads go through the same
// steps: a change asks the current PIN, the new one, and the new one again, and the current
// one is checked again at the moment the new one is written.

/** what runs once the PIN is right: the action's own handler, on the same card */
export type PinContinuation = (
  ctx: BotContext,
  arg: string,
  /** what the keypad was opened with beyond the action's callback data (a callback URL) */
  detail: string | null,
) => Promise<void>;

/** a new PIN's keypad; a change's keypad (behind the current PIN) */
const PIN_NEW = cb(CB.pinChange, "new");
const PIN_CHANGE = cb(CB.pinChange, "change");

const boxes = new WeakMap<BotDeps, Sealer>();

/**
 * the box the chat's secrets are sealed with (a keypad's presses, a PIN in a text command):
 * BotDeps.secrets, else one keyed by the bot token
 */
export function chatSecrets(deps: BotDeps): Sealer {
  if (deps.secrets) return deps.secrets;
  let box = boxes.get(deps);
  if (!box) {
    box = createBox(deps.token, "kios chat secrets v1");
    boxes.set(deps, box);
  }
  return box;
}

/** the keypad's buttons: the layout's digits as labels, positions as data */
function pinKeypad(ctx: BotContext, pad: PinPad): InlineKeyboard {
  const layout = padLayout(chatSecrets(ctx.deps), pad.id);
  const key = (k: string) => cb(CB.pinKey, pad.id, k);
  const label = (position: string) => layout[PAD_POSITIONS.indexOf(position)] ?? "?";
  const entered = pad.entry.typed.length;
  const kb = new InlineKeyboard().text(
    ctx.t("pin-pad-typed", {
      dots: `${"●".repeat(entered)}${"○".repeat(Math.max(0, 4 - entered))}`,
    }),
    key("n"),
  );
  for (const row of ["abc", "def", "ghi"]) {
    kb.row();
    for (const p of row) kb.text(label(p), key(p));
  }
  return kb
    .row()
    .text("⌫", key("bk"))
    .text(label("j"), key("j"))
    .text("✅", key("ok"))
    .row()
    .text(ctx.t("btn-cancel"), key("x"));
}

/** what the message says above a keypad of /pin's steps (a guarded card keeps its text) */
function stepText(ctx: BotContext, step: PadStep): string | undefined {
  if (step === "old") return ctx.t("pin-old");
  if (step === "new") return ctx.t("pin-new");
  if (step === "repeat") return ctx.t("pin-repeat");
  return undefined;
}

/** the card's way back: one button that asks again (none for a typed command's keypad) */
async function offerRetry(ctx: BotContext, pad: PinPad): Promise<void> {
  if (pad.detail !== null) {
    await clearPressed(ctx);
    return;
  }
  await editPressedButtons(ctx, new InlineKeyboard().text(ctx.t("btn-pin-retry"), pad.purpose));
}

/**
 * /pin's own keypad (a first PIN, a change, a removal) cancelled: the message says what
 * happened and keeps no button (a guarded card keeps its text and a way back instead)
 */
async function pinLeft(ctx: BotContext): Promise<void> {
  const state = await pinState(ctx.deps.db, ctx.from!.id, ctx.deps.clock.now());
  await editPressed(ctx, ctx.t(state.set ? "pin-left-unchanged" : "pin-left-none"));
}

async function open(
  ctx: BotContext,
  purpose: string,
  entry: PadEntry,
  detail?: string | null,
): Promise<PinPad> {
  return openPad(ctx.deps.db, chatSecrets(ctx.deps), {
    userId: ctx.from!.id,
    purpose,
    detail: detail ?? null,
    entry,
    now: ctx.deps.clock.now(),
  });
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
  const pad = await open(ctx, action, { step: "pin", typed: "" });
  await ctx.answerCallbackQuery({ text: ctx.t("pin-enter") });
  await editPressedButtons(ctx, pinKeypad(ctx, pad));
  return false;
}

/**
 * pinGate for a typed command: true when it may go on now (no PIN); otherwise it replies
 * `text` with a keypad for `action` (which carries `detail`, e.g. the URL the command named),
 * or the lock, and the caller stops
 */
export async function pinGateReply(
  ctx: BotContext,
  action: string,
  text: string,
  detail: string,
): Promise<boolean> {
  const userId = ctx.from?.id;
  if (userId === undefined) return false;
  const state = await pinState(ctx.deps.db, userId, ctx.deps.clock.now());
  if (!state.set) return true;
  if (state.lockedUntil) {
    await ctx.reply(ctx.t("pin-locked", { until: wibTime(state.lockedUntil.getTime()) }));
    return false;
  }
  const pad = await open(ctx, action, { step: "pin", typed: "" }, detail);
  await ctx.reply(text, { reply_markup: pinKeypad(ctx, pad) });
  return false;
}

/** /pin's keypads: a first PIN (new, repeat) or a change (current, new, repeat) */
export async function pinChangePad(
  ctx: BotContext,
  change: boolean,
): Promise<{ text: string; keyboard: InlineKeyboard }> {
  const step = change ? "old" : "new";
  const pad = await open(ctx, change ? PIN_CHANGE : PIN_NEW, { step, typed: "" });
  return { text: stepText(ctx, step) ?? "", keyboard: pinKeypad(ctx, pad) };
}

/** shows a keypad's next step on the pressed message: a step's own text, or the card's */
async function show(ctx: BotContext, pad: PinPad): Promise<void> {
  const text = stepText(ctx, pad.entry.step);
  if (text === undefined) await editPressedButtons(ctx, pinKeypad(ctx, pad));
  else await editPressed(ctx, text, { keyboard: pinKeypad(ctx, pad) });
}

/** a refused PIN: tries left (the keypad is cleared for another try) or the lock */
async function refused(
  ctx: BotContext,
  pad: PinPad,
  checked: Exclude<PinCheck, { ok: true } | { reason: "no_pin" }>,
  again: () => Promise<PinPad | undefined>,
): Promise<void> {
  if (checked.reason === "wrong") {
    const next = await again();
    await ctx.answerCallbackQuery({
      text: ctx.t("pin-wrong", { left: checked.triesLeft }),
      show_alert: true,
    });
    if (next) await show(ctx, next);
    return;
  }
  await closePad(ctx.deps.db, pad.userId, pad.id);
  const until = wibTime(checked.until.getTime());
  await ctx.answerCallbackQuery({ text: ctx.t("pin-locked", { until }), show_alert: true });
  await offerRetry(ctx, pad);
  // the notice: once, when this try locked it
  if (checked.justLocked) await ctx.reply(ctx.t("pin-locked-notice", { until }));
}

/** the keypad's keys; `continuations` by the action's callback prefix */
export function pinPadButtons(
  continuations: Readonly<Record<string, PinContinuation>>,
): Composer<BotContext> {
  const composer = new Composer<BotContext>();
  composer.callbackQuery(cbPattern(CB.pinKey), async (ctx) => {
    const [padId = "", key = ""] = parseCb(ctx.callbackQuery.data)?.parts ?? [];
    const box = chatSecrets(ctx.deps);
    const db = ctx.deps.db;
    const now = ctx.deps.clock.now();
    const pad = await padOf(db, box, ctx.from.id, padId);
    if (!pad) {
      await ctx.answerCallbackQuery({ text: ctx.t("stale-button") });
      await clearPressed(ctx);
      return;
    }
    if (pad.expiresAt.getTime() <= now) {
      await closePad(db, pad.userId, pad.id);
      await ctx.answerCallbackQuery({ text: ctx.t("pin-pad-expired"), show_alert: true });
      await offerRetry(ctx, pad);
      return;
    }
    if (key === "n") {
      await ctx.answerCallbackQuery({ text: ctx.t("pin-enter") });
      return;
    }
    if (key === "x") {
      await closePad(db, pad.userId, pad.id);
      await ctx.answerCallbackQuery({ text: ctx.t("cancelled-toast") });
      if (parseCb(pad.purpose)?.prefix === CB.pinChange) await pinLeft(ctx);
      else await offerRetry(ctx, pad);
      return;
    }
    if (key !== "ok") {
      const digit = digitAt(box, pad.id, key);
      if (digit === undefined && key !== "bk") {
        await ctx.answerCallbackQuery({ text: ctx.t("stale-button") });
        return;
      }
      const saved = await savePad(db, box, pad, pressed(pad.entry, digit ? { digit } : "back"));
      await ctx.answerCallbackQuery();
      if (saved) await editPressedButtons(ctx, pinKeypad(ctx, saved));
      return;
    }
    await confirmed(ctx, pad, continuations);
  });
  return composer;
}

/** ✅ on a keypad: the step's typed digits are checked, kept for the next step, or used */
async function confirmed(
  ctx: BotContext,
  pad: PinPad,
  continuations: Readonly<Record<string, PinContinuation>>,
): Promise<void> {
  const db = ctx.deps.db;
  const box = chatSecrets(ctx.deps);
  const userId = pad.userId;
  const now = ctx.deps.clock.now();
  const { entry } = pad;
  // a step's digits cleared for another try on the same keypad
  const clearTyped = () => savePad(db, box, pad, { ...entry, typed: "" });

  if (entry.step === "old") {
    // the current PIN, checked now for a quick answer, and again when the new one is set
    const checked = await checkPin(db, userId, entry.typed, now);
    if (checked.ok) {
      const next = await savePad(db, box, pad, { step: "new", typed: "", old: entry.typed });
      await ctx.answerCallbackQuery();
      if (next) await show(ctx, next);
    } else if (checked.reason === "no_pin") {
      await closePad(db, userId, pad.id);
      await ctx.answerCallbackQuery({ text: ctx.t("stale-button") });
      await clearPressed(ctx);
    } else {
      await refused(ctx, pad, checked, clearTyped);
    }
    return;
  }
  if (entry.step === "new") {
    if (!validPin(entry.typed)) {
      const next = await clearTyped();
      await ctx.answerCallbackQuery({ text: ctx.t("pin-invalid"), show_alert: true });
      if (next) await show(ctx, next);
      return;
    }
    const next = await savePad(db, box, pad, {
      ...entry,
      step: "repeat",
      typed: "",
      first: entry.typed,
    });
    await ctx.answerCallbackQuery();
    if (next) await show(ctx, next);
    return;
  }

  // the keypad's last step: it answers once
  const taken = await takePad(db, box, pad);
  if (!taken) return void (await ctx.answerCallbackQuery());

  if (entry.step === "repeat") {
    if (entry.typed !== entry.first) {
      const again = await open(ctx, pad.purpose, { step: "new", typed: "", old: entry.old });
      await ctx.answerCallbackQuery({ text: ctx.t("pin-mismatch"), show_alert: true });
      await show(ctx, again);
      return;
    }
    const pin = entry.typed;
    if (pad.purpose === PIN_CHANGE) {
      const changed = await replacePin(db, userId, entry.old ?? "", pin, now);
      if (!changed.ok && (changed.reason === "wrong" || changed.reason === "locked")) {
        await refused(ctx, pad, changed, () => open(ctx, pad.purpose, { step: "old", typed: "" }));
        return;
      }
      if (!changed.ok) return void (await stale(ctx));
    } else if (!(await setFirstPin(db, userId, pin))) {
      // a PIN was set since this keypad opened: changing that one needs it
      return void (await stale(ctx));
    }
    await ctx.answerCallbackQuery();
    await editPressed(ctx, ctx.t("pin-set-done"));
    return;
  }

  const checked = await checkPin(db, userId, entry.typed, now);
  if (checked.ok || checked.reason === "no_pin") {
    const parsed = parseCb(pad.purpose);
    const go = parsed ? continuations[parsed.prefix] : undefined;
    if (!parsed || !go) return void (await stale(ctx));
    await go(ctx, parsed.parts.join(":"), pad.detail);
    return;
  }
  await refused(ctx, pad, checked, () =>
    open(ctx, pad.purpose, { step: "pin", typed: "" }, pad.detail),
  );
}

async function stale(ctx: BotContext): Promise<void> {
  await ctx.answerCallbackQuery({ text: ctx.t("stale-button") });
  await clearPressed(ctx);
}
