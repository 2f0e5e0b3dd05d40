import type { Api } from "grammy";
import type { BotCommand } from "grammy/types";
import type { Language } from "../../commerce/users.ts";
import { LANGUAGES, type Translate, type TranslationSource, translator } from "./i18n.ts";

const CUSTOMER_COMMANDS = [
  "start",
  "saldo",
  "deposit",
  "riwayat",
  "harga",
  "status",
  "lang",
  "pin",
  "help",
  "cancel",
] as const;

/** the admins' commands, listed only in each admin's own chat (their handlers: src/bot/index.ts) */
const ADMIN_COMMANDS = [
  "balance",
  "sync",
  "credit",
  "debit",
  "role",
  "markup",
  "stats",
  "pending",
  "broadcast",
  "user",
  "test",
  "recon",
  "supplier_topup",
  "supplier_topup_reverse",
  "payment",
  "export",
  "laporan",
  "resume",
  "routes",
  "unlinked",
  "link",
  "minmargin",
  "routeorder",
  "promote",
  "upline",
  "api",
] as const;

type TranslatorFor = (language: Language) => Translate;

function commandList(tFor: TranslatorFor, lang: Language, names: readonly string[]) {
  const t = tFor(lang);
  return names.map((command): BotCommand => ({ command, description: t(`cmd-${command}`) }));
}

/**
 * the admin menu in one admin's chat. Telegram refuses it ("chat not found") until that
 * admin has opened the bot, so it is set again when an admin sends /start.
 */
export async function registerAdminCommands(
  api: Api,
  tFor: TranslatorFor,
  chatId: number,
): Promise<void> {
  for (const lang of LANGUAGES) {
    await api.setMyCommands(commandList(tFor, lang, [...CUSTOMER_COMMANDS, ...ADMIN_COMMANDS]), {
      scope: { type: "chat", chat_id: chatId },
      ...(lang === "id" ? {} : { language_code: lang }),
    });
  }
}

/**
 * registers the command menu: Indonesian by default, English for English clients, and the
 * admin commands only in each admin's own chat (nobody else ever sees them listed).
 */
export async function registerCommands(
  api: Api,
  i18n: TranslationSource,
  adminIds: readonly number[],
  onAdminFailure: (chatId: number, err: unknown) => void = () => {},
): Promise<void> {
  const tFor: TranslatorFor = (lang) => translator(i18n, lang);
  await api.setMyCommands(commandList(tFor, "id", CUSTOMER_COMMANDS));
  await api.setMyCommands(commandList(tFor, "en", CUSTOMER_COMMANDS), { language_code: "en" });
  // each admin on their own: one who never opened the bot must not cost the others theirs
  for (const chatId of adminIds) {
    try {
      await registerAdminCommands(api, tFor, chatId);
    } catch (err) {
      onAdminFailure(chatId, err);
    }
  }
}
