import { fileURLToPath } from "node:url";
import { I18n } from "@grammyjs/i18n";
import type { Context } from "grammy";
import type { Language } from "../../commerce/users.ts";

export const LOCALES_DIR = fileURLToPath(new URL("./locales", import.meta.url));
export const DEFAULT_LANGUAGE: Language = "id";
export const LANGUAGES: readonly Language[] = ["id", "en"];

/** translation variables: numbers are pre-formatted by the caller (Rp10.000), never by fluent */
type Vars = Record<string, string | number>;
/** a translator bound to one language */
export type Translate = (key: string, vars?: Vars) => string;

export interface I18nOptions<C extends Context> {
  /** called for a key missing in a locale; default: ignored (fluent falls back to the key) */
  onMissing?: (key: string, locale: string) => void;
  /** the middleware's language for an update (the bot: the stored user's language) */
  localeNegotiator?: (ctx: C) => string | undefined;
}

/**
 * the locale bundles (src/bot/locales/*.ftl). Indonesian is the default; a user's language
 * comes from the database, never from Telegram's client language after the first contact.
 */
export function createI18n<C extends Context = Context>(options: I18nOptions<C> = {}): I18n<C> {
  const i18n = new I18n<C>({
    defaultLocale: DEFAULT_LANGUAGE,
    localeNegotiator: options.localeNegotiator,
    // no unicode isolation marks around placeables: they would show in copied SNs and tokens
    fluentBundleOptions: { useIsolating: false },
    fluentOptions: {
      warningHandler: (w) => {
        if ("messageId" in w) options.onMissing?.(w.messageId, w.locales.join(","));
      },
    },
  });
  i18n.loadLocalesDirSync(LOCALES_DIR);
  return i18n;
}

/** what a translator needs of an I18n instance (its context type does not matter here) */
export interface TranslationSource {
  t(locale: string, key: string, variables?: Vars): string;
}

export function translator(i18n: TranslationSource, language: string): Translate {
  const lang = LANGUAGES.includes(language as Language) ? language : DEFAULT_LANGUAGE;
  return (key, vars) => i18n.t(lang, key, vars);
}

export function isLanguage(value: string): value is Language {
  return (LANGUAGES as readonly string[]).includes(value);
}
