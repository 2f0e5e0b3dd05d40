import type { MessageEntity } from "@grammyjs/types";
import {
  type EntityContext,
  EntityParseError,
  type ParsedText,
  sortEntities,
} from "./entities-common.ts";
import { detectEntities } from "./entities-detect.ts";
import { parseHtml } from "./entities-html.ts";
import { parseMarkdown, parseMarkdownV2 } from "./entities-markdown.ts";
import { badRequest } from "./errors.ts";

const TEXT_LIMIT = 4096;
const CAPTION_LIMIT = 1024;

export interface FormatRequest {
  text: string | undefined;
  parseMode: string | undefined;
  /** the raw `entities`/`caption_entities` parameter, already JSON-decoded */
  entities: unknown;
}

export interface FormatRules {
  limit: number;
  /** captions may be empty; message texts may not */
  allowEmpty: boolean;
  tooLong: string;
}

export const MESSAGE_TEXT: FormatRules = {
  limit: TEXT_LIMIT,
  allowEmpty: false,
  tooLong: "message is too long",
};
export const CAPTION: FormatRules = {
  limit: CAPTION_LIMIT,
  allowEmpty: true,
  tooLong: "message caption is too long",
};

const ENTITY_TYPES = new Set([
  "mention",
  "hashtag",
  "cashtag",
  "bot_command",
  "url",
  "email",
  "phone_number",
  "bold",
  "italic",
  "underline",
  "strikethrough",
  "spoiler",
  "blockquote",
  "expandable_blockquote",
  "code",
  "pre",
  "text_link",
  "text_mention",
  "custom_emoji",
  "date_time",
]);

function explicitEntities(value: unknown): MessageEntity[] {
  if (value === undefined) return [];
  if (!Array.isArray(value)) throw badRequest("can't parse entities JSON object");
  return value.map((item: unknown) => {
    const fail = (why: string) => badRequest(`can't parse MessageEntity: ${why}`);
    if (item === null || typeof item !== "object") throw fail("object expected");
    const e = item as Record<string, unknown>;
    if (typeof e.type !== "string") throw fail('Field "type" must be of type String');
    if (!ENTITY_TYPES.has(e.type)) throw fail("Unsupported type specified");
    if (!Number.isSafeInteger(e.offset) || (e.offset as number) < 0)
      throw fail('Field "offset" must be a valid Number');
    if (!Number.isSafeInteger(e.length) || (e.length as number) < 0)
      throw fail('Field "length" must be a valid Number');
    if (e.type === "text_link" && typeof e.url !== "string")
      throw fail('Field "url" must be of type String');
    if (e.type === "text_mention" && (typeof e.user !== "object" || e.user === null))
      throw fail('Field "user" must be of type Object');
    if (e.type === "custom_emoji" && typeof e.custom_emoji_id !== "string")
      throw fail('Field "custom_emoji_id" must be of type String');
    // the shape is checked field by field above
    return { ...e } as unknown as MessageEntity;
  });
}

function parse(text: string, parseMode: string | undefined, ctx: EntityContext): ParsedText {
  const mode = (parseMode ?? "").toLowerCase();
  try {
    if (mode === "html") return parseHtml(text, ctx);
    if (mode === "markdownv2") return parseMarkdownV2(text, ctx);
    if (mode === "markdown") return parseMarkdown(text, ctx);
  } catch (err) {
    if (err instanceof EntityParseError) throw badRequest(`can't parse entities: ${err.message}`);
    throw err;
  }
  if (mode !== "") throw badRequest("unsupported parse_mode");
  return { text, entities: [] };
}

/** entities clipped to the text, empty ones dropped */
function clip(entities: MessageEntity[], start: number, end: number): MessageEntity[] {
  const out: MessageEntity[] = [];
  for (const e of entities) {
    const from = Math.max(e.offset, start);
    const to = Math.min(e.offset + e.length, end);
    if (to > from) out.push({ ...e, offset: from - start, length: to - from });
  }
  return out;
}

/**
 * turns a text with parse_mode or explicit entities into the stored text and entities:
 * parsed, trimmed of surrounding whitespace like Telegram does, length-checked, and with
 * commands, mentions, hashtags, URLs and e-mails detected.
 */
export function formatText(req: FormatRequest, rules: FormatRules, ctx: EntityContext): ParsedText {
  const source = req.text ?? "";
  const parsed =
    req.parseMode !== undefined && req.parseMode !== ""
      ? parse(source, req.parseMode, ctx)
      : { text: source, entities: explicitEntities(req.entities) };

  const leading = parsed.text.length - parsed.text.trimStart().length;
  const text = parsed.text.trim();
  const entities = clip(parsed.entities, leading, leading + text.length);

  if (text.length === 0 && !rules.allowEmpty) throw badRequest("message text is empty");
  // Telegram counts characters (code points), not UTF-16 units or bytes
  if ([...text].length > rules.limit) throw badRequest(rules.tooLong);
  return { text, entities: sortEntities(detectEntities(text, entities)) };
}
