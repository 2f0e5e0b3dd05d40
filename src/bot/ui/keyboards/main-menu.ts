import { InlineKeyboard } from "grammy";
import { CB, cb } from "../callback-data.ts";
import type { Translate } from "../i18n.ts";

/** the main menu's entries, in the order they are shown (two per row) */
const MENU_ENTRIES = [
  "pulsa",
  "pln",
  "ewallet",
  "game",
  "bill",
  "saldo",
  "history",
  "help",
] as const;
export type MenuEntry = (typeof MENU_ENTRIES)[number];

export function isMenuEntry(value: string | undefined): value is MenuEntry {
  return (MENU_ENTRIES as readonly string[]).includes(value ?? "");
}

/** the menu under the welcome; with a Mini App, its 🛍 Katalog button on top */
export function mainMenuKeyboard(t: Translate, miniAppUrl?: string): InlineKeyboard {
  const kb = new InlineKeyboard();
  if (miniAppUrl) kb.webApp(t("menu-catalogue"), miniAppUrl).row();
  MENU_ENTRIES.forEach((entry, i) => {
    kb.text(t(`menu-${entry}`), cb(CB.menu, entry));
    if (i % 2 === 1) kb.row();
  });
  return kb;
}
