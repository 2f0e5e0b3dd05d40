import { DEFAULT_BOT, type RunningBotApiServer, startBotApiServer } from "@kios/bot-api-server";
import { ManualClock } from "@kios/kit";
import { Api } from "grammy";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { KiosBot } from "../../../src/bot/context.ts";
import { updateHandler } from "../../../src/bot/inbox/handle.ts";
import { createBot } from "../../../src/bot/index.ts";
import {
  botIdOfToken,
  type ClaimedUpdate,
  claimUpdates,
  finishUpdates,
  freeClaimsOf,
  storeUpdates,
} from "../../../src/bot/storage/updates.ts";
import { createLogger } from "../../../src/logger.ts";
import { createTestDatabase, type TestDatabase, testDriver } from "../../helpers/db.ts";
import { createFakeSupplier } from "../../helpers/fake-supplier.ts";

// a worker killed after the bot answered an update and wrote the chat's state, before it
// marked the update handled: the update runs again. It may repeat its own answer (Telegram
// delivers at least once), never contradict it.

describe(`an update handled again after its worker died (${testDriver})`, () => {
  let database: TestDatabase;
  let telegram: RunningBotApiServer;
  let bot: KiosBot;
  let api: Api;
  let offset = 0;
  const botId = botIdOfToken(DEFAULT_BOT.token);

  beforeAll(async () => {
    database = await createTestDatabase();
    telegram = await startBotApiServer({ rateLimits: { enabled: false } });
    const logger = createLogger({ level: "silent" });
    const clock = new ManualClock();
    bot = createBot({
      token: DEFAULT_BOT.token,
      apiRoot: telegram.url,
      logger,
      db: database.handle.db,
      clock,
      config: { adminIds: [], supplierTesting: false },
      orders: {
        db: database.handle.db,
        supplier: createFakeSupplier(),
        clock,
        logger,
        testing: false,
      },
    });
    await bot.init();
    api = new Api(DEFAULT_BOT.token, { apiRoot: telegram.url });
  });
  afterAll(async () => {
    await telegram?.close();
    await database?.destroy();
  });

  /** a user's message, as the poller stores it, then claimed by `worker` */
  async function arrive(userId: number, text: string, worker: string): Promise<ClaimedUpdate> {
    telegram.sendText(userId, text);
    const updates = await api.getUpdates({ offset, timeout: 0 });
    offset = updates.at(-1)!.update_id + 1;
    await storeUpdates(database.handle.db, botId, updates);
    const [claimed] = await claimUpdates(database.handle.db, { worker, limit: 1, leaseMs: 30_000 });
    return claimed!;
  }

  const botTexts = (userId: number) =>
    telegram
      .messages(userId)
      .messages.filter((m) => m.sender === "bot")
      .map((m) => m.text ?? "");

  it("answers /cancel once: run again, it does not say there was nothing to cancel", async () => {
    const user = 8_701;
    const db = database.handle.db;
    const handle = updateHandler(bot);
    telegram.user(user, { first_name: "Rina" });

    const deposit = await arrive(user, "/deposit", "w1");
    expect(await handle(deposit)).toEqual({ kind: "handled" });
    await finishUpdates(db, { worker: "w1", keys: [deposit] });
    expect(botTexts(user).at(-1)).toMatch(/^Mau isi saldo berapa/);

    // w1 answers /cancel and writes the chat's state, and is killed before marking it handled
    const cancel = await arrive(user, "/cancel", "w1");
    expect(await handle(cancel)).toEqual({ kind: "handled" });
    const answered = botTexts(user).length;
    expect(botTexts(user).at(-1)).toBe("Dibatalkan.");

    // another worker sees w1's lease gone, takes the update back and runs it
    await freeClaimsOf(db, ["w1"]);
    const [again] = await claimUpdates(db, { worker: "w2", limit: 1, leaseMs: 30_000 });
    expect(again?.updateId).toBe(cancel.updateId);
    expect(await handle(again!)).toEqual({ kind: "handled" });
    await finishUpdates(db, { worker: "w2", keys: [again!] });

    // at most its own answer again, never "nothing to cancel"
    expect(
      botTexts(user)
        .slice(answered)
        .every((t) => t === "Dibatalkan."),
    ).toBe(true);
    // and the chat goes on from where /cancel left it
    const saldo = await arrive(user, "/saldo", "w2");
    await handle(saldo);
    expect(botTexts(user).at(-1)).toMatch(/Saldo kamu/);
  });
});
