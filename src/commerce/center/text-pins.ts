import type { SecretBox } from "../secrets/box.ts";

// a PIN typed inside a center text command never rests in clear (design rule 20): before the
// update inbox writes the text, every 4–6 digit part of a dotted command is replaced by a
// token sealed under a key of the server's, bound to the sender and the message, and the
// handler opens the tokens again. Sealing every such part (not only the one the grammar
// calls the PIN) needs no grammar and no aliases at storage time: an owner's alias of GP
// still has both PINs sealed; a destination of 4–6 digits is sealed too and read back.

const SEGMENT_PIN = /^\d{4,6}$/;
const TOKEN = /\[pin:([A-Za-z0-9:_-]+)\]/g;
/** the dotted shape of a center command: WORD.x[.y…][ R#ref], comma-separated */
const PART = /^[A-Za-z0-9_-]{1,32}(?:\.[^\s.,]+)+(?:\s+R#\S+)?$/i;

export interface PinBinding {
  userId: number;
  messageId: number;
}

function looksLikeCommand(text: string): boolean {
  return text
    .trim()
    .split(",")
    .every((p) => PART.test(p.trim()));
}

/** the text with its PIN-like parts sealed (a box), or removed (none: they can't be read back) */
export function sealTextPins(text: string, box: SecretBox | undefined, bound: PinBinding): string {
  if (!looksLikeCommand(text)) return text;
  return text.replace(/([.])(\d+)(?=$|[.,\s])/g, (whole, dot: string, digits: string) => {
    if (!SEGMENT_PIN.test(digits)) return whole;
    const sealed = box ? box.seal(`${bound.userId}:${bound.messageId}:${digits}`) : "-";
    return `${dot}[pin:${sealed}]`;
  });
}

/** true when the text carries a sealed (or removed) PIN */
export function hasSealedPins(text: string): boolean {
  return /\[pin:/.test(text);
}

/**
 * the text with its sealed parts opened; undefined when one can't be (removed, sealed under
 * another key, or sealed for another sender or message: a token copied from a backup is
 * worth nothing in another message)
 */
export function openTextPins(text: string, box: SecretBox, bound: PinBinding): string | undefined {
  let failed = false;
  const opened = text.replace(TOKEN, (_whole, sealed: string) => {
    try {
      const [user, message, digits] = box.open(sealed).split(":");
      if (Number(user) === bound.userId && Number(message) === bound.messageId && digits) {
        return digits;
      }
    } catch {
      // unreadable: below
    }
    failed = true;
    return "";
  });
  return failed ? undefined : opened;
}
