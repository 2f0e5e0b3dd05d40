import { readFileSync } from "node:fs";
import { join } from "node:path";
import ts from "typescript";
import { describe, expect, it } from "vitest";
import { createI18n, translator } from "../../src/bot/ui/i18n.ts";

// the Mini App names the catalogue's categories in the chat's own words, in both languages

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
  it.each(["id", "en"])("say the chat's words in %s", (lang) => {
    const t = translator(i18n, lang);
    const page = texts[lang]!;
    expect(page["cat-E-Money"]).toBe(words(t("menu-ewallet")));
    expect(page["cat-Games"]).toBe(words(t("menu-game")));
    expect(page["cat-PLN"]).toBe(words(t("menu-pln")));
    expect(page["cat-Pulsa"]).toBe(t("btn-pulsa"));
    expect(page["cat-Data"]).toBe(t("btn-data"));
  });
});
