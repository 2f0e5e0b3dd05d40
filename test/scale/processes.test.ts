import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { DEFAULT_BOT, type MessageView, startBotApiServer } from "@kios/bot-api-server";
import { freePort } from "@kios/kit";
import { DEFAULT_SANDBOX_CREDENTIALS, startSandbox } from "@kios/supplier-sandbox";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { syncCatalogue } from "../../src/commerce/catalogue/sync.ts";
import { creditWallet } from "../../src/commerce/wallet/ledger.ts";
import { verifyLedger } from "../../src/commerce/wallet/verify.ts";
import { users } from "../../src/db/schema.ts";
import { createSignatureSupplier } from "../../src/supplier/index.ts";
import { botMessagesAfter, callbackDataOf, messageById } from "../campaign/chat.ts";
import { type KiosProcess, kiosProcess } from "../campaign/processes.ts";
import { random } from "../campaign/rng.ts";
import { createTestDatabase, type TestDatabase, testDriver } from "../helpers/db.ts";
import { patient } from "../helpers/patience.ts";
import { type Delivery, startDelivery } from "./delivery.ts";

// issue 14's proof: 2 web and 3 worker processes on one PostgreSQL, as separate OS
// processes. Chats send a few thousand updates through Telegram's webhook to random web
// instances (some delivered twice); a worker and a web process are SIGKILLed mid-run and
// started again. Then: every update handled, each chat's replies in the order of its
// updates, no flow state lost, no order or hold made twice. Several processes on one
// database need a server: PGlite is one process's, so vitest.config.ts runs this file only
// with TEST_DATABASE_URL.

const SCRIPT = [
  "/start",
  "/deposit",
  "sepuluh",
  "/cancel",
  "/saldo",
  "/help",
  "/deposit",
  "lima",
  "/cancel",
  "/saldo",
] as const;

/** what the bot answers each step with: its reply's kind */
const EXPECTED: Record<(typeof SCRIPT)[number], string> = {
  "/start": "welcome",
  "/deposit": "ask-amount",
  sepuluh: "invalid-amount",
  lima: "invalid-amount",
  "/cancel": "cancelled",
  "/saldo": "balance",
  "/help": "help",
};

function kindOf(text: string): string {
  if (/^Halo /.test(text)) return "welcome";
  if (/^Mau isi saldo berapa/.test(text)) return "ask-amount";
  if (/^Jumlah tidak valid/.test(text)) return "invalid-amount";
  if (/^Dibatalkan\.$/.test(text)) return "cancelled";
  if (/^💰 Saldo kamu/.test(text)) return "balance";
  if (/^Bantuan/.test(text)) return "help";
  return `other: ${text.slice(0, 60)}`;
}

/** a replayed update may repeat its reply: runs of one kind count once */
const collapse = (kinds: string[]) => kinds.filter((k, i) => i === 0 || kinds[i - 1] !== k);

const CHATS = 300;
const BUYERS = 30;
const CHAT_BASE = 7_100_000;
const BUYER_BASE = 7_200_000;
const CREDIT = 100_000;
const SECRET = "scale-test-webhook-secret";

describe(`2 web and 3 worker processes on one PostgreSQL (${testDriver})`, () => {
  let database: TestDatabase;
  let telegram: Awaited<ReturnType<typeof startBotApiServer>>;
  let sandbox: Awaited<ReturnType<typeof startSandbox>>;
  let delivery: Delivery;
  const webs: { proc: KiosProcess; url: string }[] = [];
  const workers: KiosProcess[] = [];
  const rng = random(14);
  let logDir = "";

  beforeAll(async () => {
    database = await createTestDatabase();
    telegram = await startBotApiServer({ rateLimits: { enabled: false } });
    sandbox = await startSandbox({
      seed: 14,
      settleDelayMs: 300,
      rateLimitPerSecond: 1000,
      accounts: [
        {
          apiId: DEFAULT_SANDBOX_CREDENTIALS.apiId,
          keys: [
            {
              apiKey: DEFAULT_SANDBOX_CREDENTIALS.apiKey,
              secretKey: DEFAULT_SANDBOX_CREDENTIALS.secretKey,
            },
          ],
          balance: 1_000_000_000_000,
        },
      ],
    });
    const supplier = createSignatureSupplier({
      baseUrl: sandbox.url,
      ...DEFAULT_SANDBOX_CREDENTIALS,
    });
    await syncCatalogue(database.handle.db, supplier, {});
    delivery = await startDelivery({
      targets: () => webs.filter((w) => w.proc.running).map((w) => w.url),
      rng: rng.fork(1),
      redeliverRate: 0.1,
    });

    logDir = mkdtempSync(join(tmpdir(), "kios-scale-"));
    const env = (port: number): Record<string, string> => ({
      PATH: process.env.PATH ?? "",
      HOME: process.env.HOME ?? "",
      DATABASE_URL: database.url!,
      BOT_TOKEN: DEFAULT_BOT.token,
      TELEGRAM_API_ROOT: telegram.url,
      BOT_MODE: "webhook",
      PUBLIC_URL: delivery.url,
      WEBHOOK_SECRET: SECRET,
      SUPPLIER_BASE_URL: sandbox.url,
      SUPPLIER_API_ID: DEFAULT_SANDBOX_CREDENTIALS.apiId,
      SUPPLIER_API_KEY: DEFAULT_SANDBOX_CREDENTIALS.apiKey,
      SUPPLIER_SECRET_KEY: DEFAULT_SANDBOX_CREDENTIALS.secretKey,
      PORT: String(port),
      LOG_LEVEL: "info",
      INBOX_CONCURRENCY: "8",
    });
    for (let i = 0; i < 2; i++) {
      const port = await freePort();
      webs.push({
        proc: kiosProcess({ role: "web", env: env(port), logPath: join(logDir, `web${i}.log`) }),
        url: `http://127.0.0.1:${port}`,
      });
    }
    sandbox.account().setCallbackUrl(`${webs[0]!.url}/supplier/callback`);
    for (let i = 0; i < 3; i++) {
      workers.push(
        kiosProcess({ role: "worker", env: env(0), logPath: join(logDir, `worker${i}.log`) }),
      );
    }
    await Promise.all([
      ...webs.map((w) => w.proc.start(patient(60_000))),
      ...workers.map((w) => w.start(patient(60_000))),
    ]);
  }, patient(120_000));

  afterAll(async () => {
    await Promise.allSettled([...webs.map((w) => w.proc.stop()), ...workers.map((w) => w.stop())]);
    await delivery?.close();
    await telegram?.close();
    await sandbox?.close();
    await database?.destroy();
  });

  /** a reseller who quick-orders airtime and taps Pay twice; their order must be made once */
  async function buy(userId: number): Promise<void> {
    const destination = `0812${String(userId).slice(-7)}`;
    const at = telegram.sendText(userId, `TSEL10.${destination}`).message.message_id;
    const found = await telegram.waitFor(
      userId,
      (v) =>
        botMessagesAfter(v, at).some((m) => callbackDataOf(m).some((d) => d.startsWith("pay:"))),
      patient(90_000),
    );
    const card = botMessagesAfter(found, at).find((m) =>
      callbackDataOf(m).some((d) => d.startsWith("pay:")),
    ) as MessageView;
    const pay = callbackDataOf(card).find((d) => d.startsWith("pay:"))!;
    // two taps before the bot answers either
    telegram.press(userId, card.message_id, pay);
    telegram.press(userId, card.message_id, pay);
    await telegram.waitFor(
      userId,
      (v) => {
        const now = messageById(v, card.message_id);
        return now !== undefined && !callbackDataOf(now).includes(pay);
      },
      patient(90_000),
    );
  }

  /**
   * SIGKILLs `worker` once it holds unhandled updates (its id is host:pid:random; waiting up
   * to timeoutMs), and returns the ones the dead process left unhandled under its claim. Read
   * after the kill: a worker finishes in batches, so what it held an instant before may all
   * be finished by the time the signal lands. Empty when it left nothing.
   */
  async function killHolding(worker: KiosProcess, timeoutMs: number): Promise<number[]> {
    const deadline = Date.now() + timeoutMs;
    const heldBy = async (pid: number) =>
      (
        await database.handle.executeSql(
          `select update_id from telegram_updates
             where handled_at is null and claimed_until > now() and claimed_by like $1`,
          [`%:${pid}:%`],
        )
      ).rows.map((r) => Number(r.update_id));
    const pid = worker.pid;
    if (pid === undefined) throw new Error("the worker is not running");
    while (Date.now() < deadline) {
      if ((await heldBy(pid)).length > 0) break;
      await new Promise((r) => setTimeout(r, 5));
    }
    await worker.kill();
    // a statement it sent just before dying may still land; the others take its claims back
    // only once they see its lease free (every 2 s), so read in between
    await new Promise((r) => setTimeout(r, 50));
    return heldBy(pid);
  }

  it(
    "handles every update once its 200 went out, each chat in order, money once",
    async () => {
      const db = database.handle.db;
      for (let i = 0; i < BUYERS; i++) {
        const id = BUYER_BASE + i;
        telegram.user(id, { first_name: `Buyer${i}` });
        await db.insert(users).values({ telegramId: id, firstName: `Buyer${i}`, tier: "reseller" });
        await creditWallet(db, { userId: id, amount: CREDIT, key: `scale:fund:${id}` });
      }
      for (let i = 0; i < CHATS; i++) telegram.user(CHAT_BASE + i, { first_name: `U${i}` });

      // the chats type their scripts, fast, a few at a time; buyers buy meanwhile
      const typing = (async () => {
        for (let step = 0; step < SCRIPT.length; step++) {
          for (let i = 0; i < CHATS; i++) telegram.sendText(CHAT_BASE + i, SCRIPT[step]!);
          await new Promise((r) => setTimeout(r, 400));
        }
      })();
      const buying = Promise.all(
        Array.from({ length: BUYERS }, async (_, i) => {
          await new Promise((r) => setTimeout(r, 200 * i));
          await buy(BUYER_BASE + i);
        }),
      );
      // mid-run: a worker, then a web instance, killed outright and started again
      let heldAtKill: number[] = [];
      const chaos = (async () => {
        await new Promise((r) => setTimeout(r, 1500));
        // killed until it dies with work in hand (a kill between two batches leaves none)
        for (let kill = 0; kill < 3 && heldAtKill.length === 0; kill++) {
          heldAtKill = await killHolding(workers[0]!, 20_000);
          await new Promise((r) => setTimeout(r, 1000));
          await workers[0]!.start(patient(60_000));
        }
        await webs[1]!.proc.kill();
        await new Promise((r) => setTimeout(r, 1000));
        await webs[1]!.proc.start(patient(60_000));
        await workers[1]!.kill();
        await workers[1]!.start(patient(60_000));
      })();
      await Promise.all([typing, buying, chaos]);
      await delivery.idle(patient(120_000));

      // every acknowledged update handled
      const deadline = Date.now() + patient(120_000);
      let open = -1;
      while (Date.now() < deadline) {
        const { rows } = await database.handle.executeSql(
          "select count(*)::int as n from telegram_updates where handled_at is null",
        );
        open = Number(rows[0]?.n);
        if (open === 0) break;
        await new Promise((r) => setTimeout(r, 200));
      }
      expect(open).toBe(0);
      const acked = [...delivery.acknowledged.values()].flat();
      const { rows: stored } = await database.handle.executeSql(
        "select update_id, error from telegram_updates",
      );
      const handled = new Set(stored.map((r) => Number(r.update_id)));
      expect(acked.filter((id) => !handled.has(id))).toEqual([]);
      expect(acked.length).toBeGreaterThanOrEqual(CHATS * SCRIPT.length + BUYERS * 3);
      expect(stored.filter((r) => r.error !== null)).toEqual([]);

      // each chat's replies in the order of its updates, its flows intact, in every chat. An
      // update whose worker was killed after it answered, before it was marked handled, is
      // handled again: it may repeat its own answer (runs of one kind count once), never give
      // another one (a re-run /cancel saying there was nothing to cancel). So every chat,
      // re-run or not, shows exactly the expected answers.
      const { rows: rerun } = await database.handle.executeSql(
        "select count(distinct chat_id)::int as n from telegram_updates where attempts > 1",
      );
      const expected = collapse(SCRIPT.map((s) => EXPECTED[s]));
      const wrong: string[] = [];
      for (let i = 0; i < CHATS; i++) {
        const chat = telegram.messages(CHAT_BASE + i);
        const kinds = collapse(
          chat.messages.filter((m) => m.sender === "bot").map((m) => kindOf(m.text ?? "")),
        );
        if (JSON.stringify(kinds) !== JSON.stringify(expected)) {
          wrong.push(`chat ${CHAT_BASE + i}: ${kinds.join(", ")}`);
        }
      }
      expect(wrong.slice(0, 5)).toEqual([]);
      // some chats' updates did run again: the check above covered re-runs
      expect(Number(rerun[0]?.n)).toBeGreaterThan(0);

      // each buyer's two taps made one order, held once, and the books balance
      const { rows: orders } = await database.handle.executeSql(
        "select user_id, count(*)::int as n, sum(price)::int as price from orders group by user_id",
      );
      expect(orders).toHaveLength(BUYERS);
      expect(orders.every((o) => Number(o.n) === 1)).toBe(true);
      const { rows: holds } = await database.handle.executeSql(
        `select count(*)::int as n, count(distinct key)::int as keys from transfers
           where kind = 'hold'`,
      );
      expect(Number(holds[0]?.n)).toBe(BUYERS);
      const refIds = sandbox.transactions().map((t) => t.refId);
      expect(new Set(refIds).size).toBe(refIds.length);
      const ledger = await verifyLedger(database.handle);
      expect(ledger.ok).toBe(true);

      // the kills happened while work was in hand
      expect(workers[0]!.starts).toBeGreaterThanOrEqual(2);
      expect(webs[1]!.proc.starts).toBe(2);
      // what the killed worker left under its claim was handled again by another: taken back
      // when its lease was seen free, or when the claim ran out (either is correct)
      expect(heldAtKill.length).toBeGreaterThan(0);
      const { rows: retried } = await database.handle.executeSql(
        `select count(*)::int as n from telegram_updates
         where update_id = any($1::bigint[]) and handled_at is not null and attempts > 1`,
        [heldAtKill],
      );
      expect(Number(retried[0]?.n)).toBeGreaterThan(0);
    },
    patient(300_000),
  );
});
