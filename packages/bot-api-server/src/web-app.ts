import { randomBytes } from "node:crypto";
import type { User } from "@grammyjs/types";
import { type InitDataFields, signInitData, type WebAppUser } from "./init-data.ts";
import type { BotState, WebAppSession, WebAppSource } from "./state.ts";
import type { World } from "./world.ts";

// opening a Mini App as a user's client does: which initData it gets, and the URL it loads
// (the app's URL with the launch parameters in the fragment, where Telegram's script reads them)

/** the Bot API version the Mini App script reports */
export const WEB_APP_VERSION = "9.1";
/** Telegram Web A's platform name: the chat page is a web client */
export const WEB_APP_PLATFORM = "weba";

/** the chat page's light theme, as themeParams */
export const THEME_PARAMS = {
  bg_color: "#ffffff",
  text_color: "#000000",
  hint_color: "#707579",
  link_color: "#3390ec",
  button_color: "#3390ec",
  button_text_color: "#ffffff",
  secondary_bg_color: "#f4f4f5",
  header_bg_color: "#ffffff",
  bottom_bar_bg_color: "#ffffff",
  accent_text_color: "#3390ec",
  section_bg_color: "#ffffff",
  section_header_text_color: "#3390ec",
  section_separator_color: "#e7e7e7",
  subtitle_text_color: "#707579",
  destructive_text_color: "#e53935",
} as const;

export type ThemeParams = Record<keyof typeof THEME_PARAMS, string>;

/** what a client loads for one opening of a Mini App */
export interface WebAppLaunch {
  /** this opening, for sendData */
  id: string;
  source: WebAppSource;
  /** the Web App URL the bot gave */
  url: string;
  /** the URL the client loads: `url` with the launch parameters as its fragment */
  launch_url: string;
  /** Telegram.WebApp.initData; empty for apps opened from a reply keyboard or inline mode */
  init_data: string;
  /** Telegram.WebApp.initDataUnsafe: initData parsed, user JSON decoded */
  init_data_unsafe: Record<string, unknown>;
  button_text: string;
  theme_params: ThemeParams;
}

/** the user as initData has it: last_name "" when there is none, as Telegram writes it */
function webAppUser(user: User): WebAppUser {
  return {
    id: user.id,
    first_name: user.first_name,
    last_name: user.last_name ?? "",
    ...(user.username ? { username: user.username } : {}),
    ...(user.language_code ? { language_code: user.language_code } : {}),
    ...(user.is_premium ? { is_premium: true as const } : {}),
    allows_write_to_pm: true,
  };
}

/** initData parsed the way Telegram's script parses it into initDataUnsafe */
function initDataUnsafe(initData: string): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of new URLSearchParams(initData)) {
    out[key] = ["user", "receiver", "chat"].includes(key) ? JSON.parse(value) : value;
  }
  return out;
}

/**
 * initData by where the app was opened (as Telegram's clients send it): an inline button gives
 * the chat (chat_type, chat_instance), the menu button a query_id for answerWebAppQuery; a reply
 * keyboard button and inline mode give none (Telegram documents initData as empty there)
 */
function initDataFor(
  world: World,
  bot: BotState,
  user: User,
  source: WebAppSource,
  queryId: string | undefined,
): string {
  if (source === "keyboard_button" || source === "inline_results_button") return "";
  const fields: InitDataFields = { user: webAppUser(user), auth_date: world.nowSeconds() };
  if (source === "menu_button") fields.query_id = queryId;
  if (source === "inline_button") {
    fields.chat_instance = world.openChat(bot, user.id).chatInstance;
    fields.chat_type = "private";
  }
  return signInitData(bot.config.token, { ...fields }, { botId: bot.config.id });
}

/** records an opening and returns what the client loads */
export function launchWebApp(
  world: World,
  bot: BotState,
  user: User,
  source: WebAppSource,
  url: string,
  buttonText: string,
): WebAppLaunch {
  const session: WebAppSession = {
    id: randomBytes(8).toString("hex"),
    userId: user.id,
    source,
    buttonText,
    done: false,
    ...(source === "menu_button" ? { queryId: randomBytes(18).toString("base64url") } : {}),
  };
  bot.webApps.set(session.id, session);
  const initData = initDataFor(world, bot, user, source, session.queryId);
  const fragment = new URLSearchParams({
    tgWebAppData: initData,
    tgWebAppVersion: WEB_APP_VERSION,
    tgWebAppPlatform: WEB_APP_PLATFORM,
    tgWebAppThemeParams: JSON.stringify(THEME_PARAMS),
  });
  const target = new URL(url);
  target.hash = "";
  return {
    id: session.id,
    source,
    url,
    launch_url: `${target.href.replace(/#$/, "")}#${fragment.toString().replaceAll("+", "%20")}`,
    init_data: initData,
    init_data_unsafe: initDataUnsafe(initData),
    button_text: buttonText,
    theme_params: { ...THEME_PARAMS },
  };
}
