import type { CatalogueWords } from "../../mini-app/words.ts";
import { brandName, categoryName } from "../ui/catalogue-words.ts";
import { type TranslationSource, translator } from "../ui/i18n.ts";

/** the Mini App's names for categories and brands: the chat's own (catalogue-words.ts) */
export function createMiniAppWords(i18n: TranslationSource): CatalogueWords {
  return {
    category: (language, category) => categoryName(translator(i18n, language), category),
    brand: brandName,
  };
}
