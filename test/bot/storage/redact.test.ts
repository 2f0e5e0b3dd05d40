import type { Update } from "grammy/types";
import { describe, expect, it } from "vitest";
import { redactForStorage, registerTextPinBox } from "../../../src/bot/storage/redact.ts";
import { openTextPins, sealTextPins } from "../../../src/commerce/center/text-pins.ts";
import { createBox } from "../../../src/commerce/secrets/box.ts";

// the inbox's storage hook seals a text command's PIN (every 4–6 digit part of a dotted
// command), in a message, an edit and a quoted reply; with no box it removes it; a sealed
// token opens only for its own sender and message

const box = createBox("test secret", "kios chat secrets v1");
const BOT = 424242;
registerTextPinBox(BOT, box);

type PrivateMessage = NonNullable<Update["message"]>;

/** a private chat's text message, as Telegram sends it */
function message(text: string, id = 7, from = 55): PrivateMessage {
  return {
    message_id: id,
    date: 0,
    chat: { id: from, type: "private", first_name: "x" },
    from: { id: from, is_bot: false, first_name: "x" },
    text,
  } as PrivateMessage;
}

describe("redactForStorage and a text command's PIN", () => {
  it("seals the PIN of a message, an edit and a quoted reply; leaves other texts alone", () => {
    const typed = "TSEL10.081234567901.739184 R#A1";
    const m = redactForStorage({ update_id: 1, message: message(typed) }, BOT).message!;
    expect(m.text).toMatch(/^TSEL10\.081234567901\.\[pin:v1:[^\]]+\] R#A1$/);
    expect(openTextPins(m.text!, box, { userId: 55, messageId: 7 })).toBe(typed);
    const edit = redactForStorage(
      { update_id: 2, edited_message: { ...message("GP.1234.567890"), edit_date: 1 } },
      BOT,
    );
    expect(JSON.stringify(edit)).not.toMatch(/1234|567890/);
    const reply = {
      update_id: 3,
      message: { ...message("ok", 9), reply_to_message: message("S.739184", 8) },
    } as Update;
    expect(JSON.stringify(redactForStorage(reply, BOT))).not.toContain("739184");
    for (const text of ["halo 739184", "081234567901", "TSEL10.081234567901", "/start p_X_1234"]) {
      expect(redactForStorage({ update_id: 4, message: message(text) }, BOT).message?.text).toBe(
        text,
      );
    }
  });

  it("a reply to the bot's message keeps the quoted message's ids only (its text, buttons, quote go)", () => {
    const secret = "pw-Zq8v1Xc";
    const bots: PrivateMessage = {
      message_id: 20,
      date: 5,
      chat: { id: 55, type: "private", first_name: "x" },
      from: { id: BOT, is_bot: true, first_name: "kios" },
      text: `Akses pusat kamu\npassword: ${secret}`,
      entities: [{ type: "code", offset: 27, length: secret.length }],
      reply_markup: { inline_keyboard: [[{ text: "📋 password", copy_text: { text: secret } }]] },
    } as PrivateMessage;
    const reply = {
      update_id: 6,
      message: {
        ...message("ini apa?", 21),
        reply_to_message: bots,
        quote: { text: secret, position: 27 },
      },
    } as Update;
    const stored = redactForStorage(reply, BOT).message!;
    expect(stored.reply_to_message).toEqual({
      message_id: 20,
      date: 5,
      chat: bots.chat,
      from: bots.from,
    });
    expect(stored.text).toBe("ini apa?");
    expect(JSON.stringify(stored)).not.toContain(secret);
    // a photo's caption the same
    const captioned = redactForStorage(
      {
        update_id: 7,
        message: {
          ...message("ok", 22),
          reply_to_message: { ...bots, text: undefined, caption: secret },
        },
      } as Update,
      BOT,
    );
    expect(JSON.stringify(captioned)).not.toContain(secret);
    // an edit of such a reply too
    const edited = redactForStorage(
      { update_id: 8, edited_message: { ...reply.message!, edit_date: 9 } } as Update,
      BOT,
    );
    expect(JSON.stringify(edited)).not.toContain(secret);
  });

  it("without a box the PIN is removed, and can't be read back", () => {
    const m = redactForStorage({ update_id: 5, message: message("S.739184") }, 1).message!;
    expect(m.text).toBe("S.[pin:-]");
    expect(openTextPins(m.text!, box, { userId: 55, messageId: 7 })).toBeUndefined();
  });

  it("a sealed token is worth nothing in another message or from another sender", () => {
    const sealed = sealTextPins("S.739184", box, { userId: 55, messageId: 7 });
    expect(openTextPins(sealed, box, { userId: 55, messageId: 8 })).toBeUndefined();
    expect(openTextPins(sealed, box, { userId: 56, messageId: 7 })).toBeUndefined();
    const other = createBox("another secret", "kios chat secrets v1");
    expect(openTextPins(sealed, other, { userId: 55, messageId: 7 })).toBeUndefined();
  });
});
