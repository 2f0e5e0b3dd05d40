import type { Update } from "grammy/types";
import { describe, expect, it } from "vitest";
import { storableUpdate } from "../../../src/bot/storage/storable.ts";

// what jsonb cannot hold (a NUL, a lone UTF-16 surrogate) becomes U+FFFD, wherever it is;
// everything else is stored as it came

function text(value: string): Update {
  return {
    update_id: 1,
    message: {
      message_id: 1,
      date: 0,
      chat: { id: 5, type: "private", first_name: "x" },
      from: { id: 5, is_bot: false, first_name: "x" },
      text: value,
    },
  } as Update;
}

describe("storableUpdate", () => {
  it("replaces each NUL and each lone surrogate, in any string and any key", () => {
    expect(storableUpdate(text("a\u0000\u0000b")).message?.text).toBe("a\uFFFD\uFFFDb");
    expect(storableUpdate(text("\ud800x\udfff")).message?.text).toBe("\uFFFDx\uFFFD");
    expect(storableUpdate(text("x\udbff")).message?.text).toBe("x\uFFFD");
    const deep = storableUpdate({
      ...text("ok"),
      extra: { "k\u0000": ["v\u0000", { n: 1, s: "\udc00" }] },
    } as Update) as unknown as { extra: Record<string, unknown> };
    expect(deep.extra).toEqual({ "k\uFFFD": ["v\uFFFD", { n: 1, s: "\uFFFD" }] });
    expect(JSON.stringify(deep)).not.toMatch(/\\u0000|\\ud[89a-f]/i);
  });

  it("keeps paired surrogates (emoji), other text and a typed backslash-u as they are", () => {
    for (const value of ["😀 Rp10.000 ✓", "\\u0000 typed", "\\ud800 typed", "", "a\nb\tc\u0001"]) {
      expect(storableUpdate(text(value)).message?.text).toBe(value);
    }
    const plain = text("halo");
    expect(storableUpdate(plain)).toBe(plain);
  });
});
