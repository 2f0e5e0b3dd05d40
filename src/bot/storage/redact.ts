import type { Update } from "grammy/types";
import { CB } from "../ui/callback-data.ts";

// what the update inbox keeps of an update (design rule: secrets at rest are sealed). The
// inbox keeps raw updates for two days (and every backup keeps them longer), so an update
// is passed through here before it is written; a handler later sees what was stored.
// Today one rule: a keypad press keeps no copy of the keypad. Telegram sends the pressed
// message with its buttons, whose labels are the keypad's shuffled digits; with them the
// positions in the stored presses would spell the PIN. The handler needs only the press.
// A later feature that takes a PIN inside a text (a center's command) adds its rule here,
// sealing that PIN (commerce/secrets/box.ts) before the text is stored.

/** the update as the inbox may store it */
export function redactForStorage(update: Update): Update {
  const query = update.callback_query;
  if (query?.data?.startsWith(`${CB.pinKey}:`) && query.message) {
    const { reply_markup: _keypad, ...message } = query.message;
    return { ...update, callback_query: { ...query, message } };
  }
  return update;
}
