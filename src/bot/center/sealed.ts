import type { MiddlewareFn } from "grammy";
import { hasSealedPins, openTextPins } from "../../commerce/center/text-pins.ts";
import type { BotContext } from "../context.ts";
import type { BotDeps } from "../deps.ts";
import { registerTextPinBox } from "../storage/redact.ts";
import { botIdOfToken } from "../storage/updates.ts";
import { chatSecrets } from "../ui/pin-pad.ts";

// the PIN of a center text command is stored sealed (storage/redact.ts); here, before any
// handler reads the text, it is opened again in memory, for this update only

/** the storage hook seals this bot's texts with the chat's box (every process runs this) */
export function registerTextPins(deps: BotDeps): void {
  let botId: number;
  try {
    botId = botIdOfToken(deps.token);
  } catch {
    // a token without a bot id (never Telegram's): its stored commands lose their PIN
    return;
  }
  registerTextPinBox(botId, chatSecrets(deps));
}

/** the message that carried a PIN goes (a failed delete is tolerated: the answer still comes) */
export async function deleteCarrier(ctx: BotContext): Promise<void> {
  try {
    await ctx.deleteMessage();
  } catch (err) {
    ctx.deps.logger.info({ err: String(err) }, "a message with a PIN could not be deleted");
  }
}

export function openSealedPins(): MiddlewareFn<BotContext> {
  return async (ctx, next) => {
    const message = ctx.message;
    if (!message?.text || !hasSealedPins(message.text) || !ctx.from) return next();
    const opened = openTextPins(message.text, chatSecrets(ctx.deps), {
      userId: ctx.from.id,
      messageId: message.message_id,
    });
    if (opened === undefined) {
      await deleteCarrier(ctx);
      await ctx.reply(ctx.t("center-pin-unreadable"));
      return;
    }
    // the handlers after this read the text as typed (in memory only, never stored)
    (message as { text: string }).text = opened;
    return next();
  };
}
