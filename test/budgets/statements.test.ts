import { DEFAULT_BOT, type RunningBotApiServer, startBotApiServer } from "@kios/bot-api-server";
import { ManualClock } from "@kios/kit";
import { Api } from "grammy";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { KiosBot } from "../../src/bot/context.ts";
import { createInboxDrain } from "../../src/bot/inbox/drain.ts";
import { updateHandler } from "../../src/bot/inbox/handle.ts";
import { createTelegramWebhookRoute, SECRET_HEADER } from "../../src/bot/inbox/webhook.ts";
import { createBot } from "../../src/bot/index.ts";
import {
  botIdOfToken,
  claimUpdates,
  finishUpdates,
  storeUpdates,
} from "../../src/bot/storage/updates.ts";
import { confirmQuote } from "../../src/commerce/orders/place.ts";
import { createBillQuote } from "../../src/commerce/orders/quotes.ts";
import {
  processSupplierReport,
  storeSupplierReport,
} from "../../src/commerce/supplier-reports/inbox.ts";
import { createLeases } from "../../src/jobs/lease.ts";
import { createLogger } from "../../src/logger.ts";
import type { Supplier } from "../../src/supplier/types.ts";
import { bootCommerce, type CommerceHarness } from "../helpers/commerce.ts";
import { createTestDatabase, type TestDatabase } from "../helpers/db.ts";
import { createFakeSupplier } from "../helpers/fake-supplier.ts";
import { bootH2h, type H2hHarness } from "../helpers/h2h.ts";

// statements per path on PostgreSQL, counted as the driver sends them (each one round trip:
// every statement is prepared). Each path people wait on has a budget, written in
// docs/performance.md#statement-budgets: a change that adds a statement fails here until
// the budget (and that page) says so. Counted in the steady state: the accounts and the
// prepared statements a first order makes already exist.

const BUDGET = {
  /**
   * Pay, from the tap's confirmQuote to the order request leaving for the supplier (5
   * before: the guard's reservation is now its own committed statement, so no Pay waits on
   * another's lock, and it needs the quote read before it)
   */
  payToSupplier: 6,
  /**
   * the supplier's instant success settled: the order moved, its attempt closed with the
   * answer, the buyer's notification queued and the hold captured, in one statement with no
   * transaction around it (4 before: begin, the move, the capture, commit)
   */
  answerSettled: 1,
  /**
   * a prepaid card's quote: the shop's rules, step, the buyer's tree and the product (one
   * statement, priced in kios), today's purchases of it for the number, the quote stored with
   * the balance (6 before the pricing inputs were read in one statement; 4 before the product
   * came with them)
   */
  prepaidQuote: 3,
  /**
   * a bill's quote, around the supplier's inquiry: the pricing inputs, the buyer's tier and
   * the product (one statement; 11 before: three, and the tier a read of its own; 8 before the
   * product came with them), the bill's earlier payment looked up, the inquiry and the quote
   * stored in one transaction, the buyer's balance
   */
  billQuote: 7,
  /**
   * a stored supplier report acted on: the order settled (captured), the report closed (8
   * before the buyer's notification rode in the order's move)
   */
  reportSettled: 7,
  /** updates taken by one worker: stored (one statement per batch), claimed, finished */
  updateBatch: { store: 1, claim: 1, finish: 1 },
  /**
   * the inbox's statements for each further update of a chat a worker has in hand: the
   * finish of one and the claim of the next ride in one statement
   */
  inboxPerFurtherUpdate: 1,
  /**
   * a signed H2H order answered (an instant supplier): the key and the ref_id looked up, the
   * quote priced and stored, the ref_id bound, the Pay, the supplier's answer settled (20
   * before the shop's rules, step and the buyer's tree were read in one statement and the
   * answer and the notification rode in the order's move; 16 before the answer settled in
   * one statement, the ref_id was bound by the quote's own statement and the Pay stored the
   * order in one statement with no transaction around it: 6 of the Pay's statements, 3 now;
   * 9 before the product came with the pricing inputs, 8 before the Pay was handed the quote
   * as its request stored it, instead of reading it again, 7 before the ref_id's claim read
   * the product priced for the reseller in its RETURNING)
   */
  h2hOrder: 6,
  /**
   * a /start POSTed to the webhook of a process that drains the inbox, until it is marked
   * handled: stored and claimed in one statement, handled (nothing to read), finished in one
   * (3 before: the store, then a claim after the NOTIFY woke the drain, then the finish)
   */
  webhookInProcess: 2,
  /**
   * a flow's step the same way: the chat's state is written in the finish's statement
   * (4 before: the store, the claim, the state write, the finish)
   */
  webhookFlowStepInProcess: 2,
} as const;

/**
 * one update through the bot, taken one at a time (a worker with many chats in hand claims
 * and finishes them in batches): its claim (with the sender's row and the chat's state),
 * what the bot does for it, and its finish
 */
const UPDATE_BUDGET = {
  /** the sender's row and the chat's state come with the claim: nothing more to read */
  start: { claim: 1, handle: 0, finish: 1 },
  /** the wallet's balance */
  saldo: { claim: 1, handle: 1, finish: 1 },
  /** the flow's state written (with its revision check and the claim's fence) */
  enterFlow: { claim: 1, handle: 1, finish: 1 },
  stepInFlow: { claim: 1, handle: 1, finish: 1 },
  leaveFlow: { claim: 1, handle: 1, finish: 1 },
} as const;

const counted: string[] = [];
let counting = false;
const count = (sql: string) => {
  if (counting) counted.push(sql);
};
async function statementsOf<T>(work: () => Promise<T>): Promise<{ result: T; n: number }> {
  counted.length = 0;
  counting = true;
  try {
    const result = await work();
    if (process.env.SHOW_STATEMENTS) console.log(counted.map((q) => q.slice(0, 140)).join("\n"));
    return { result, n: counted.length };
  } finally {
    counting = false;
  }
}

describe("statement budgets (PostgreSQL)", () => {
  let h: CommerceHarness;
  beforeAll(async () => {
    h = await bootCommerce({ onStatement: count });
  });
  afterAll(() => h?.stop());

  /** a Pay, and how many statements went before the supplier was asked */
  async function pay(destination: string) {
    const user = await h.newUser(100_000);
    const q = await h.quote(user, destination);
    let beforeSupplier = -1;
    let afterSupplier = -1;
    const supplier: Supplier = {
      ...h.supplier,
      order: async (o) => {
        beforeSupplier = counted.length;
        const answer = await h.supplier.order(o);
        afterSupplier = counted.length;
        return answer;
      },
    };
    const { result, n } = await statementsOf(() =>
      confirmQuote({ ...h.deps, supplier }, { quoteId: q.id, userId: user }),
    );
    if (!result.ok) throw new Error(`not placed: ${result.reason}`);
    return { order: result.order, beforeSupplier, afterAnswer: n - afterSupplier };
  }

  it("a prepaid quote and a bill's quote are priced and stored within their budgets", async () => {
    const user = await h.newUser(2_000_000);
    await h.quote(user, "081234567801"); // the statements prepared
    const prepaid = await statementsOf(() => h.quote(user, "081234567802"));
    expect(prepaid.n).toBe(BUDGET.prepaidQuote);
    const bill = (customerNo: string) =>
      createBillQuote(h.deps, { userId: user, chatId: user, productCode: "PLNPOST", customerNo });
    expect((await bill("530000000012")).ok).toBe(true);
    const second = await statementsOf(() => bill("530000000013"));
    expect(second.result.ok).toBe(true);
    expect(second.n).toBe(BUDGET.billQuote);
  });

  it("Pay sends the order after its budget of statements", async () => {
    await pay("081234567903"); // the shop's accounts, the statements prepared
    const { beforeSupplier } = await pay("081234567903");
    expect(beforeSupplier).toBe(BUDGET.payToSupplier);
  });

  it("the supplier's instant success settles its order within its budget", async () => {
    // a number ending in 901: the sandbox answers it with a success at once
    await pay("081234567901");
    const { order, afterAnswer } = await pay("081234567901");
    expect(order.status).toBe("success");
    expect(afterAnswer).toBe(BUDGET.answerSettled);
  });

  it("a supplier report settles its order within its budget", async () => {
    const settle = async () => {
      const { order } = await pay("081234567905");
      await h.sandbox.settleNow();
      const report = await storeSupplierReport(h.deps.db, {
        rawBody: JSON.stringify({ ref_id: order.refId }),
        refId: order.refId,
        reportedStatus: "Sukses",
      });
      return statementsOf(() => processSupplierReport(h.deps, report.id));
    };
    await settle();
    const { result, n } = await settle();
    expect(result).toBe("order success");
    expect(n).toBe(BUDGET.reportSettled);
  });

  it("a batch of updates is stored, claimed and finished in one statement each", async () => {
    const db = h.deps.db;
    const updates = Array.from({ length: 20 }, (_, i) => ({
      update_id: 1000 + i,
      message: {
        message_id: i,
        date: 0,
        chat: { id: 500 + i, type: "private" as const, first_name: "Budi" },
        from: { id: 500 + i, is_bot: false, first_name: "Budi" },
        text: "/saldo",
      },
    }));
    const stored = await statementsOf(() => storeUpdates(db, 7, updates));
    const claimed = await statementsOf(() =>
      claimUpdates(db, { worker: "w", limit: 20, leaseMs: 30_000 }),
    );
    expect(claimed.result).toHaveLength(20);
    const finished = await statementsOf(() =>
      finishUpdates(db, { worker: "w", keys: claimed.result }),
    );
    expect(finished.result).toHaveLength(20);
    expect({ store: stored.n, claim: claimed.n, finish: finished.n }).toEqual(BUDGET.updateBatch);
  });
});

describe("statement budgets of updates through the bot (PostgreSQL)", () => {
  let database: TestDatabase;
  let telegram: RunningBotApiServer;
  let bot: KiosBot;
  let api: Api;
  let offset = 0;
  const botId = botIdOfToken(DEFAULT_BOT.token);

  beforeAll(async () => {
    database = await createTestDatabase({ onStatement: count });
    telegram = await startBotApiServer({ rateLimits: { enabled: false } });
    const logger = createLogger({ level: "silent" });
    const clock = new ManualClock();
    const db = database.handle.db;
    bot = createBot({
      token: DEFAULT_BOT.token,
      apiRoot: telegram.url,
      logger,
      db,
      clock,
      config: { adminIds: [], supplierTesting: false },
      orders: { db, supplier: createFakeSupplier(), clock, logger, testing: false },
    });
    await bot.init();
    api = new Api(DEFAULT_BOT.token, { apiRoot: telegram.url });
  });
  afterAll(async () => {
    await telegram?.close();
    await database?.destroy();
  });

  /** the statements of one user's text: stored, claimed, handled by the bot, finished */
  async function statementsOfText(userId: number, text: string) {
    const db = database.handle.db;
    telegram.sendText(userId, text);
    const updates = await api.getUpdates({ offset, timeout: 0 });
    offset = updates.at(-1)!.update_id + 1;
    await storeUpdates(db, botId, updates);
    const { result: claimed, n: claim } = await statementsOf(() =>
      claimUpdates(db, { worker: "w", limit: 1, leaseMs: 30_000 }),
    );
    const { n: handle } = await statementsOf(() => updateHandler(bot)(claimed[0]!));
    const { n: finish } = await statementsOf(() =>
      finishUpdates(db, { worker: "w", keys: claimed }),
    );
    return { claim, handle, finish };
  }

  it("a returning user's command and a flow's steps stay within their budgets", async () => {
    const user = 9_301;
    telegram.user(user, { first_name: "Rina" });
    await statementsOfText(user, "/start"); // the user's first contact: their row
    const measured = {
      start: await statementsOfText(user, "/start"),
      saldo: await statementsOfText(user, "/saldo"),
      enterFlow: await statementsOfText(user, "/deposit"),
      stepInFlow: await statementsOfText(user, "abc"),
      leaveFlow: await statementsOfText(user, "/cancel"),
    };
    expect(measured).toEqual(UPDATE_BUDGET);
  });
});

describe("statement budget of a worker's inbox drain (PostgreSQL)", () => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createTestDatabase({ onStatement: count });
  });
  afterAll(() => database?.destroy());

  /** the inbox's statements while one worker drains `n` updates of one chat, stored first */
  async function drainOneChat(n: number, firstId: number): Promise<number> {
    const db = database.handle.db;
    const chat = 700 + firstId;
    await storeUpdates(
      db,
      7,
      Array.from({ length: n }, (_, i) => ({
        update_id: firstId + i,
        message: {
          message_id: i,
          date: 0,
          chat: { id: chat, type: "private" as const, first_name: "Budi" },
          from: { id: chat, is_bot: false, first_name: "Budi" },
          text: "/saldo",
        },
      })),
    );
    const leases = createLeases(database.handle);
    let handled = 0;
    let allHandled!: () => void;
    const done = new Promise<void>((r) => {
      allHandled = r;
    });
    const drain = createInboxDrain({
      database: database.handle,
      leases,
      concurrency: 8,
      logger: createLogger({ level: "silent" }),
      // no upkeep and no idle poll inside the measured window: only what the updates cause
      leaseMs: 600_000,
      idleMs: 600_000,
      reclaimMs: 600_000,
      handle: async () => {
        if (++handled === n) allHandled();
        return { kind: "handled" };
      },
    });
    const { n: statements } = await statementsOf(async () => {
      await drain.start();
      await done;
      await drain.stop();
    });
    await leases.close();
    return statements - counted.filter((q) => !/telegram_updates/.test(q)).length;
  }

  it("each further update of a chat in hand costs one statement", async () => {
    const four = await drainOneChat(4, 10_000);
    const twelve = await drainOneChat(12, 20_000);
    expect((twelve - four) / 8).toBe(BUDGET.inboxPerFurtherUpdate);
  });
});

describe("statement budget of a signed H2H order (PostgreSQL)", () => {
  let h: H2hHarness;
  beforeAll(async () => {
    h = await bootH2h({ onStatement: count });
  });
  afterAll(() => h?.stop());

  it("an H2H order with an instant answer is stored, sent, settled and answered within its budget", async () => {
    const client = h.client(await h.reseller(1_000_000));
    const order = (i: number) =>
      // a number ending in 901: the sandbox answers it with a success at once
      client.order({
        cmd: "prepaid",
        code: "TSEL10",
        customerNo: `0812345${i}901`,
        refId: `b-${i}`,
      });
    await order(100); // the accounts, the statements prepared
    const { result, n } = await statementsOf(() => order(101));
    expect(result.outcome).toBe("accepted");
    expect(n).toBe(BUDGET.h2hOrder);
  });
});

describe("statement budget of an update the webhook's own process handles (PostgreSQL)", () => {
  let database: TestDatabase;
  let telegram: RunningBotApiServer;
  beforeAll(async () => {
    database = await createTestDatabase({ onStatement: count });
    telegram = await startBotApiServer({ rateLimits: { enabled: false } });
  });
  afterAll(async () => {
    await telegram?.close();
    await database?.destroy();
  });

  it("stores and claims in one statement and finishes in one: no wake-up, no claim of its own", async () => {
    const logger = createLogger({ level: "silent" });
    const clock = new ManualClock();
    const db = database.handle.db;
    const bot = createBot({
      token: DEFAULT_BOT.token,
      apiRoot: telegram.url,
      logger,
      db,
      clock,
      config: { adminIds: [], supplierTesting: false },
      orders: { db, supplier: createFakeSupplier(), clock, logger, testing: false },
    });
    await bot.init();
    const leases = createLeases(database.handle);
    let onHandled: (() => void) | undefined;
    const drain = createInboxDrain({
      database: database.handle,
      leases,
      handle: updateHandler(bot, { stateWithFinish: true }),
      concurrency: 8,
      logger,
      // no upkeep and no idle poll inside the measured window: only what the update causes
      leaseMs: 600_000,
      idleMs: 600_000,
      reclaimMs: 600_000,
      onResult: () => onHandled?.(),
    });
    await drain.start();
    const route = createTelegramWebhookRoute({
      secret: "s",
      path: "p",
      botId: botIdOfToken(DEFAULT_BOT.token),
      db,
      inbox: drain,
    });
    const user = 9_401;
    telegram.user(user, { first_name: "Sari" });
    telegram.sendText(user, "hai");
    /** one text POSTed, until the drain reports it handled */
    const textOf = async (updateId: number, text: string) => {
      const handled = new Promise<void>((r) => {
        onHandled = r;
      });
      const res = await route.request("/telegram/p", {
        method: "POST",
        headers: { "content-type": "application/json", [SECRET_HEADER]: "s" },
        body: JSON.stringify({
          update_id: updateId,
          message: {
            message_id: updateId,
            date: Math.floor(Date.now() / 1000),
            chat: { id: user, type: "private", first_name: "Sari" },
            from: { id: user, is_bot: false, first_name: "Sari" },
            text,
            ...(text.startsWith("/")
              ? { entities: [{ type: "bot_command", offset: 0, length: text.length }] }
              : {}),
          },
        }),
      });
      expect(res.status).toBe(200);
      await handled;
    };
    try {
      // the user's first contact (their row), and each statement prepared once
      for (const [i, text] of ["/start", "/deposit", "abc", "/cancel"].entries()) {
        await textOf(70_001 + i, text);
      }
      const start = await statementsOf(() => textOf(70_011, "/start"));
      const enter = await statementsOf(() => textOf(70_012, "/deposit"));
      const step = await statementsOf(() => textOf(70_013, "abc"));
      const leave = await statementsOf(() => textOf(70_014, "/cancel"));
      expect({ start: start.n, enter: enter.n, step: step.n, leave: leave.n }).toEqual({
        start: BUDGET.webhookInProcess,
        enter: BUDGET.webhookFlowStepInProcess,
        step: BUDGET.webhookFlowStepInProcess,
        leave: BUDGET.webhookFlowStepInProcess,
      });
      const texts = telegram
        .messages(user)
        .messages.filter((m) => m.sender === "bot")
        .map((m) => m.text ?? "");
      expect(texts.at(-1)).toBe("Dibatalkan.");
    } finally {
      await drain.stop();
      await leases.close();
    }
  });
});
