import type { Api } from "grammy";
import type { BotCommand } from "grammy/types";
import type { Language } from "../commerce/users.ts";
import { ADMIN_COMMANDS } from "./features/admin/index.ts";
import { LANGUAGES, type TranslationSource, translator } from "./i18n.ts";

export const CUSTOMER_COMMANDS = [
  "start",
  "saldo",
  "deposit",
  "riwayat",
  "status",
  "lang",
  "help",
  "cancel",
] as const;

function commandList(i18n: TranslationSource, lang: Language, names: readonly string[]) {
  const t = translator(i18n, lang);
  return names.map((command): BotCommand => ({ command, description: t(`cmd-${command}`) }));
}

/**
 * registers the command menu: Indonesian by default, English for English clients, and the
 * admin commands only in each admin's own chat (nobody else ever sees them listed).
 */
export async function registerCommands(
  api: Api,
  i18n: TranslationSource,
  adminIds: readonly number[],
): Promise<void> {
  await api.setMyCommands(commandList(i18n, "id", CUSTOMER_COMMANDS));
  await api.setMyCommands(commandList(i18n, "en", CUSTOMER_COMMANDS), { language_code: "en" });
  for (const chatId of adminIds) {
    for (const lang of LANGUAGES) {
      const all = [...CUSTOMER_COMMANDS, ...ADMIN_COMMANDS];
      await api.setMyCommands(commandList(i18n, lang, all), {
        scope: { type: "chat", chat_id: chatId },
        ...(lang === "id" ? {} : { language_code: lang }),
      });
    }
  }
}
