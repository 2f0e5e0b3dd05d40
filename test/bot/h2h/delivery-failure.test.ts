import { describe, expect, it } from "vitest";
import { deliveryFailureText } from "../../../src/bot/api-keys/delivery-failure.ts";
import { createI18n, translator } from "../../../src/bot/ui/i18n.ts";

// a failed callback's diagnostic as /api shows it: stored in the log's English by the
// delivery (src/commerce/h2h/deliver.ts, callbacks.ts), read in the reader's language (#38)

const missing: string[] = [];
const i18n = createI18n({ onMissing: (key, locale) => missing.push(`${locale}:${key}`) });
const id = translator(i18n, "id");
const en = translator(i18n, "en");

describe("a failed delivery, in words", () => {
  it.each([
    ["HTTP 502", "server menjawab HTTP 502", "the server answered HTTP 502"],
    [
      "HTTP 302 (redirects are not followed)",
      "server menjawab HTTP 302 (pengalihan tidak diikuti)",
      "the server answered HTTP 302 (redirects are not followed)",
    ],
    ["the answer broke off", "jawaban server terputus", "the server's answer broke off"],
    [
      "no complete answer within 5 s (TIMEOUT)",
      "tidak ada jawaban lengkap dalam 5 detik",
      "no complete answer within 5 s",
    ],
    [
      "could not connect (ECONNREFUSED)",
      "tidak bisa tersambung (ECONNREFUSED)",
      "could not connect (ECONNREFUSED)",
    ],
    [
      "the host resolves to a private, loopback or link-local address",
      "alamat server mengarah ke jaringan privat atau lokal",
      "the server's address is in private or local space",
    ],
    ["no callback URL is set", "belum ada URL callback", "no callback URL is set"],
  ])("%s", (stored, inIndonesian, inEnglish) => {
    expect(deliveryFailureText(id, stored)).toBe(inIndonesian);
    expect(deliveryFailureText(en, stored)).toBe(inEnglish);
  });

  it("a refused URL points to where it is set again", () => {
    expect(deliveryFailureText(id, "callback URL refused: must be https")).toMatch(
      /^URL callback ditolak aturan.*\/api callback$/,
    );
  });

  it("a form it doesn't know is shown as stored, and no key is missing", () => {
    expect(deliveryFailureText(id, "something new")).toBe("something new");
    expect(missing).toEqual([]);
  });
});
