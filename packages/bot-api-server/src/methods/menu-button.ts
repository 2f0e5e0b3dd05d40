import type { MenuButton } from "@grammyjs/types";
import { badRequest } from "../errors.ts";
import { webAppInfo } from "../keyboard.ts";
import { optJson, type Params } from "../params.ts";
import type { BotState } from "../state.ts";
import type { World } from "../world.ts";
import type { MethodContext, MethodTable } from "./context.ts";

// the menu button beside the input of a private chat: the command list, a Mini App, or
// "default" (a chat without its own uses the bot's default, which starts as the command list)

const parseFail = (why: string) => badRequest(`can't parse menu button: ${why}`);

function parseMenuButton(raw: unknown): MenuButton {
  if (raw === undefined) return { type: "default" };
  if (raw === null || typeof raw !== "object" || Array.isArray(raw))
    throw badRequest("can't parse menu button JSON object");
  const button = raw as Record<string, unknown>;
  if (button.type === "commands" || button.type === "default") return { type: button.type };
  if (button.type !== "web_app") throw parseFail("unsupported menu button type");
  if (typeof button.text !== "string") throw parseFail('Field "text" must be of type String');
  if (button.text.trim() === "") throw badRequest("BUTTON_TEXT_INVALID");
  return {
    type: "web_app",
    text: button.text,
    web_app: webAppInfo(button.web_app, "menu button", parseFail),
  };
}

/** chat_id, when given: a user's private chat the bot knows */
function chatIdOf(world: World, bot: BotState, params: Params): number | undefined {
  const raw = params.values.chat_id;
  if (raw === undefined || raw === null || raw === "") return undefined;
  const id = Number(raw);
  if (!Number.isSafeInteger(id) || !(bot.chats.has(id) || world.users.has(id)))
    throw badRequest("chat not found");
  return id;
}

function setChatMenuButton(ctx: MethodContext) {
  const { world, bot, params } = ctx;
  const chatId = chatIdOf(world, bot, params);
  const button = parseMenuButton(optJson(params, "menu_button", "menu button"));
  if (chatId === undefined) {
    // the default can't be "default": resetting it gives back the command list
    bot.defaultMenuButton = button.type === "default" ? { type: "commands" } : button;
    world.touchAll(bot);
  } else {
    if (button.type === "default") bot.menuButtons.delete(chatId);
    else bot.menuButtons.set(chatId, button);
    world.touch(bot, chatId);
  }
  return true;
}

function getChatMenuButton(ctx: MethodContext): MenuButton {
  const { world, bot, params } = ctx;
  const chatId = chatIdOf(world, bot, params);
  if (chatId === undefined) return bot.defaultMenuButton;
  return bot.menuButtons.get(chatId) ?? { type: "default" };
}

/** the button the user's client shows: the chat's own, else the bot's default */
export function menuButtonFor(
  bot: BotState,
  userId: number,
): Exclude<MenuButton, { type: "default" }> {
  const own = bot.menuButtons.get(userId);
  const button = own && own.type !== "default" ? own : bot.defaultMenuButton;
  return button.type === "default" ? { type: "commands" } : button;
}

export const menuButtonMethods: MethodTable = {
  setchatmenubutton: setChatMenuButton,
  getchatmenubutton: getChatMenuButton,
};
