import type { Update } from "grammy/types";
import { storableText } from "../../db/storable-text.ts";

// PostgreSQL's jsonb holds no NUL character and no lone UTF-16 surrogate: one such string in
// an update makes its whole store fail. Nothing promises Telegram never sends one (a
// modified client chooses its callback data, and its text), and such an update would fail
// its delivery for ever: the webhook's 500 brings it again and again, and the poller, which
// moves past a batch only once it is stored, would stop every chat of the shop behind it.

// JSON.stringify writes a NUL as \u0000 and a lone surrogate as \udXXX; a paired one it
// writes as itself. A typed backslash matches too: then the slow path finds nothing to change.
const UNSTORABLE_ESCAPE = /\\u0000|\\ud[89a-f]/i;

/**
 * the update as it can be stored: each NUL and each lone surrogate in a string (or a key)
 * replaced by U+FFFD. Any other update is returned as it is, the same object.
 */
export function storableUpdate(update: Update): Update {
  const json = JSON.stringify(update);
  if (!UNSTORABLE_ESCAPE.test(json)) return update;
  return JSON.parse(json, (_key, value: unknown) => {
    if (typeof value === "string") return storableText(value);
    if (value === null || typeof value !== "object" || Array.isArray(value)) return value;
    // a key with NUL: rebuilt (the reviver cannot rename a key)
    const keys = Object.keys(value);
    if (keys.every((k) => storableText(k) === k)) return value;
    return Object.fromEntries(
      keys.map((k) => [storableText(k), (value as Record<string, unknown>)[k]]),
    );
  }) as Update;
}
