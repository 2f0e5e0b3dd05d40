import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { expect } from "vitest";
import { bootApp, type TestApp } from "./app.ts";
import { createTestDatabase, type TestDatabase, testDriver } from "./db.ts";
import { patient } from "./patience.ts";

/**
 * `npm start` again and again on one data folder: PGLITE_DIR in a scratch folder (its
 * database on PGlite; the playground's H2H key on both drivers) and, on PostgreSQL, one
 * database every start opens as DATABASE_URL names it
 */
export interface PlaygroundData {
  /** the scratch folder PGLITE_DIR is in (the playground's data folder) */
  folder: string;
  start(): Promise<TestApp>;
  /** stops one start, as Ctrl-C does */
  stop(app: TestApp): Promise<void>;
  /** stops what still runs and removes the folder and database */
  destroy(): Promise<void>;
}

export async function playgroundData(): Promise<PlaygroundData> {
  const folder = mkdtempSync(join(tmpdir(), "kios-playground-"));
  const env: Record<string, string> = { PGLITE_DIR: join(folder, "pglite") };
  let server: TestDatabase | undefined;
  if (testDriver === "postgres") {
    server = await createTestDatabase();
    env.DATABASE_URL = server.url!;
  }
  const apps = new Set<TestApp>();
  return {
    folder,
    async start() {
      const app = await bootApp({ playground: true, env, databaseFromEnv: true });
      apps.add(app);
      return app;
    },
    async stop(app) {
      apps.delete(app);
      await app.stop();
    },
    async destroy() {
      for (const a of apps) await a.stop();
      await server?.destroy();
      rmSync(folder, { recursive: true, force: true });
    },
  };
}

/** types as a playground user through the control API and waits for the bot's next message */
export async function sayAs(app: TestApp, userId: number, text: string): Promise<string> {
  const messages = async () => {
    const res = await fetch(`${app.baseUrl}/control/chats/${userId}/messages`);
    const body = (await res.json()) as {
      result: { messages: { sender: string; text?: string }[] };
    };
    return body.result.messages.filter((m) => m.sender === "bot").map((m) => m.text ?? "");
  };
  const before = (await messages()).length;
  const sent = await fetch(`${app.baseUrl}/control/send`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ user_id: userId, text }),
  });
  expect(sent.status).toBe(200);
  const deadline = Date.now() + patient(20_000);
  while (Date.now() < deadline) {
    const now = await messages();
    if (now.length > before) return now[before]!;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`no answer to ${text}`);
}
