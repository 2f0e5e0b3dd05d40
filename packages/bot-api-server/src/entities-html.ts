import type { MessageEntity } from "@grammyjs/types";
import {
  byteOffset,
  type EntityContext,
  EntityParseError,
  linkEntity,
  type ParsedText,
  sortEntities,
} from "./entities-common.ts";

// a port of TDLib's parse_html (what the Bot API runs for parse_mode HTML), error texts included

const SUPPORTED_TAGS = new Set([
  "a",
  "b",
  "strong",
  "i",
  "em",
  "s",
  "strike",
  "del",
  "u",
  "ins",
  "tg-spoiler",
  "tg-emoji",
  "span",
  "pre",
  "code",
  "blockquote",
]);

// TDLib reads a NUL-terminated string: "" stands for the terminator and counts as space
const isSpace = (c: string) =>
  c === "" || c === " " || c === "\t" || c === "\r" || c === "\n" || c === "\v" || c === "\f";
const isAlnum = (c: string) => /^[A-Za-z0-9]$/.test(c);

interface OpenTag {
  tag: string;
  argument: string;
  expandable: boolean;
  offset: number;
}

/** a named or numeric character reference at `pos`: the character and where parsing resumes */
function decodeHtmlEntity(text: string, pos: number): { value: string; next: number } | undefined {
  if (text[pos] !== "&") return undefined;
  let end = pos + 1;
  let code = 0;
  if (text[end] === "#") {
    end++;
    const hex = text[end] === "x";
    if (hex) end++;
    const digit = hex ? /^[0-9a-fA-F]$/ : /^[0-9]$/;
    while (end < text.length && digit.test(text[end]!)) {
      code = code * (hex ? 16 : 10) + Number.parseInt(text[end]!, 16);
      end++;
      if (code >= 0x10ffff) return undefined;
    }
    if (code === 0 || (code >= 0xd800 && code <= 0xdfff)) return undefined;
  } else {
    while (end < text.length && /^[A-Za-z]$/.test(text[end]!)) end++;
    const name = text.slice(pos + 1, end);
    const named: Record<string, number> = { lt: 60, gt: 62, amp: 38, quot: 34 };
    const value = named[name];
    if (value === undefined) return undefined;
    code = value;
  }
  // the semicolon is optional, as in TDLib
  const next = text[end] === ";" ? end + 1 : end;
  return { value: String.fromCodePoint(code), next };
}

export function parseHtml(text: string, ctx: EntityContext): ParsedText {
  const at = (i: number) => (i < text.length ? text[i]! : "");
  const fail = (message: string): never => {
    throw new EntityParseError(message);
  };
  let result = "";
  const entities: MessageEntity[] = [];
  // TDLib merges <pre><code class="language-x"> into one pre entity; it tracks code's language
  const codeLanguage = new Map<MessageEntity, string>();
  const open: OpenTag[] = [];

  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (c === "&") {
      const decoded = decodeHtmlEntity(text, i);
      if (decoded) {
        result += decoded.value;
        i = decoded.next - 1;
        continue;
      }
    }
    if (c !== "<") {
      result += c;
      continue;
    }

    const begin = i;
    i++;
    if (at(i) !== "/") {
      while (!isSpace(at(i)) && at(i) !== ">") i++;
      if (at(i) === "") fail(`Unclosed start tag at byte offset ${byteOffset(text, begin)}`);
      const tag = text.slice(begin + 1, i).toLowerCase();
      if (!SUPPORTED_TAGS.has(tag))
        fail(`Unsupported start tag "${tag}" at byte offset ${byteOffset(text, begin)}`);

      let argument = "";
      let expandable = false;
      while (at(i) !== ">") {
        while (at(i) !== "" && isSpace(at(i))) i++;
        if (at(i) === ">") break;
        const nameBegin = i;
        while (!isSpace(at(i)) && at(i) !== "=" && at(i) !== ">") i++;
        const attribute = text.slice(nameBegin, i).toLowerCase();
        if (attribute === "")
          fail(
            `Empty attribute name in the tag "${tag}" at byte offset ${byteOffset(text, begin)}`,
          );
        while (at(i) !== "" && isSpace(at(i))) i++;
        if (at(i) !== "=") {
          if (tag === "blockquote" && attribute === "expandable") {
            expandable = true;
            continue;
          }
          fail(
            `Expected equal sign in declaration of an attribute of the tag "${tag}" at byte offset ${byteOffset(text, begin)}`,
          );
        }
        i++;
        while (at(i) !== "" && isSpace(at(i))) i++;
        if (at(i) === "")
          fail(`Unclosed start tag "${tag}" at byte offset ${byteOffset(text, begin)}`);

        let value = "";
        if (at(i) !== "'" && at(i) !== '"') {
          // an unquoted name token: letters, digits, periods and hyphens
          const tokenBegin = i;
          while (isAlnum(at(i)) || at(i) === "." || at(i) === "-") i++;
          value = text.slice(tokenBegin, i).toLowerCase();
          if (!isSpace(at(i)) && at(i) !== ">")
            fail(`Unexpected end of name token at byte offset ${byteOffset(text, tokenBegin)}`);
        } else {
          const quote = at(i);
          i++;
          while (at(i) !== quote && at(i) !== "") {
            if (at(i) === "&") {
              const decoded = decodeHtmlEntity(text, i);
              if (decoded) {
                value += decoded.value;
                i = decoded.next;
                continue;
              }
            }
            value += at(i);
            i++;
          }
          if (at(i) === quote) i++;
        }
        if (at(i) === "") fail(`Unclosed start tag at byte offset ${byteOffset(text, begin)}`);

        if (tag === "a" && attribute === "href") argument = value;
        else if (tag === "code" && attribute === "class" && value.startsWith("language-"))
          argument = value.slice("language-".length);
        else if (tag === "span" && attribute === "class" && value.startsWith("tg-"))
          argument = value.slice("tg-".length);
        else if (tag === "tg-emoji" && attribute === "emoji-id") argument = value;
        else if (tag === "blockquote" && attribute === "expandable") expandable = true;
      }

      if (tag === "span" && argument !== "spoiler")
        fail(`Tag "span" must have class "tg-spoiler" at byte offset ${byteOffset(text, begin)}`);
      open.push({ tag, argument, expandable, offset: result.length });
      continue;
    }

    // an end tag
    if (open.length === 0) fail(`Unexpected end tag at byte offset ${byteOffset(text, begin)}`);
    while (!isSpace(at(i)) && at(i) !== ">") i++;
    const endTag = text.slice(begin + 2, i).toLowerCase();
    while (isSpace(at(i)) && at(i) !== "") i++;
    if (at(i) !== ">") fail(`Unclosed end tag at byte offset ${byteOffset(text, begin)}`);
    const top = open.pop()!;
    if (endTag !== "" && endTag !== top.tag)
      fail(
        `Unmatched end tag at byte offset ${byteOffset(text, begin)}, expected "</${top.tag}>", found "</${endTag}>"`,
      );
    const offset = top.offset;
    const length = result.length - offset;
    if (length <= 0) continue;
    const last = entities.at(-1);
    const sameRange = last !== undefined && last.offset === offset && last.length === length;
    switch (top.tag) {
      case "b":
      case "strong":
        entities.push({ type: "bold", offset, length });
        break;
      case "i":
      case "em":
        entities.push({ type: "italic", offset, length });
        break;
      case "u":
      case "ins":
        entities.push({ type: "underline", offset, length });
        break;
      case "s":
      case "strike":
      case "del":
        entities.push({ type: "strikethrough", offset, length });
        break;
      case "tg-spoiler":
      case "span":
        entities.push({ type: "spoiler", offset, length });
        break;
      case "blockquote":
        entities.push({
          type: top.expandable ? "expandable_blockquote" : "blockquote",
          offset,
          length,
        });
        break;
      case "tg-emoji": {
        if (!/^\d+$/.test(top.argument)) fail("Invalid custom emoji identifier specified");
        entities.push({ type: "custom_emoji", offset, length, custom_emoji_id: top.argument });
        break;
      }
      case "a": {
        const url = top.argument === "" ? result.slice(offset) : top.argument;
        const entity = linkEntity(url, offset, length, ctx);
        if (entity) entities.push(entity);
        break;
      }
      case "pre": {
        const language = last ? codeLanguage.get(last) : undefined;
        if (sameRange && last.type === "code" && language) {
          entities[entities.length - 1] = { type: "pre", offset, length, language };
        } else {
          entities.push({ type: "pre", offset, length });
        }
        break;
      }
      case "code": {
        if (sameRange && last.type === "pre" && top.argument !== "") {
          entities[entities.length - 1] = { type: "pre", offset, length, language: top.argument };
        } else {
          const entity: MessageEntity = { type: "code", offset, length };
          if (top.argument !== "") codeLanguage.set(entity, top.argument);
          entities.push(entity);
        }
        break;
      }
    }
  }
  if (open.length > 0) fail(`Can't find end tag corresponding to start tag "${open.at(-1)!.tag}"`);
  return { text: result, entities: sortEntities(entities) };
}
