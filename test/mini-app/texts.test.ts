import { readFileSync } from "node:fs";
import { join } from "node:path";
import ts from "typescript";
import { describe, expect, it } from "vitest";
import { categoryName } from "../../src/bot/ui/catalogue-words.ts";
import { createI18n, translator } from "../../src/bot/ui/i18n.ts";

// the Mini App names the catalogue's categories in the chat's own words, in both languages:
// the API names them with the chat's mapping (src/bot/ui/catalogue-words.ts), and the page
// keeps no table of its own

const APP = join(import.meta.dirname, "../../src/mini-app/page/app.js");

/** the page's TEXTS table, read from its source (the page runs in a browser, not here) */
function pageTexts(): Record<string, Record<string, string>> {
  const source = readFileSync(APP, "utf8");
  const sf = ts.createSourceFile("app.js", source, ts.ScriptTarget.Latest, true);
  let literal: string | undefined;
  sf.forEachChild((n) => {
    if (!ts.isVariableStatement(n)) return;
    for (const d of n.declarationList.declarations) {
      if (d.name.getText(sf) === "TEXTS" && d.initializer) literal = d.initializer.getText(sf);
    }
  });
  if (!literal) throw new Error("no TEXTS table in app.js");
  return new Function(`return (${literal});`)() as Record<string, Record<string, string>>;
}

/** a chat label without its emoji: "🎮 Voucher Game" → "Voucher Game" */
const words = (label: string) => label.replace(/^[^\p{L}]+/u, "");

describe("the Mini App's category chips", () => {
  const texts = pageTexts();
  const i18n = createI18n();
  it.each(["id", "en"])("say the chat menu's words in %s", (lang) => {
    const t = translator(i18n, lang);
    expect(categoryName(t, "E-Money")).toBe(words(t("menu-ewallet")));
    expect(categoryName(t, "Games")).toBe(words(t("menu-game")));
    expect(categoryName(t, "PLN")).toBe(words(t("menu-pln")));
    expect(categoryName(t, "Pulsa")).toBe(t("btn-pulsa"));
    expect(categoryName(t, "Data")).toBe(t("btn-data"));
    // the page's own texts name no category: a second table would drift from the chat's
    expect(Object.keys(texts[lang]!).filter((k) => k.startsWith("cat-"))).toEqual([]);
  });
});
