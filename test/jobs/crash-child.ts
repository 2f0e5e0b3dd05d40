// one kios process for test/jobs/crash.test.ts: the whole app (createApp) with a chat front
// end whose sends hang (KIOS_CHILD=hang) or are reported (KIOS_CHILD=record). It speaks JSON
// lines on stdout. The hanging one places two orders and queues a notification, then says
// when it holds a notify and an order-check job and a supplier report's claim, to be killed.
import { createApp } from "../../src/app/create-app.ts";
import { enqueueNotification } from "../../src/commerce/notifications/outbox.ts";
import { confirmQuote } from "../../src/commerce/orders/place.ts";
import { createQuote } from "../../src/commerce/orders/quotes.ts";
import { upsertUser } from "../../src/commerce/users.ts";
import { creditWallet } from "../../src/commerce/wallet/ledger.ts";
import { parseConfig } from "../../src/config.ts";
import { createLogger } from "../../src/logger.ts";

const mode = process.env.KIOS_CHILD;
const say = (event: Record<string, unknown>) => process.stdout.write(`${JSON.stringify(event)}\n`);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

const config = parseConfig({ ...process.env, PORT: "0" });
const logger = createLogger({
  level: process.env.CHILD_LOG_LEVEL ?? "warn",
  destination: process.stderr,
  pretty: false,
});
const app = await createApp({
  config,
  logger,
  bot: async () => ({
    async sendNotification(n) {
      if (mode === "hang") return new Promise(() => {});
      say({ event: "delivered", key: n.key, recovered: n.recovered });
      return "sent";
    },
    async start() {},
    async stop() {},
  }),
});
await app.start();
const started = Date.now();
say({ event: "ready", port: app.port });
const sql = (text: string, values?: unknown[]) => app.database.executeSql(text, values);

if (mode === "hang") {
  // the catalogue comes from the first sync job (a configured supplier is not synced inline)
  while (Number((await sql("select count(*)::int as n from products")).rows[0]?.n) === 0) {
    await sleep(200);
  }
  const orders = app.orders!;
  const user = 900_001;
  await upsertUser(orders.db, { telegramId: user, firstName: "Crash" });
  await creditWallet(orders.db, { userId: user, amount: 100_000, key: "crash:seed" });
  const placed: number[] = [];
  // 905: settled by polling only; 903: settled with a callback
  for (const destination of ["081234560905", "081234560903"]) {
    const q = await createQuote(orders, {
      userId: user,
      chatId: user,
      productCode: "TSEL10",
      destination,
    });
    if (!q.ok) throw new Error(q.reason);
    const r = await confirmQuote(orders, { quoteId: q.quote.id, userId: user });
    if (!r.ok) throw new Error(r.reason);
    placed.push(r.order.id);
  }
  await enqueueNotification(orders.db, {
    key: "held",
    chatId: user,
    payload: { type: "broadcast", text: "held by a process about to die" },
  });
  await orders.jobs!.kickNotifications();
  say({ event: "placed", orders: placed });
  for (;;) {
    const { rows } = await sql("select distinct name from pgboss.job where state = 'active'");
    const active = rows.map((r) => String(r.name));
    // a supplier report is held by the report drain's claim, not by a job
    const report = await sql(
      `select count(*)::int as n from supplier_reports
       where processed_at is null and claimed_by is not null and claimed_until > now()`,
    );
    if (Number(report.rows[0]?.n) > 0) active.push("supplier-report");
    if (["notify", "order-check", "supplier-report"].every((q) => active.includes(q))) {
      say({ event: "holding", active });
    }
    await sleep(200);
  }
} else {
  const orders = (process.env.CHILD_ORDERS ?? "").split(",").map(Number);
  const reported = new Set<string>();
  for (;;) {
    const { rows } = await sql(
      "select id, status from orders where id = any($1::bigint[]) and status in ('success', 'failed')",
      [orders],
    );
    for (const r of rows) {
      const key = `order:${r.id}`;
      if (!reported.has(key)) {
        reported.add(key);
        say({ event: "settled", order: Number(r.id), status: r.status, ms: Date.now() - started });
      }
    }
    const callbacks = await sql(
      "select count(*)::int as n from supplier_reports where processed_at is null",
    );
    const unprocessed = Number(callbacks.rows[0]?.n);
    if (unprocessed === 0 && !reported.has("callbacks")) {
      reported.add("callbacks");
      say({ event: "callbacks-processed", ms: Date.now() - started });
    }
    await sleep(200);
  }
}
