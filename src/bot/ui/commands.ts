import type { Api } from "grammy";
import type { BotCommand } from "grammy/types";
import type { Language } from "../../commerce/users.ts";
import {
  DEFAULT_LANGUAGE,
  LANGUAGES,
  type Translate,
  type TranslationSource,
  translator,
} from "./i18n.ts";

/** who a command is for: everyone, resellers, or the shop's admins */
export type CommandRole = "customer" | "reseller" | "admin";

/**
 * every command a person can see, by who may use it: the "/" menu (`cmd-<command>`) and
 * /help (`help-<command>`, a usage line) are both built from this table, so they can't drift.
 * A user with several roles sees each command once, under the first role that lists it.
 */
export const COMMANDS: Readonly<Record<CommandRole, readonly string[]>> = {
  customer: [
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
  ],
  reseller: ["downline", "markup", "komisi", "transfer", "struk", "api"],
  admin: [
    "balance",
    "sync",
    "credit",
    "debit",
    "role",
    "promote",
    "upline",
    "markup",
    "minmargin",
    "stats",
    "laporan",
    "pending",
    "broadcast",
    "user",
    "test",
    "recon",
    "supplier_topup",
    "supplier_topup_reverse",
    "payment",
    "export",
    "resume",
    "routes",
    "routeorder",
    "unlinked",
    "link",
    "transfer",
    "api",
  ],
};

/**
 * commands the bot answers that neither the menu nor /help lists, each with why: another
 * name of a listed command (typed from habit or in the other language), and /menu, the main
 * menu that /start shows too. Every registered command is in COMMANDS or here
 * (test/bot/ui/commands.test.ts).
 */
export const HIDDEN_COMMANDS: Readonly<Record<string, string>> = {
  menu: "the main menu again: /start shows it, and one line for it is enough",
  history: "/riwayat in English",
  topup: "/deposit in English",
  language: "/lang spelled out",
  bahasa: "/lang in Indonesian",
  bantuan: "/help in Indonesian",
  prices: "/harga in English",
  trf: "/transfer shortened",
  commission: "/komisi in English",
};

/** a person's roles, in the table's order */
export function rolesOf(who: { reseller: boolean; admin: boolean }): CommandRole[] {
  return [
    "customer",
    ...(who.reseller ? (["reseller"] as const) : []),
    ...(who.admin ? (["admin"] as const) : []),
  ];
}

/** each role's commands for a person with these roles, a command under its first role only */
function commandsByRole(roles: readonly CommandRole[]): [CommandRole, string[]][] {
  const seen = new Set<string>();
  return roles.map((role) => {
    const own = COMMANDS[role].filter((c) => !seen.has(c));
    for (const c of own) seen.add(c);
    return [role, own];
  });
}

function commandList(t: Translate, roles: readonly CommandRole[]): BotCommand[] {
  return commandsByRole(roles).flatMap(([, names]) =>
    names.map((command) => ({ command, description: t(`cmd-${command}`) })),
  );
}

/** /help for a person with these roles: a section per role, from the same table as the menu */
export function helpText(t: Translate, roles: readonly CommandRole[]): string {
  return commandsByRole(roles)
    .map(([role, names]) =>
      [t(`help-${role}-title`), ...names.map((c) => t(`help-${c}`))].join("\n"),
    )
    .join("\n\n");
}

type TranslatorFor = (language: Language) => Translate;

/**
 * one chat's own menu: its commands for the person's roles, in the language they chose with
 * /lang (a chat-scoped list wins over the language-wide defaults), and the menu button's label
 * in that language where the Mini App is on. Set when an admin or reseller opens the bot, on
 * /lang, and when a role changes. Telegram refuses it ("chat not found") until the person has
 * opened the bot.
 */
export async function setChatMenu(
  api: Api,
  tFor: TranslatorFor,
  chat: { chatId: number; language: Language; roles: readonly CommandRole[]; miniAppUrl?: string },
): Promise<void> {
  const t = tFor(chat.language);
  const scope = { type: "chat", chat_id: chat.chatId } as const;
  await api.setMyCommands(commandList(t, chat.roles), { scope });
  // a chat's list for one client language would win over this one: older versions set them
  for (const lang of LANGUAGES.filter((l) => l !== DEFAULT_LANGUAGE)) {
    await api.deleteMyCommands({ scope, language_code: lang });
  }
  if (chat.miniAppUrl) {
    await api.setChatMenuButton({
      chat_id: chat.chatId,
      menu_button: {
        type: "web_app",
        text: t("menu-catalogue"),
        web_app: { url: chat.miniAppUrl },
      },
    });
  }
}

/**
 * registers the command menu: Indonesian by default, English for English clients, and the
 * admin commands only in each admin's own chat (nobody else ever sees them listed), in the
 * language each admin chose.
 */
export async function registerCommands(
  api: Api,
  i18n: TranslationSource,
  admins: readonly { id: number; language: Language; reseller?: boolean }[],
  onAdminFailure: (chatId: number, err: unknown) => void = () => {},
): Promise<void> {
  const tFor: TranslatorFor = (lang) => translator(i18n, lang);
  for (const lang of LANGUAGES) {
    await api.setMyCommands(commandList(tFor(lang), ["customer"]), {
      ...(lang === DEFAULT_LANGUAGE ? {} : { language_code: lang }),
    });
  }
  // each admin on their own: one who never opened the bot must not cost the others theirs
  for (const admin of admins) {
    try {
      await setChatMenu(api, tFor, {
        chatId: admin.id,
        language: admin.language,
        roles: rolesOf({ reseller: admin.reseller ?? false, admin: true }),
      });
    } catch (err) {
      onAdminFailure(admin.id, err);
    }
  }
}
