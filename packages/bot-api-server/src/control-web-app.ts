import type { InlineKeyboardButton, KeyboardButton } from "@grammyjs/types";
import { type BotOption, type ControlContext, ControlError, type Sent } from "./control-context.ts";
import { menuButtonFor } from "./methods/menu-button.ts";
import { launchWebApp, type WebAppLaunch } from "./web-app.ts";

// the control API's Mini App part: open an app as a user, as their client would, and send its
// data back (sendData)

/** which button the user opens the app with */
export type WebAppFrom =
  /** a web_app button of a bot message's inline keyboard; the first one unless button_text */
  | { message_id: number; button_text?: string }
  /** the chat's menu button */
  | { menu: true }
  /** a web_app button of the reply keyboard the client shows now */
  | { keyboard_button: string }
  /** the web_app button above an inline query's results */
  | { inline_query_id: string };

export interface WebAppControl {
  /** opens a Mini App as the user: the URL it loads and the initData signed for the bot */
  openWebApp(userId: number, from: WebAppFrom, options?: BotOption): WebAppLaunch;
  /** Telegram.WebApp.sendData from an app opened by a reply keyboard button: closes it */
  sendWebAppData(userId: number, launchId: string, data: string, options?: BotOption): Sent;
}

const MAX_DATA_BYTES = 4096;

export function webAppControl(context: ControlContext): WebAppControl {
  const { world, botOf, requireUser, userSends } = context;

  return {
    openWebApp(userId, from, options) {
      const bot = botOf(options);
      const user = requireUser(userId);
      const chat = bot.chats.get(userId);
      if (chat?.blocked) throw new ControlError(409, "the user blocked the bot; unblock it first");

      if ("menu" in from) {
        const button = menuButtonFor(bot, userId);
        if (button.type !== "web_app")
          throw new ControlError(400, "the chat's menu button is the command list, not a Mini App");
        return launchWebApp(world, bot, user, "menu_button", button.web_app.url, button.text);
      }
      if ("inline_query_id" in from) {
        const button = bot.inline.queries.get(from.inline_query_id)?.answer?.button;
        if (!button?.web_app)
          throw new ControlError(
            400,
            `the answer to inline query ${from.inline_query_id} has no web_app button`,
          );
        return launchWebApp(
          world,
          bot,
          user,
          "inline_results_button",
          button.web_app.url,
          button.text,
        );
      }
      if ("keyboard_button" in from) {
        const button = chat?.replyKeyboard?.keyboard
          .flat()
          .find(
            (b): b is KeyboardButton.WebAppButton =>
              typeof b === "object" && "web_app" in b && b.text === from.keyboard_button,
          );
        if (!button)
          throw new ControlError(
            400,
            `the reply keyboard has no web_app button ${JSON.stringify(from.keyboard_button)}`,
          );
        return launchWebApp(world, bot, user, "keyboard_button", button.web_app.url, button.text);
      }
      const stored = chat?.messages.get(from.message_id);
      if (!stored || stored.deleted)
        throw new ControlError(400, `message ${from.message_id} is not in the chat`);
      const button = stored.message.reply_markup?.inline_keyboard
        .flat()
        .find(
          (b): b is InlineKeyboardButton.WebAppButton =>
            "web_app" in b && (from.button_text === undefined || b.text === from.button_text),
        );
      if (!button)
        throw new ControlError(
          400,
          `message ${from.message_id} has no web_app button` +
            (from.button_text === undefined ? "" : ` ${JSON.stringify(from.button_text)}`),
        );
      return launchWebApp(world, bot, user, "inline_button", button.web_app.url, button.text);
    },

    sendWebAppData(userId, launchId, data, options) {
      const bot = botOf(options);
      const session = bot.webApps.get(launchId);
      if (!session || session.userId !== userId)
        throw new ControlError(404, `no Mini App ${launchId} opened by user ${userId}`);
      if (session.source !== "keyboard_button")
        throw new ControlError(
          409,
          "sendData works only in a Mini App opened from a reply keyboard button",
        );
      if (session.done) throw new ControlError(409, "this Mini App already closed with sendData");
      const bytes = Buffer.byteLength(data, "utf8");
      if (bytes < 1 || bytes > MAX_DATA_BYTES)
        throw new ControlError(400, "sendData takes 1 to 4096 bytes");
      const sent = userSends(
        userId,
        { web_app_data: { data, button_text: session.buttonText } },
        options,
      );
      session.done = true;
      return sent;
    },
  };
}
