import type { Language } from "../commerce/users.ts";

// how the catalogue's categories and brands read to a buyer: the shop's words, the ones the
// chat, /harga and inline mode use (the bot implements it with src/bot/ui/catalogue-words.ts:
// src/bot/mini-app/words.ts), so the app never shows a supplier's "PLN PASCABAYAR" or
// "TELKOMSEL" where the chat says "PLN Pascabayar" and "Telkomsel"

export interface CatalogueWords {
  category(language: Language, category: string): string;
  brand(brand: string): string;
}

/** without the bot (an app alone in a test): the names as stored */
export const STORED_WORDS: CatalogueWords = {
  category: (_language, category) => category,
  brand: (brand) => brand,
};
