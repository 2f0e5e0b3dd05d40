import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PLAYGROUND_CUSTOMER } from "../../src/playground/mode.ts";
import { testDriver } from "../helpers/db.ts";
import { type PlaygroundData, playgroundData, sayAs } from "../helpers/playground.ts";

// a new user's way: `npm start`, chat, stop, `npm start` again on the same data folder.
// The local Bot API server starts again too, and its update_ids must carry on where the
// inbox left off, or the inbox ignores the new messages as redeliveries of old ones.

describe(`the playground started again on the same data (${testDriver})`, () => {
  let data: PlaygroundData;
  beforeAll(async () => {
    data = await playgroundData();
  });
  afterAll(() => data?.destroy());

  const say = (app: Awaited<ReturnType<PlaygroundData["start"]>>, text: string) =>
    sayAs(app, PLAYGROUND_CUSTOMER.id, text);

  it("answers the first message after a restart", { timeout: 120_000 }, async () => {
    const first = await data.start();
    expect(await say(first, "/start")).toMatch(/^Halo/);
    expect(await say(first, "/saldo")).toMatch(/Saldo kamu/);
    expect(await say(first, "/help")).toMatch(/^Bantuan/);
    await data.stop(first);

    const second = await data.start();
    expect(await say(second, "/start")).toMatch(/^Halo/);
    expect(await say(second, "/saldo")).toMatch(/Saldo kamu/);
  });
});
