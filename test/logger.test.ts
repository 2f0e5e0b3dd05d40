import { spawn } from "node:child_process";
import { once } from "node:events";
import { join } from "node:path";
import { Writable } from "node:stream";
import { startBotApiServer } from "@kios/bot-api-server";
import { GrammyError } from "grammy";
import { describe, expect, it } from "vitest";
import { createLogger, scrubber } from "../src/logger.ts";
import { bootApp, memorySink } from "./helpers/app.ts";

const BOT_TOKEN = "123456789:AAHsecretsecretsecretsecret_-XYZ";
const API_KEY = "ak_live_9f8e7d6c";
const SECRET_KEY = "sk_live_1a2b3c4d";

async function flush() {
  await new Promise((r) => setImmediate(r));
}

describe("logger", () => {
  it("writes JSON lines when not on a terminal", async () => {
    const sink = memorySink();
    createLogger({ destination: sink.stream, pretty: false }).info({ a: 1 }, "hello");
    await flush();
    expect(JSON.parse(sink.text())).toMatchObject({ level: 30, a: 1, msg: "hello" });
  });

  it("redacts secret fields by name, and bot tokens inside URLs", async () => {
    const sink = memorySink();
    const log = createLogger({ destination: sink.stream, pretty: false });
    log.info({ api_key: "abc", request: { signature: "deadbeef", secret_key: "zzz" } }, "x");
    log.info(`GET https://api.telegram.org/bot${BOT_TOKEN}/getMe`);
    await flush();
    const text = sink.text();
    expect(text).not.toMatch(/"abc"|deadbeef|"zzz"/);
    expect(text).not.toContain(BOT_TOKEN);
    expect(text).toContain("bot[redacted]/getMe");
  });

  it("logs a failed Bot API call without the buttons it sent (a keypad's layout)", async () => {
    const sink = memorySink();
    const log = createLogger({ destination: sink.stream, pretty: false });
    const keypad = { inline_keyboard: [[{ text: "7", callback_data: "pk:pad1:a" }]] };
    const err = new GrammyError(
      "Call to 'editMessageReplyMarkup' failed!",
      { ok: false, error_code: 400, description: "Bad Request: message to edit not found" },
      "editMessageReplyMarkup",
      { chat_id: 1, message_id: 2, reply_markup: keypad },
    );
    log.error({ err }, "update failed");
    await flush();
    const text = sink.text();
    expect(text).toContain("editMessageReplyMarkup");
    expect(text).not.toContain("pk:pad1");
  });

  it("writes the lines of one turn of the event loop together, in order, scrubbed", async () => {
    const writes: string[] = [];
    const stream = new Writable({
      write(chunk, _enc, done) {
        writes.push(chunk.toString("utf8"));
        done();
      },
    });
    const log = createLogger({
      destination: stream,
      pretty: false,
      secrets: [API_KEY],
      batch: true, // as on stdout, the default's
    });
    for (let i = 0; i < 5; i++) log.info({ i }, `line ${i} ${API_KEY}`);
    expect(writes).toEqual([]); // nothing yet: the turn is not over
    await flush();
    log.info("next turn");
    await flush();
    // one write for the five lines of the first turn (a kernel write per line cost 0.17 ms
    // per H2H order on a VM), one for the next
    expect(writes).toHaveLength(2);
    const lines = writes[0]!
      .trimEnd()
      .split("\n")
      .map((l) => JSON.parse(l) as { i: number; msg: string });
    expect(lines.map((l) => l.i)).toEqual([0, 1, 2, 3, 4]);
    expect(writes[0]).not.toContain(API_KEY);
    expect(lines[4]?.msg).toBe("line 4 [redacted]");
    expect(JSON.parse(writes[1]!)).toMatchObject({ msg: "next turn" });
  });

  it("a process that exits in the same turn as it logs still writes the line", async () => {
    // as a fatal start does: log the reason, then process.exit at once
    const code = [
      `import { createLogger } from ${JSON.stringify(join(import.meta.dirname, "../src/logger.ts"))};`,
      `const log = createLogger({ pretty: false });`,
      `log.error({ reason: "no database" }, "cannot start");`,
      `process.exit(3);`,
    ].join("\n");
    const child = spawn(process.execPath, ["--import", "tsx", "--input-type=module", "-e", code], {
      stdio: ["ignore", "pipe", "inherit"],
    });
    let out = "";
    child.stdout.on("data", (chunk: Buffer) => {
      out += chunk.toString("utf8");
    });
    const [exitCode] = (await once(child, "exit")) as [number];
    expect(exitCode).toBe(3);
    expect(JSON.parse(out)).toMatchObject({
      level: 50,
      reason: "no database",
      msg: "cannot start",
    });
  });

  it("scrubs known secret values wherever they appear, escaped or not", () => {
    const scrub = scrubber(['p"ss/word']);
    expect(scrub('{"msg":"p\\"ss/word and p"ss/word"}')).toBe(
      '{"msg":"[redacted] and [redacted]"}',
    );
  });

  it("a secret given to the app never appears in its log output", async () => {
    // the bot really runs, against a local Bot API server that knows this token
    const telegram = await startBotApiServer({
      bots: [{ token: BOT_TOKEN, username: "secret_test_bot", firstName: "Secret" }],
    });
    const t = await bootApp({
      env: {
        BOT_TOKEN,
        TELEGRAM_API_ROOT: telegram.url,
        SUPPLIER_BASE_URL: "https://supplier.example",
        SUPPLIER_API_ID: "KIOS-1",
        SUPPLIER_API_KEY: API_KEY,
        SUPPLIER_SECRET_KEY: SECRET_KEY,
      },
      logLevel: "trace",
    });
    try {
      const { logger, config } = t.app;
      // the worst cases: the whole config, an error whose message and stack carry a secret
      logger.info({ config }, "config");
      logger.error({ err: new Error(`upstream rejected key ${API_KEY} / ${SECRET_KEY}`) }, "boom");
      logger.warn(`calling ${config.telegramApiRoot}/bot${BOT_TOKEN}/sendMessage`);
      await fetch(`${t.baseUrl}/healthz`, { headers: { authorization: `Bearer ${API_KEY}` } });
      await flush();
      const text = t.logs();
      expect(text).toContain("upstream rejected key");
      for (const secret of [BOT_TOKEN, API_KEY, SECRET_KEY]) expect(text).not.toContain(secret);
    } finally {
      await t.stop();
      await telegram.close();
    }
  });
});
