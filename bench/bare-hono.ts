// the bare baselines of bench/reports.ts and bench/webhook.ts, each a process of its own as
// kios is: a Hono app on @hono/node-server (@kios/kit's listen), with nothing of kios.
//   --mode reports: POST /supplier/callback reads the body and answers {"ok":true}
//   --mode reports-db: the least a report route must do (a floor, not a baseline): the same
//                   route verifies the signature (--secret) and INSERTs the raw body once into
//                   a table of the database at --database-url (postgres.js, 10 connections)
//   --mode webhook: POST /telegram/bare is grammY's webhookCallback(bot, "hono") for a bot at
//                   --api-root that answers every text message with one reply
// It prints {"port":N} once it listens and exits on SIGTERM or when its stdin closes (the
// bench process that started it is gone).
// run: the benchmarks start it with startBareHono(); by hand:
//      node --import tsx bench/bare-hono.ts --mode webhook --api-root URL --token T --secret S

import { type ChildProcess, spawn } from "node:child_process";
import { fileURLToPath, pathToFileURL } from "node:url";
import { parseArgs } from "node:util";
import {
  CALLBACK_SIGNATURE_HEADER,
  CALLBACK_TIMESTAMP_HEADER,
  listen,
  sha256Hex,
  verifyCallback,
} from "@kios/kit";
import { Bot, webhookCallback } from "grammy";
import { Hono } from "hono";
import { connectPostgres } from "../src/db/postgres-target.ts";

const SELF = fileURLToPath(import.meta.url);

export interface BareProcess {
  /** http://127.0.0.1:<port> */
  url: string;
  stop(): Promise<void>;
}

/** starts bench/bare-hono.ts with these arguments, resolves once it listens */
export function startBareHono(args: string[], timeoutMs = 30_000): Promise<BareProcess> {
  const child: ChildProcess = spawn(process.execPath, ["--import", "tsx", SELF, ...args], {
    stdio: ["pipe", "pipe", "inherit"],
  });
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill("SIGTERM");
      const timer = setTimeout(() => child.kill("SIGKILL"), 5000);
      await exited;
      clearTimeout(timer);
    }
  };
  return new Promise((resolve, reject) => {
    let out = "";
    const timer = setTimeout(() => {
      void stop();
      reject(new Error(`bare-hono ${args.join(" ")} did not listen within ${timeoutMs} ms`));
    }, timeoutMs);
    child.stdout?.on("data", (chunk: Buffer) => {
      out += chunk.toString("utf8");
      const line = /\{"port":(\d+)\}/.exec(out);
      if (line) {
        clearTimeout(timer);
        resolve({ url: `http://127.0.0.1:${line[1]}`, stop });
      }
    });
    child.once("exit", (code, signal) => {
      clearTimeout(timer);
      reject(new Error(`bare-hono exited during start (code ${code}, ${signal})`));
    });
  });
}

async function serve(): Promise<void> {
  const { values } = parseArgs({
    options: {
      mode: { type: "string" },
      "api-root": { type: "string" },
      token: { type: "string" },
      secret: { type: "string" },
      "database-url": { type: "string" },
    },
  });
  const app = new Hono();
  let cleanup = async () => {};
  if (values.mode === "reports") {
    app.post("/supplier/callback", async (c) => {
      await c.req.text();
      return c.json({ ok: true });
    });
  } else if (values.mode === "reports-db") {
    const url = values["database-url"];
    const secret = values.secret;
    if (!url || !secret) throw new Error("--mode reports-db needs --database-url and --secret");
    const sql = connectPostgres(url, { max: 10, onnotice: () => {} });
    cleanup = () => sql.end();
    await sql`create table if not exists bench_reports (
      id bigserial primary key,
      body_hash text not null unique,
      ref_id text not null,
      raw_body text not null,
      received_at timestamptz not null default now()
    )`;
    app.post("/supplier/callback", async (c) => {
      const raw = await c.req.text();
      const verdict = verifyCallback(
        secret,
        raw,
        c.req.header(CALLBACK_TIMESTAMP_HEADER),
        c.req.header(CALLBACK_SIGNATURE_HEADER),
      );
      if (!verdict.ok) return c.json({ error: "unauthorized" }, 401);
      let refId: unknown;
      try {
        const body: unknown = JSON.parse(raw);
        refId = (body as { data?: { ref_id?: unknown } }).data?.ref_id;
      } catch {
        return c.json({ error: "malformed_callback" }, 400);
      }
      if (typeof refId !== "string") return c.json({ error: "malformed_callback" }, 400);
      const rows = await sql`
        insert into bench_reports (body_hash, ref_id, raw_body)
        values (${sha256Hex(raw)}, ${refId}, ${raw})
        on conflict (body_hash) do nothing
        returning id`;
      return c.json({ ok: true, duplicate: rows.length === 0 });
    });
  } else if (values.mode === "webhook") {
    const apiRoot = values["api-root"];
    const token = values.token;
    if (!apiRoot || !token) throw new Error("--mode webhook needs --api-root and --token");
    const bot = new Bot(token, { client: { apiRoot } });
    bot.on("message:text", (ctx) => ctx.reply(`you said ${ctx.message.text}`));
    await bot.init();
    app.post("/telegram/bare", webhookCallback(bot, "hono", { secretToken: values.secret }));
  } else {
    throw new Error(`--mode must be reports, reports-db or webhook (got ${values.mode})`);
  }
  const running = await listen(app, 0, "127.0.0.1");
  const quit = () =>
    void running
      .close()
      .then(cleanup)
      .finally(() => process.exit(0));
  process.on("SIGTERM", quit);
  process.stdin.on("close", quit);
  process.stdin.resume();
  process.stdout.write(`${JSON.stringify({ port: running.port })}\n`);
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) await serve();
