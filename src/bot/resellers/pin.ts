import { Composer, InlineKeyboard } from "grammy";
import { openPinEntry, pinState, removePin } from "../../commerce/wallet/pin.ts";
import type { BotContext } from "../context.ts";
import { CB, cb, cbPattern, parseCb } from "../ui/callback-data.ts";
import { editPressed } from "../ui/edit.ts";
import { pinGate, pinKeypad } from "../ui/pin-pad.ts";

// /pin: set, change or remove the wallet's PIN, every digit on the keypad (never typed into
// the chat); changing or removing asks for the current PIN first (docs/resellers.md#the-pin)

/** what /pin's buttons run once the current PIN was given */
export async function changePin(ctx: BotContext, what: string): Promise<void> {
  const userId = ctx.from!.id;
  await ctx.answerCallbackQuery();
  if (what === "remove") {
    await removePin(ctx.deps.db, userId);
    await editPressed(ctx, ctx.t("pin-removed"));
    return;
  }
  await openPinEntry(ctx.deps.db, userId, cb(CB.pinSet, "new"));
  await editPressed(ctx, ctx.t("pin-new"), { keyboard: pinKeypad(ctx, 0) });
}

export function pinFeature(): Composer<BotContext> {
  const composer = new Composer<BotContext>();
  composer.command("pin", async (ctx) => {
    const userId = ctx.from!.id;
    const state = await pinState(ctx.deps.db, userId, ctx.deps.clock.now());
    if (!state.set) {
      await openPinEntry(ctx.deps.db, userId, cb(CB.pinSet, "new"));
      await ctx.reply(ctx.t("pin-new"), { reply_markup: pinKeypad(ctx, 0) });
      return;
    }
    await ctx.reply(ctx.t("pin-status-on"), {
      reply_markup: new InlineKeyboard()
        .text(ctx.t("btn-pin-change"), cb(CB.pinChange, "change"))
        .text(ctx.t("btn-pin-remove"), cb(CB.pinChange, "remove")),
    });
  });
  return composer;
}

export function pinButtons(): Composer<BotContext> {
  const composer = new Composer<BotContext>();
  composer.callbackQuery(cbPattern(CB.pinChange), async (ctx) => {
    const what = parseCb(ctx.callbackQuery.data)?.parts[0] ?? "";
    if (what !== "change" && what !== "remove") {
      await ctx.answerCallbackQuery({ text: ctx.t("stale-button") });
      return;
    }
    if (!(await pinGate(ctx, cb(CB.pinChange, what)))) return;
    await changePin(ctx, what);
  });
  return composer;
}
