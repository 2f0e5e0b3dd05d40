import type { Message, Update } from "grammy/types";
import { sealTextPins } from "../../commerce/center/text-pins.ts";
import type { SecretBox } from "../../commerce/secrets/box.ts";
import { CB } from "../ui/callback-data.ts";

// what the update inbox keeps of an update (design rule 20: secrets at rest are sealed). The
// inbox keeps raw updates for two days (and every backup keeps them longer), so an update
// is passed through here before it is written; a handler later sees what was stored.
// Three rules:
// - a keypad press keeps no copy of the keypad. Telegram sends the pressed message with its
//   buttons, whose labels are the keypad's shuffled digits; with them the positions in the
//   stored presses would spell the PIN. The handler needs only the press.
// - a center text command (TSEL10.0812….1234) keeps its PIN sealed (commerce/center/
//   text-pins.ts), in the message, an edit of it, and a reply quoting it. The box is the
//   chat's own (ui/pin-pad.ts), registered per bot by createBot, the one step every process
//   that stores updates (web or worker) runs: the inbox's callers stay as they are. With no
//   box registered the PIN is removed instead, and the command is refused as unreadable.
// - a reply to one of the bot's messages keeps only the quoted message's ids (idsOnly): the
//   bot's messages may show secrets, and Telegram sends the quoted one whole.

const boxes = new Map<number, SecretBox>();

/** the box the PINs in this bot's stored texts are sealed with (createBot calls it) */
export function registerTextPinBox(botId: number, box: SecretBox): void {
  boxes.set(botId, box);
}

/**
 * a quoted message of a bot's (this bot's own, in a private chat) with its ids alone: Telegram
 * sends the whole message a reply quotes, and the bot's messages may show secrets (center
 * credentials, an H2H key: their text and their copy buttons). No handler reads a reply's
 * quoted content, so none of it is stored
 */
function idsOnly(quoted: NonNullable<Message["reply_to_message"]>): typeof quoted {
  const { message_id, date, chat, from, sender_chat, message_thread_id } = quoted;
  return {
    message_id,
    date,
    chat,
    ...(from ? { from } : {}),
    ...(sender_chat ? { sender_chat } : {}),
    ...(message_thread_id === undefined ? {} : { message_thread_id }),
  } as typeof quoted;
}

function sealedMessage<M extends Message>(message: M, box: SecretBox | undefined): M {
  let out = message;
  if (typeof message.text === "string" && message.from) {
    const text = sealTextPins(message.text, box, {
      userId: message.from.id,
      messageId: message.message_id,
    });
    if (text !== message.text) out = { ...out, text };
  }
  const quoted = message.reply_to_message;
  if (quoted?.from?.is_bot) {
    // the part of it the user picked to quote goes with it
    const { quote: _quote, ...rest } = out;
    out = { ...rest, reply_to_message: idsOnly(quoted) } as M;
  } else if (quoted) {
    const sealed = sealedMessage(quoted, box);
    if (sealed !== quoted) out = { ...out, reply_to_message: sealed };
  }
  return out;
}

/**
 * the update as the inbox may store it. The bot id is required: it names the box the PINs
 * are sealed with, and a store without it would remove them (the command then refused as
 * unreadable), as the webhook's store-and-claim once did
 */
export function redactForStorage(update: Update, botId: number): Update {
  const query = update.callback_query;
  if (query?.data?.startsWith(`${CB.pinKey}:`) && query.message) {
    const { reply_markup: _keypad, ...message } = query.message;
    return { ...update, callback_query: { ...query, message } };
  }
  const box = boxes.get(botId);
  if (update.message) {
    const message = sealedMessage(update.message, box);
    if (message !== update.message) return { ...update, message };
  }
  if (update.edited_message) {
    const edited = sealedMessage(update.edited_message, box);
    if (edited !== update.edited_message) return { ...update, edited_message: edited };
  }
  return update;
}
