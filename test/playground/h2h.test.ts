import { mkdtempSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createSecretBox } from "../../src/commerce/h2h/cipher.ts";
import { createKey, keyOfUser, openKey } from "../../src/commerce/h2h/keys.ts";
import { playgroundH2hKey, playgroundH2hKeyPath } from "../../src/playground/h2h-key.ts";
import { PLAYGROUND_ADMIN } from "../../src/playground/mode.ts";
import { bootApp, type TestApp } from "../helpers/app.ts";
import { createTestDatabase, type TestDatabase, testDriver } from "../helpers/db.ts";

// the playground shows the H2H API it advertises: on with a key of its own, made once in
// the data folder and used again by the next start, so API keys made before a restart open

describe("the playground's H2H key file", () => {
  let folder = "";
  beforeAll(() => {
    folder = mkdtempSync(join(tmpdir(), "kios-h2h-key-"));
  });
  afterAll(() => rmSync(folder, { recursive: true, force: true }));

  it("is made once, readable by its owner only, and read again after", () => {
    const dir = join(folder, "data", "pglite");
    const path = playgroundH2hKeyPath(dir);
    expect(path).toBe(join(folder, "data", "h2h-encryption-key"));
    const key = playgroundH2hKey(dir);
    expect(key).toMatch(/^[0-9a-f]{64}$/);
    expect(readFileSync(path, "utf8").trim()).toBe(key);
    expect(statSync(path).mode & 0o777).toBe(0o600);
    expect(playgroundH2hKey(dir)).toBe(key);
  });

  it("refuses a file too short to be a key instead of replacing it", async () => {
    const dir = join(folder, "short", "pglite");
    const { mkdirSync, writeFileSync } = await import("node:fs");
    mkdirSync(join(folder, "short"));
    writeFileSync(playgroundH2hKeyPath(dir), "abc\n");
    expect(() => playgroundH2hKey(dir)).toThrow(/not a usable H2H key/);
    expect(readFileSync(playgroundH2hKeyPath(dir), "utf8")).toBe("abc\n");
  });
});

describe(`the playground's H2H API (${testDriver})`, () => {
  let folder = "";
  let server: TestDatabase | undefined;
  let env: Record<string, string>;
  const apps: TestApp[] = [];

  beforeAll(async () => {
    folder = mkdtempSync(join(tmpdir(), "kios-playground-h2h-"));
    env = { PGLITE_DIR: join(folder, "pglite") };
    if (testDriver === "postgres") {
      server = await createTestDatabase();
      env.DATABASE_URL = server.url!;
    }
  });
  afterAll(async () => {
    for (const a of apps) await a.stop();
    await server?.destroy();
    rmSync(folder, { recursive: true, force: true });
  });

  async function start(): Promise<TestApp> {
    const app = await bootApp({ playground: true, env, databaseFromEnv: true });
    apps.push(app);
    return app;
  }

  /** types as the demo admin and waits for the bot's next message */
  async function say(app: TestApp, text: string): Promise<string> {
    const messages = async () => {
      const res = await fetch(`${app.baseUrl}/control/chats/${PLAYGROUND_ADMIN.id}/messages`);
      const body = (await res.json()) as {
        result: { messages: { sender: string; text?: string }[] };
      };
      return body.result.messages.filter((m) => m.sender === "bot").map((m) => m.text ?? "");
    };
    const before = (await messages()).length;
    const sent = await fetch(`${app.baseUrl}/control/send`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ user_id: PLAYGROUND_ADMIN.id, text }),
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

  it("answers /api for the demo admin, and a restart opens the keys made before", {
    timeout: 120_000,
  }, async () => {
    const first = await start();
    const answer = await say(first, "/api");
    expect(answer).not.toMatch(/belum aktif/);
    expect(answer).toMatch(/belum punya kunci API/);
    expect(answer).toContain("/h2h/v1");
    const key = first.app.config.h2h!.encryptionKey;
    expect(readFileSync(join(folder, "h2h-encryption-key"), "utf8").trim()).toBe(key);
    const issued = await createKey(
      first.app.database.db,
      createSecretBox(key),
      PLAYGROUND_ADMIN.id,
    );
    if (!issued.ok) throw new Error(issued.reason);
    await first.stop();
    apps.splice(apps.indexOf(first), 1);

    const second = await start();
    expect(second.app.config.h2h!.encryptionKey).toBe(key);
    const row = (await keyOfUser(second.app.database.db, PLAYGROUND_ADMIN.id))!;
    const opened = openKey(createSecretBox(second.app.config.h2h!.encryptionKey), row);
    expect(opened.row.apiId).toBe(row.apiId);
  });
});
