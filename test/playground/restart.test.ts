import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PLAYGROUND_CUSTOMER } from "../../src/playground/mode.ts";
import { bootApp, type TestApp } from "../helpers/app.ts";
import { createTestDatabase, type TestDatabase, testDriver } from "../helpers/db.ts";

// a new user's way: `npm start`, chat, stop, `npm start` again on the same data folder.
// The local Bot API server starts again too, and its update_ids must carry on where the
// inbox left off, or the inbox ignores the new messages as redeliveries of old ones.

describe(`the playground started again on the same data (${testDriver})`, () => {
  let folder = "";
  let server: TestDatabase | undefined;
  let env: Record<string, string>;
  const apps: TestApp[] = [];

  beforeAll(async () => {
    if (testDriver === "postgres") {
      // the same database, opened by each start as DATABASE_URL names it
      server = await createTestDatabase();
      env = { DATABASE_URL: server.url! };
    } else {
      folder = mkdtempSync(join(tmpdir(), "kios-playground-"));
      env = { PGLITE_DIR: join(folder, "pglite") };
    }
  });
  afterAll(async () => {
    for (const a of apps) await a.stop();
    await server?.destroy();
    if (folder) rmSync(folder, { recursive: true, force: true });
  });

  async function start(): Promise<TestApp> {
    const app = await bootApp({ playground: true, env, databaseFromEnv: true });
    apps.push(app);
    return app;
  }

  /** types as the demo customer and waits for the bot's next message */
  async function say(app: TestApp, text: string): Promise<string> {
    const messages = async () => {
      const res = await fetch(`${app.baseUrl}/control/chats/${PLAYGROUND_CUSTOMER.id}/messages`);
      const body = (await res.json()) as {
        result: { messages: { sender: string; text?: string }[] };
      };
      return body.result.messages.filter((m) => m.sender === "bot").map((m) => m.text ?? "");
    };
    const before = (await messages()).length;
    const sent = await fetch(`${app.baseUrl}/control/send`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ user_id: PLAYGROUND_CUSTOMER.id, text }),
    });
    expect(sent.status).toBe(200);
    const deadline = Date.now() + 20_000;
    while (Date.now() < deadline) {
      const now = await messages();
      if (now.length > before) return now[before]!;
      await new Promise((r) => setTimeout(r, 100));
    }
    throw new Error(`no answer to ${text}`);
  }

  it("answers the first message after a restart", { timeout: 120_000 }, async () => {
    const first = await start();
    expect(await say(first, "/start")).toMatch(/^Halo/);
    expect(await say(first, "/saldo")).toMatch(/Saldo kamu/);
    expect(await say(first, "/help")).toMatch(/^Bantuan/);
    await first.stop();
    apps.splice(apps.indexOf(first), 1);

    const second = await start();
    expect(await say(second, "/start")).toMatch(/^Halo/);
    expect(await say(second, "/saldo")).toMatch(/Saldo kamu/);
  });
});
