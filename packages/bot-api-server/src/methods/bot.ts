import type { ChatFullInfo } from "@grammyjs/types";
import { badRequest } from "../errors.ts";
import { optString, requireChatId, requireString } from "../params.ts";
import type { MethodContext, MethodTable } from "./context.ts";

const CHAT_ACTIONS = new Set([
  "typing",
  "upload_photo",
  "record_video",
  "upload_video",
  "record_voice",
  "upload_voice",
  "upload_document",
  "choose_sticker",
  "find_location",
  "record_video_note",
  "upload_video_note",
]);

function sendChatAction(ctx: MethodContext) {
  const { world, bot, params } = ctx;
  const chat = world.targetChat(bot, requireChatId(params));
  const action = requireString(params, "action", "wrong parameter action in request");
  if (!CHAT_ACTIONS.has(action)) throw badRequest("wrong parameter action in request");
  chat.chatAction = { action, date: world.nowSeconds() };
  world.touch(bot, chat.userId);
  return true;
}

function getChat(ctx: MethodContext): ChatFullInfo {
  const { world, bot, params } = ctx;
  const chatId = requireChatId(params);
  if (typeof chatId !== "number" || !(bot.chats.has(chatId) || world.users.has(chatId)))
    throw badRequest("chat not found");
  return {
    ...world.chatObject(chatId),
    accent_color_id: 0,
    max_reaction_count: 11,
    accepted_gift_types: {
      unlimited_gifts: false,
      limited_gifts: false,
      unique_gifts: false,
      premium_subscription: false,
      gifts_from_channels: false,
    },
  } as ChatFullInfo;
}

/** setMyName / setMyDescription / setMyShortDescription and their getters share one shape */
function profileText(
  field: "name" | "description" | "shortDescription",
  param: string,
  limit: number,
) {
  const resultKey = param === "short_description" ? "short_description" : param;
  return {
    set(ctx: MethodContext) {
      const value = optString(ctx.params, param) ?? "";
      const lang = optString(ctx.params, "language_code") ?? "";
      if ([...value].length > limit) throw badRequest(`${param} is too long`);
      if (value === "") ctx.bot.profile[field].delete(lang);
      else ctx.bot.profile[field].set(lang, value);
      return true;
    },
    get(ctx: MethodContext) {
      const lang = optString(ctx.params, "language_code") ?? "";
      const store = ctx.bot.profile[field];
      const fallback = field === "name" ? ctx.bot.config.firstName : "";
      return { [resultKey]: store.get(lang) ?? store.get("") ?? fallback };
    },
  };
}

const name = profileText("name", "name", 64);
const description = profileText("description", "description", 512);
const shortDescription = profileText("shortDescription", "short_description", 120);

export const botMethods: MethodTable = {
  getme: (ctx) => ctx.bot.me,
  // nothing to log out of locally; Telegram answers true
  logout: () => true,
  close: () => true,
  sendchataction: sendChatAction,
  getchat: getChat,
  setmyname: name.set,
  getmyname: name.get,
  setmydescription: description.set,
  getmydescription: description.get,
  setmyshortdescription: shortDescription.set,
  getmyshortdescription: shortDescription.get,
};
