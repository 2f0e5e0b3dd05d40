import { Composer, InlineKeyboard } from "grammy";
import { pinState, removePin } from "../../commerce/wallet/pin.ts";
import type { BotContext } from "../context.ts";
import { CB, cb, cbPattern, parseCb } from "../ui/callback-data.ts";
import { editPressed } from "../ui/edit.ts";
import { wibTime } from "../ui/format.ts";
import { pinChangePad, pinGate } from "../ui/pin-pad.ts";

// /pin: set, change or remove the wallet's PIN, every digit on a keypad (never typed into
// the chat). A new PIN is typed twice; a change asks the current PIN on the same keypad and
// checks it again when the new one is written; removing asks the current PIN first
// (docs/resellers.md#the-pin)

/** what /pin's Remove runs once the current PIN was given (the keypad's continuation) */
export async function changePin(ctx: BotContext, what: string): Promise<void> {
  if (what !== "remove")
    return void (await ctx.answerCallbackQuery({ text: ctx.t("stale-button") }));
  await ctx.answerCallbackQuery();
  await removePin(ctx.deps.db, ctx.from!.id);
  await editPressed(ctx, ctx.t("pin-removed"));
}

export function pinFeature(): Composer<BotContext> {
  const composer = new Composer<BotContext>();
  composer.command("pin", async (ctx) => {
    const userId = ctx.from!.id;
    const state = await pinState(ctx.deps.db, userId, ctx.deps.clock.now());
    if (!state.set) {
      const { text, keyboard } = await pinChangePad(ctx, false);
      await ctx.reply(text, { reply_markup: keyboard });
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
    const state = await pinState(ctx.deps.db, ctx.from.id, ctx.deps.clock.now());
    if (what === "remove") {
      if (!(await pinGate(ctx, cb(CB.pinChange, what)))) return;
      await changePin(ctx, what);
      return;
    }
    // a first PIN only while there is none; a change only of one that exists
    if ((what !== "new" && what !== "change") || state.set !== (what === "change")) {
      await ctx.answerCallbackQuery({ text: ctx.t("stale-button") });
      return;
    }
    if (state.lockedUntil) {
      await ctx.answerCallbackQuery({
        text: ctx.t("pin-locked", { until: wibTime(state.lockedUntil.getTime()) }),
        show_alert: true,
      });
      return;
    }
    const { text, keyboard } = await pinChangePad(ctx, what === "change");
    await ctx.answerCallbackQuery();
    await editPressed(ctx, text, { keyboard });
  });
  return composer;
}
