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
