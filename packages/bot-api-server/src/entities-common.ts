import type { MessageEntity, User } from "@grammyjs/types";

/** a parse-mode syntax error; reported as "Bad Request: can't parse entities: <message>" */
export class EntityParseError extends Error {
  override name = "EntityParseError";
}

export interface ParsedText {
  text: string;
  entities: MessageEntity[];
}

/** what parsers need from the outside: users for tg://user?id= links */
export interface EntityContext {
  user(id: number): User | undefined;
}

/** Telegram reports syntax errors at UTF-8 byte offsets of the source text */
export function byteOffset(text: string, index: number): number {
  return Buffer.byteLength(text.slice(0, index), "utf8");
}

const LINK_SCHEMES = new Set(["http:", "https:", "tg:", "ton:", "tonsite:"]);

/** like TDLib's check_link: a usable URL (scheme added when missing), or undefined to drop it */
function checkLink(url: string): string | undefined {
  const trimmed = url.trim();
  if (trimmed === "") return undefined;
  const withScheme = /^[a-z][a-z0-9+.-]*:/i.test(trimmed) ? trimmed : `http://${trimmed}`;
  let parsed: URL;
  try {
    parsed = new URL(withScheme);
  } catch {
    return undefined;
  }
  if (!LINK_SCHEMES.has(parsed.protocol)) return undefined;
  if (
    (parsed.protocol === "http:" || parsed.protocol === "https:") &&
    !parsed.hostname.includes(".")
  )
    return parsed.hostname === "localhost" ? parsed.href : undefined;
  // http(s) links come back normalized (lowercase host, "/" path), as Telegram returns them
  return parsed.protocol === "http:" || parsed.protocol === "https:" ? parsed.href : withScheme;
}

/** the user id of a tg://user?id=<id> link */
function linkUserId(url: string): number | undefined {
  const match = /^tg:(?:\/\/)?user\?id=(\d+)$/i.exec(url.trim());
  return match ? Number(match[1]) : undefined;
}

/** a text_link, or a text_mention for tg://user?id= of a known user; undefined drops it */
export function linkEntity(
  url: string,
  offset: number,
  length: number,
  ctx: EntityContext,
): MessageEntity | undefined {
  const userId = linkUserId(url);
  if (userId !== undefined) {
    const user = ctx.user(userId);
    return user ? { type: "text_mention", offset, length, user } : undefined;
  }
  const checked = checkLink(url);
  return checked === undefined ? undefined : { type: "text_link", offset, length, url: checked };
}

// TDLib's tie-break for entities over the same range (lower first)
const PRIORITY: Record<string, number> = {
  blockquote: 0,
  expandable_blockquote: 0,
  pre: 11,
  code: 20,
  text_link: 49,
  text_mention: 49,
  bold: 90,
  italic: 91,
  underline: 92,
  strikethrough: 93,
  spoiler: 94,
  custom_emoji: 99,
};
const priority = (e: MessageEntity) =>
  e.type === "pre" && "language" in e && e.language ? 10 : (PRIORITY[e.type] ?? 50);

/** Telegram's order: by offset, longer (outer) first, then by type priority */
export function sortEntities(entities: MessageEntity[]): MessageEntity[] {
  return [...entities].sort(
    (a, b) => a.offset - b.offset || b.length - a.length || priority(a) - priority(b),
  );
}
