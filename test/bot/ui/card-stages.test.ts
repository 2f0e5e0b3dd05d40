import type { Api } from "grammy";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Card, STAGE, showCard } from "../../../src/bot/ui/cards.ts";
import { createTestDatabase, type TestDatabase, testDriver } from "../../helpers/db.ts";

// the stage guard of a purchase card, against a fake Bot API that records edits

function fakeApi(failFirst = 0) {
  const edits: string[] = [];
  let failures = failFirst;
  const api = {
    async editMessageText(_chat: number, _id: number, text: string) {
      if (failures > 0) {
        failures -= 1;
        throw new Error("network down");
      }
      edits.push(text.split("\n")[0]!);
      return true;
    },
  } as unknown as Api;
  return { api, edits };
}

describe(`a card's stages (${testDriver})`, () => {
  let t: TestDatabase;
  beforeAll(async () => {
    t = await createTestDatabase();
  });
  afterAll(() => t.destroy());

  const card = (messageId: number, stage: number, text: string): Card => ({
    chatId: 5,
    messageId,
    quoteId: `q${messageId}`,
    stage,
    text,
  });

  it("goes forward only, and sends nothing it already shows", async () => {
    const { api, edits } = fakeApi();
    const deps = { api, db: t.handle.db };
    expect(await showCard(deps, card(1, STAGE.paying, "⏳ paying"))).toBe("edited");
    expect(await showCard(deps, card(1, STAGE.final, "✅ done"))).toBe("edited");
    expect(await showCard(deps, card(1, STAGE.paying, "⏳ paying"))).toBe("unchanged");
    expect(await showCard(deps, card(1, STAGE.open, "⏳ open"))).toBe("unchanged");
    expect(await showCard(deps, card(1, STAGE.final, "✅ done"))).toBe("unchanged");
    expect(edits).toEqual(["⏳ paying", "✅ done"]);
  });

  it("an edit that failed is sent again by the retry, not taken as shown", async () => {
    const { api, edits } = fakeApi(1);
    const deps = { api, db: t.handle.db };
    await expect(showCard(deps, card(2, STAGE.final, "✅ done"))).rejects.toThrow("network down");
    expect(await showCard(deps, card(2, STAGE.final, "✅ done"))).toBe("edited");
    expect(edits).toEqual(["✅ done"]);
  });

  it("concurrent edits of one card end on the newest stage", async () => {
    const { api, edits } = fakeApi();
    const deps = { api, db: t.handle.db };
    await Promise.all([
      showCard(deps, card(3, STAGE.final, "✅ done")),
      showCard(deps, card(3, STAGE.paying, "⏳ paying")),
      showCard(deps, card(3, STAGE.open, "⏳ open")),
    ]);
    expect(edits.at(-1)).toBe("✅ done");
  });
});
