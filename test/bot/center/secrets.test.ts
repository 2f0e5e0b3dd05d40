import { eq } from "drizzle-orm";
import type { Update } from "grammy/types";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { setTier } from "../../../src/commerce/users.ts";
import { setFirstPin } from "../../../src/commerce/wallet/pin.ts";
import { telegramUpdates } from "../../../src/db/schema.ts";
import { type BotHarness, startBotHarness } from "../../helpers/bot.ts";
import { asWord, findInDatabase } from "../../helpers/secrets.ts";

// no PIN typed in a text command rests in clear: the update inbox (kept two days, and in
// every backup) stores the command with its PIN sealed; a search of every text and JSON
// column of every table, and of the logs, finds no digit sequence of it

describe("a text command's PIN at rest", () => {
  let h: BotHarness;
  beforeAll(async () => {
    h = await startBotHarness();
  });
  afterAll(() => h?.stop());

  it("is found nowhere: not in any column, the stored updates or the logs", async () => {
    const u = 8851;
    const pin = "739184";
    const next = "640295";
    h.user(u);
    await setTier(h.db, u, "reseller");
    await h.fund(u, 100_000);
    await setFirstPin(h.db, u, pin);
    let at = h.say(u, `TSEL10.081234567901.${pin} R#S1`);
    await h.waitMessage(u, /^R#S1 .* SUKSES/, at);
    at = h.say(u, `S.${pin}`);
    await h.waitMessage(u, /^Saldo /, at);
    // a wrong one, a multi order, and a change of PIN (both PINs in one text)
    at = h.say(u, `S.${pin.slice(0, 5)}0`);
    await h.waitMessage(u, /PIN salah/, at);
    at = h.say(u, `TSEL10.081234560901,TSEL10.2.081234567901.${pin}`);
    await h.waitMessage(u, /081234560901 SUKSES/, at);
    at = h.say(u, `GP.${pin}.${next}`);
    await h.waitMessage(u, /PIN diganti/, at);
    await h.pump();

    const stored = await h.db
      .select({ payload: telegramUpdates.payload })
      .from(telegramUpdates)
      .where(eq(telegramUpdates.userId, u));
    // the commands were stored (with their PIN sealed), and handled from what was stored
    const texts = stored.map((r) => (r.payload as Update).message?.text ?? "");
    expect(texts).toContainEqual(
      expect.stringMatching(/^TSEL10\.081234567901\.\[pin:v1:\S+\] R#S1$/),
    );
    expect(texts).toContainEqual(expect.stringMatching(/^GP\.\[pin:v1:\S+\]\.\[pin:v1:\S+\]$/));

    // as words of their own: the digits turn up by chance inside the run's long ids
    for (const secret of [pin, next, pin.slice(0, 5)]) {
      expect(await findInDatabase(h.db, secret, { word: true })).toEqual([]);
      expect(h.logs()).not.toMatch(asWord(secret));
    }
    // every message that carried a PIN is gone from the chat
    await vi.waitFor(() =>
      expect(h.chat(u).messages.filter((m) => m.sender === "user" && !m.deleted)).toEqual([]),
    );
  });
});
