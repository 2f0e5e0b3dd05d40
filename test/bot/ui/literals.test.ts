import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import ts from "typescript";
import { describe, expect, it } from "vitest";

// every word a user reads comes from the locale files (id.ftl, en.ftl): this scans the bot's
// source for text handed to Telegram as a literal, and for an error's own (English) message
// handed to the chat (or a commerce verdict's English `reason`), so a new one fails here instead of reaching an Indonesian shop in English

const ROOT = join(import.meta.dirname, "../../..");
const SRC = join(ROOT, "src/bot");

/** calls whose arguments are what the user reads */
const SENDS = new Set([
  "reply",
  "replyWithPhoto",
  "replyWithDocument",
  "sendMessage",
  "sendPhoto",
  "editMessageText",
  "editMessageCaption",
  "editMessage",
  "answerCallbackQuery",
  "answerInlineQuery",
  "text",
  "url",
  "webApp",
  "copyText",
  "switchInline",
  "switchInlineCurrent",
]);
/** calls whose arguments are a translation's variables */
const TRANSLATES = new Set(["t"]);
/** properties of an options object that Telegram shows */
const SHOWN_PROPS = new Set(["text", "caption", "title", "description", "message_text"]);

/**
 * literals allowed as they are: each language's own name in its own language, and the H2H
 * and center (OtomaX door) credentials' field names (the same words in every language: the
 * reseller's server software names its fields so)
 */
const ALLOWED_LITERALS = new Set([
  "🇮🇩 Bahasa Indonesia",
  "🇬🇧 English",
  "📋 api_id",
  "📋 api_key",
  "📋 secret_key",
  "📋 memberID",
  "📋 pin",
  "📋 password",
]);
/**
 * an error's message that may reach a chat, by file: a supplier's own answer shown to the
 * admins who run the supplier account (the buyer never sees one)
 */
const ALLOWED_MESSAGES = new Set(["src/bot/reconciliation/topups.ts"]);

/**
 * fields that hold English for people who read code and logs: an error's `message`, and the
 * `reason` of a commerce verdict (checkCallbackUrl's, a key's refusal); a value shown as it is
 * is one of these unless it goes through a locale key
 */
const ENGLISH_FIELDS = new Set(["message", "reason"]);

/** the letters of a literal's own text, markup and entities aside */
function hasWords(text: string): boolean {
  const bare = text.replace(/<[^>]*>/g, "").replace(/&[a-z]+;/g, "");
  return /\p{L}{2,}/u.test(bare);
}

function literalText(node: ts.Node): string | undefined {
  if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) return node.text;
  if (ts.isTemplateExpression(node)) {
    return [node.head.text, ...node.templateSpans.map((s) => s.literal.text)].join(" ");
  }
  return undefined;
}

function calleeName(call: ts.CallExpression): string | undefined {
  const e = call.expression;
  if (ts.isPropertyAccessExpression(e)) return e.name.text;
  if (ts.isIdentifier(e)) return e.text;
  return undefined;
}

function files(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((d) => {
    const path = join(dir, d.name);
    if (d.isDirectory()) return files(path);
    return d.name.endsWith(".ts") ? [path] : [];
  });
}

/** every shown literal and every error message handed to the chat, as "file:line: text" */
function userFacingLiterals(sources: { file: string; text: string }[]): string[] {
  const found: string[] = [];
  for (const { file, text } of sources) {
    const sf = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
    const at = (n: ts.Node) => `${file}:${sf.getLineAndCharacterOfPosition(n.getStart()).line + 1}`;
    /** a shown value: a literal with words, or an error's message */
    const check = (n: ts.Node, translated: boolean) => {
      const literal = literalText(n);
      if (!translated && literal !== undefined && hasWords(literal)) {
        if (!ALLOWED_LITERALS.has(literal)) found.push(`${at(n)}: ${literal}`);
      }
      if (ts.isObjectLiteralExpression(n)) {
        for (const p of n.properties) {
          if (!ts.isPropertyAssignment(p)) continue;
          const name = p.name.getText(sf);
          if (translated || SHOWN_PROPS.has(name)) check(p.initializer, translated);
        }
      }
      // an error's message, or a commerce verdict's `reason` (English, for logs and the
      // command line): the chat says a code's words instead (`t(KEYS[verdict.code])`)
      if (
        ts.isPropertyAccessExpression(n) &&
        ENGLISH_FIELDS.has(n.name.text) &&
        !ALLOWED_MESSAGES.has(file)
      ) {
        found.push(`${at(n)}: ${n.getText(sf)}`);
      }
      if (ts.isCallExpression(n) && ["escapeHtml", "String"].includes(calleeName(n) ?? "")) {
        for (const a of n.arguments) check(a, translated);
      }
      if (ts.isTemplateExpression(n)) for (const s of n.templateSpans) check(s.expression, true);
      if (ts.isConditionalExpression(n)) {
        check(n.whenTrue, translated);
        check(n.whenFalse, translated);
      }
    };
    const visit = (n: ts.Node) => {
      if (ts.isCallExpression(n)) {
        const name = calleeName(n);
        // the first argument is shown (a button's second is its data); later ones only as
        // an options object's shown fields
        if (name && SENDS.has(name)) {
          n.arguments.forEach((a, i) => {
            if (i === 0 || ts.isObjectLiteralExpression(a)) check(a, false);
          });
        }
        // a translation's variables are shown too: never an error's English message
        if (name && TRANSLATES.has(name)) for (const a of n.arguments.slice(1)) check(a, true);
      }
      ts.forEachChild(n, visit);
    };
    visit(sf);
  }
  return found;
}

describe("user-facing text", () => {
  it("comes from the locale files: no literal with words, no error message, in src/bot", () => {
    const sources = files(SRC).map((path) => ({
      file: relative(ROOT, path),
      text: readFileSync(path, "utf8"),
    }));
    expect(sources.length).toBeGreaterThan(50);
    expect(userFacingLiterals(sources)).toEqual([]);
  });

  it("finds a literal reply, a literal button, a literal toast and an English error", () => {
    const text = [
      'ctx.reply("order failed");',
      // biome-ignore lint/suspicious/noTemplateCurlyInString: source code as text
      "ctx.reply(`✅ Markup #${id} product ${code}`);",
      'kb.text("Back", "x");',
      'ctx.answerCallbackQuery({ text: "success" });',
      'ctx.reply(ctx.t("refused", { reason: escapeHtml(err.message) }));',
      // a commerce verdict's English reason, in a reply, a toast and a template
      'ctx.reply(ctx.t("api-callback-refused", { reason: escapeHtml(verdict.reason) }));',
      'ctx.answerCallbackQuery({ text: ctx.t("x", { reason: url.reason }) });',
      // biome-ignore lint/suspicious/noTemplateCurlyInString: source code as text
      'ctx.reply(`${ctx.t("x")} ${verdict.reason}`);',
      // what passes: translations, emoji-only labels, the language names
      'ctx.reply(ctx.t("hello"));',
      // biome-ignore lint/suspicious/noTemplateCurlyInString: source code as text
      'kb.text("◀️", "p").text(`${page}/${pages}`, "n");',
      'kb.text("🇬🇧 English", "en");',
      // a verdict's code as a locale key passes
      'ctx.reply(ctx.t("api-callback-refused", { reason: ctx.t(URL_REFUSED[verdict.code]) }));',
      "ctx.reply(ctx.t(REFUSED[issued.reason]));",
    ].join("\n");
    expect(userFacingLiterals([{ file: "src/bot/x.ts", text }])).toEqual([
      "src/bot/x.ts:1: order failed",
      "src/bot/x.ts:2: ✅ Markup #  product  ",
      "src/bot/x.ts:3: Back",
      "src/bot/x.ts:4: success",
      "src/bot/x.ts:5: err.message",
      "src/bot/x.ts:6: verdict.reason",
      "src/bot/x.ts:7: url.reason",
      "src/bot/x.ts:8: verdict.reason",
    ]);
  });
});
