import type { MessageEntity } from "@grammyjs/types";
import {
  byteOffset,
  type EntityContext,
  EntityParseError,
  linkEntity,
  type ParsedText,
  sortEntities,
} from "./entities-common.ts";

// ports of TDLib's parse_markdown_v2 and parse_markdown (legacy), error texts included

const isSpace = (c: string) =>
  c === "" || c === " " || c === "\t" || c === "\r" || c === "\n" || c === "\v" || c === "\f";
/** TDLib escapes any ASCII character 1..126 with a backslash */
const isEscapable = (c: string) => c !== "" && c.charCodeAt(0) > 0 && c.charCodeAt(0) <= 126;

const RESERVED = "_*[]()~`>#+-=|{}.!";

type V2Kind =
  | "Bold"
  | "Italic"
  | "Underline"
  | "Strikethrough"
  | "Spoiler"
  | "Code"
  | "Pre"
  | "PreCode"
  | "TextUrl"
  | "CustomEmoji";

interface OpenV2 {
  kind: V2Kind;
  argument: string;
  offset: number;
  byteStart: number;
}

const reservedError = (c: string) =>
  new EntityParseError(`Character '${c}' is reserved and must be escaped with the preceding '\\'`);

/** a ```language line: where the body starts and the language, if any */
function preStart(text: string, start: number): { next: number; language: string } {
  const at = (k: number) => (k < text.length ? text[k]! : "");
  let i = start;
  let language = "";
  let end = i;
  while (!isSpace(at(end)) && at(end) !== "`") end++;
  if (i !== end && end < text.length && at(end) !== "`") {
    language = text.slice(i, end);
    i = end;
  }
  // one leading newline belongs to the syntax, not the text
  if (at(i) === "\n" || at(i) === "\r") {
    if ((at(i + 1) === "\n" || at(i + 1) === "\r") && at(i) !== at(i + 1)) i += 2;
    else i++;
  }
  return { next: i, language };
}

export function parseMarkdownV2(text: string, ctx: EntityContext): ParsedText {
  const at = (k: number) => (k < text.length ? text[k]! : "");
  let result = "";
  const entities: MessageEntity[] = [];
  const open: OpenV2[] = [];
  // block quotes are line-based (">" at a line start), tracked apart from inline entities
  let quote: { offset: number; expandable: boolean } | undefined;

  const closeQuote = (end: number) => {
    if (quote && end > quote.offset)
      entities.push({
        type: quote.expandable ? "expandable_blockquote" : "blockquote",
        offset: quote.offset,
        length: end - quote.offset,
      });
    quote = undefined;
  };

  for (let i = 0; i < text.length; i++) {
    const inCode = open.length > 0 && ["Code", "Pre", "PreCode"].includes(open.at(-1)!.kind);
    const lineStart = i === 0 || text[i - 1] === "\n";
    if (lineStart && !inCode) {
      if (text.startsWith("**>", i) || at(i) === ">") {
        const expandable = text.startsWith("**>", i);
        if (!quote) quote = { offset: result.length, expandable };
        i += expandable ? 2 : 0;
        continue;
      }
      // the quote ends with the line before; its newline stays outside the entity
      if (quote) closeQuote(result.endsWith("\n") ? result.length - 1 : result.length);
    }
    // "||" ending an expandable quote's line is syntax, not a spoiler
    if (
      quote?.expandable &&
      text.startsWith("||", i) &&
      (i + 2 === text.length || at(i + 2) === "\n")
    ) {
      i++;
      continue;
    }

    const c = text[i]!;
    if (c === "\\" && isEscapable(at(i + 1))) {
      i++;
      result += text[i]!;
      continue;
    }
    const reserved = inCode ? "`" : RESERVED;
    if (!reserved.includes(c)) {
      result += c;
      continue;
    }

    const top = open.at(-1);
    let isEnd = false;
    if (top) {
      switch (top.kind) {
        case "Bold":
          isEnd = c === "*";
          break;
        case "Italic":
          isEnd = c === "_" && at(i + 1) !== "_";
          break;
        case "Code":
          isEnd = c === "`";
          break;
        case "Pre":
        case "PreCode":
          isEnd = c === "`" && at(i + 1) === "`" && at(i + 2) === "`";
          break;
        case "TextUrl":
        case "CustomEmoji":
          isEnd = c === "]";
          break;
        case "Underline":
          isEnd = c === "_" && at(i + 1) === "_";
          break;
        case "Strikethrough":
          isEnd = c === "~";
          break;
        case "Spoiler":
          isEnd = c === "|" && at(i + 1) === "|";
          break;
      }
    }

    if (!isEnd) {
      const byteStart = byteOffset(text, i);
      let kind: V2Kind;
      let argument = "";
      switch (c) {
        case "_":
          if (at(i + 1) === "_") {
            kind = "Underline";
            i++;
          } else {
            kind = "Italic";
          }
          break;
        case "*":
          kind = "Bold";
          break;
        case "~":
          kind = "Strikethrough";
          break;
        case "|":
          if (at(i + 1) !== "|") throw reservedError(c);
          i++;
          kind = "Spoiler";
          break;
        case "[":
          kind = "TextUrl";
          break;
        case "`":
          if (at(i + 1) === "`" && at(i + 2) === "`") {
            const start = preStart(text, i + 3);
            kind = start.language ? "PreCode" : "Pre";
            argument = start.language;
            i = start.next - 1;
          } else {
            kind = "Code";
          }
          break;
        case "!":
          if (at(i + 1) !== "[") throw reservedError(c);
          i++;
          kind = "CustomEmoji";
          break;
        default:
          throw reservedError(c);
      }
      open.push({ kind, argument, offset: result.length, byteStart });
      continue;
    }

    // the end of the innermost entity
    const entity = open.pop()!;
    let skip = result.length === entity.offset;
    let url = "";
    switch (entity.kind) {
      case "Underline":
      case "Spoiler":
        i++;
        break;
      case "Pre":
      case "PreCode":
        i += 2;
        break;
      case "TextUrl":
      case "CustomEmoji": {
        if (at(i + 1) !== "(") {
          url = result.slice(entity.offset);
        } else {
          i += 2;
          const urlBegin = i;
          while (i < text.length && text[i] !== ")") {
            if (text[i] === "\\" && isEscapable(at(i + 1))) {
              url += text[i + 1];
              i += 2;
              continue;
            }
            url += text[i];
            i++;
          }
          if (at(i) !== ")")
            throw new EntityParseError(
              `Can't find end of a URL at byte offset ${byteOffset(text, urlBegin)}`,
            );
        }
        break;
      }
      default:
        break;
    }
    if (skip) continue;
    const offset = entity.offset;
    const length = result.length - offset;
    switch (entity.kind) {
      case "Bold":
        entities.push({ type: "bold", offset, length });
        break;
      case "Italic":
        entities.push({ type: "italic", offset, length });
        break;
      case "Underline":
        entities.push({ type: "underline", offset, length });
        break;
      case "Strikethrough":
        entities.push({ type: "strikethrough", offset, length });
        break;
      case "Spoiler":
        entities.push({ type: "spoiler", offset, length });
        break;
      case "Code":
        entities.push({ type: "code", offset, length });
        break;
      case "Pre":
        entities.push({ type: "pre", offset, length });
        break;
      case "PreCode":
        entities.push({ type: "pre", offset, length, language: entity.argument });
        break;
      case "TextUrl": {
        const link = linkEntity(url, offset, length, ctx);
        if (link) entities.push(link);
        else skip = true;
        break;
      }
      case "CustomEmoji": {
        const id = /^tg:\/\/emoji\?id=(\d+)$/.exec(url)?.[1];
        if (!id) throw new EntityParseError("Custom emoji entity must contain a tg://emoji URL");
        entities.push({ type: "custom_emoji", offset, length, custom_emoji_id: id });
        break;
      }
    }
  }
  if (open.length > 0) {
    const top = open.at(-1)!;
    throw new EntityParseError(
      `Can't find end of ${top.kind} entity at byte offset ${top.byteStart}`,
    );
  }
  closeQuote(result.length);
  return { text: result, entities: sortEntities(entities) };
}

/** legacy Markdown: no nesting, escapes only _ * ` [ */
export function parseMarkdown(text: string, ctx: EntityContext): ParsedText {
  const at = (k: number) => (k < text.length ? text[k]! : "");
  let result = "";
  const entities: MessageEntity[] = [];

  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (c === "\\" && "_*`[".includes(at(i + 1)) && at(i + 1) !== "") {
      i++;
      result += text[i]!;
      continue;
    }
    if (c !== "_" && c !== "*" && c !== "`" && c !== "[") {
      result += c;
      continue;
    }

    const begin = i;
    const endChar = c === "[" ? "]" : c;
    let isPre = false;
    let language = "";
    i++;
    if (c === "`" && at(i) === "`" && at(i + 1) === "`") {
      isPre = true;
      const start = preStart(text, i + 2);
      language = start.language;
      i = start.next;
    }

    const offset = result.length;
    while (
      i < text.length &&
      (text[i] !== endChar || (isPre && !(at(i + 1) === "`" && at(i + 2) === "`")))
    ) {
      result += text[i];
      i++;
    }
    if (i >= text.length)
      throw new EntityParseError(
        `Can't find end of the entity starting at byte offset ${byteOffset(text, begin)}`,
      );

    const length = result.length - offset;
    if (length > 0) {
      switch (c) {
        case "_":
          entities.push({ type: "italic", offset, length });
          break;
        case "*":
          entities.push({ type: "bold", offset, length });
          break;
        case "[": {
          let url: string;
          if (at(i + 1) !== "(") {
            url = text.slice(begin + 1, i);
          } else {
            i += 2;
            url = "";
            while (i < text.length && text[i] !== ")") {
              url += text[i];
              i++;
            }
          }
          const link = linkEntity(url, offset, length, ctx);
          if (link) entities.push(link);
          break;
        }
        case "`":
          if (isPre)
            entities.push(
              language
                ? { type: "pre", offset, length, language }
                : { type: "pre", offset, length },
            );
          else entities.push({ type: "code", offset, length });
          break;
      }
    }
    if (isPre) i += 2;
  }
  return { text: result, entities: sortEntities(entities) };
}
