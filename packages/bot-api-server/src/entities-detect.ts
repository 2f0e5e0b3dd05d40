import type { MessageEntity } from "@grammyjs/types";
import { sortEntities } from "./entities-common.ts";

// Telegram finds commands, mentions, hashtags, URLs and e-mails in any text by itself.
// a reduced set of its rules: URLs only with an explicit http(s) scheme.

const DETECTORS: { type: "url" | "email" | "bot_command" | "mention" | "hashtag"; re: RegExp }[] = [
  { type: "url", re: /https?:\/\/[^\s<>"']+/giu },
  { type: "email", re: /(?<![\w.+-])[\w.+-]+@[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*\.[A-Za-z]{2,}/gu },
  {
    type: "bot_command",
    re: /(?<![\w/@])\/[A-Za-z0-9_]{1,64}(?:@[A-Za-z][A-Za-z0-9_]{2,31})?(?![\w/@])/gu,
  },
  { type: "mention", re: /(?<![\w@])@[A-Za-z][A-Za-z0-9_]{3,31}(?![\w@])/gu },
  { type: "hashtag", re: /(?<![\w#])#[\p{L}\p{N}_]*[\p{L}_][\p{L}\p{N}_]*/gu },
];

// detection doesn't happen inside these
const OPAQUE = new Set(["code", "pre", "text_link", "text_mention", "custom_emoji"]);

/** adds auto-detected entities to `entities`, skipping code, pre and links */
export function detectEntities(text: string, entities: MessageEntity[]): MessageEntity[] {
  const taken: [number, number][] = entities
    .filter((e) => OPAQUE.has(e.type) || e.type === "url" || e.type === "bot_command")
    .map((e) => [e.offset, e.offset + e.length]);
  const overlaps = (start: number, end: number) => taken.some(([s, e]) => start < e && s < end);
  const found: MessageEntity[] = [];
  for (const { type, re } of DETECTORS) {
    for (const match of text.matchAll(re)) {
      let value = match[0];
      // trailing punctuation ends a sentence, not the URL
      if (type === "url") value = value.replace(/[.,;:!?)\]}]+$/u, "");
      const start = match.index;
      const end = start + value.length;
      if (value.length === 0 || overlaps(start, end)) continue;
      taken.push([start, end]);
      found.push({ type, offset: start, length: value.length });
    }
  }
  return sortEntities([...entities, ...found]);
}
