import type { ConversationFlavor } from "@grammyjs/conversations";
import type { I18nFlavor } from "@grammyjs/i18n";
import type { Bot, Context } from "grammy";
import type { Language, User } from "../commerce/users.ts";
import type { BotDeps } from "./deps.ts";
import type { Translate } from "./ui/i18n.ts";

/** what every update handler outside conversations sees */
interface KiosFlavor {
  deps: BotDeps;
  /** the sender as stored (created on first contact); undefined for updates without a sender */
  user: User | undefined;
  /** the user's language (id unless they chose English) */
  lang: Language;
  isAdmin: boolean;
  /** a translator for someone else's language (e.g. telling another user) */
  translatorFor(language: string): Translate;
}

export type BaseContext = Context & KiosFlavor & I18nFlavor;

/** the outside middleware's context */
export type BotContext = ConversationFlavor<BaseContext>;

/** the context inside conversations: a plain context rebuilt on every replay */
export type FlowContext = Context;

/** the storefront bot createBot builds */
export type KiosBot = Bot<BotContext>;
