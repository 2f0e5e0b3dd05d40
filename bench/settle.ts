// stored supplier reports settled per second: each report is checked against the supplier's
// /v1/status (here answering in `--status-ms`) and applied to its order, through the
// production report drain. kios as configured (SETTLE_CONCURRENCY, default 50) against the
// same drain settling one order at a time, interleaved; medians. Beside the rate, the
// statements the database handle sent per settled order (the drain's claims included), from
// the drain's start until every report is closed.
// run: npx tsx bench/settle.ts [--orders 600] [--status-ms 150] [--reps 3] [--concurrency 50]
//      PostgreSQL from BENCH_DATABASE_URL (default the local server)

import { randomBytes } from "node:crypto";
import { parseArgs } from "node:util";
import { ManualClock } from "@kios/kit";
import { DEFAULT_SANDBOX_CREDENTIALS } from "@kios/supplier-sandbox";
import postgres from "postgres";
import { syncCatalogue } from "../src/commerce/catalogue/sync.ts";
import { orderJobPort, registerCommerceJobs } from "../src/commerce/jobs.ts";
import { confirmQuote } from "../src/commerce/orders/place.ts";
import { createQuote } from "../src/commerce/orders/quotes.ts";
import { createSupplierReportDrain } from "../src/commerce/supplier-reports/drain.ts";
import { storeSupplierReport } from "../src/commerce/supplier-reports/inbox.ts";
import { upsertUser } from "../src/commerce/users.ts";
import { creditWallet } from "../src/commerce/wallet/ledger.ts";
import { openDatabase } from "../src/db/client.ts";
import { createJobRunner } from "../src/jobs/runner.ts";
import { createLogger } from "../src/logger.ts";
import { createSignatureSupplier } from "../src/supplier/index.ts";
import type { Supplier } from "../src/supplier/types.ts";
import { withDatabase } from "../test/helpers/postgres-url.ts";
import { startSandboxProcess } from "./sandbox-process.ts";
import { perUnit, printStatementsNote } from "./statements.ts";
import { median, printTable } from "./table.ts";

const { values } = parseArgs({
  options: {
    orders: { type: "string", default: "600" },
    "status-ms": { type: "string", default: "150" },
    reps: { type: "string", default: "3" },
    /** SETTLE_CONCURRENCY (kios's default: 50) */
    concurrency: { type: "string", default: "50" },
  },
});
const CONCURRENCY = Number(values.concurrency);
const ORDERS = Number(values.orders);
const STATUS_MS = Number(values["status-ms"]);
const REPS = Number(values.reps);
const SERVER_URL = process.env.BENCH_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";
const logger = createLogger({ level: "silent" });
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function settled(concurrency: number): Promise<{ perSecond: number; statements: number }> {
  const name = `kios_bench_${randomBytes(5).toString("hex")}`;
  const admin = postgres(SERVER_URL, { max: 1, onnotice: () => {} });
  await admin.unsafe(`create database ${name}`);
  const database = await openDatabase({ databaseUrl: withDatabase(SERVER_URL, name) });
  // the bench's own polling goes through a connection of its own, so the handle's count is
  // the settling worker's alone
  const watch = postgres(withDatabase(SERVER_URL, name), { max: 1, onnotice: () => {} });
  // the real time, as the sandbox's process has it
  const clock = new ManualClock();
  // pending until told otherwise; in a process of its own, as a supplier is another machine
  const sandbox = await startSandboxProcess({
    settleDelayMs: 3_600_000,
    rateLimitPerSecond: 100_000,
  });
  const jobs = createJobRunner({ database, logger });
  try {
    await database.migrate();
    const direct = createSignatureSupplier({
      baseUrl: sandbox.url,
      ...DEFAULT_SANDBOX_CREDENTIALS,
      clock,
    });
    await syncCatalogue(database.db, direct, { clock, logger });
    const supplier: Supplier = {
      ...direct,
      status: async (req) => {
        await sleep(STATUS_MS);
        return direct.status(req);
      },
    };
    const base = { db: database.db, supplier: direct, clock, logger, testing: false };
    // the orders, placed and left pending at the supplier
    const refs: string[] = [];
    for (let i = 0; i < ORDERS; i += 20) {
      await Promise.all(
        Array.from({ length: Math.min(20, ORDERS - i) }, async (_, k) => {
          const user = 500_000 + i + k;
          await upsertUser(database.db, { telegramId: user, firstName: `U${user}` });
          await creditWallet(database.db, { userId: user, amount: 100_000, key: `b:${user}` });
          const q = await createQuote(base, {
            userId: user,
            chatId: user,
            productCode: "TSEL10",
            destination: `08123${String(user).padStart(7, "0")}`,
          });
          if (!q.ok) throw new Error(`quote refused: ${q.reason}`);
          const placed = await confirmQuote(base, { quoteId: q.quote.id, userId: user });
          if (!placed.ok) throw new Error("not placed");
          refs.push(placed.order.refId);
        }),
      );
    }
    await sandbox.settleNow();
    const ids: number[] = [];
    for (const refId of refs) {
      const body = JSON.stringify({
        ref_id: refId,
        status: "Sukses",
        n: randomBytes(4).toString("hex"),
      });
      ids.push(
        (
          await storeSupplierReport(database.db, {
            rawBody: body,
            refId,
            reportedStatus: "success",
          })
        ).id,
      );
    }
    await jobs.start();
    await registerCommerceJobs({
      jobs,
      orders: { ...base, supplier, jobs: orderJobPort(jobs) },
      work: true,
      settleConcurrency: concurrency,
    });
    jobs.markReady();
    const drain = createSupplierReportDrain({
      database,
      leases: jobs.leases,
      orders: { ...base, supplier, jobs: orderJobPort(jobs) },
      concurrency,
      logger,
    });
    const statementsBefore = database.statements;
    const started = performance.now();
    // the reports wait stored, as a burst of callbacks leaves them: the drain takes them all
    await drain.start();
    for (;;) {
      const [open] = await watch<{ n: number }[]>`
        select count(*)::int as n from supplier_reports where processed_at is null`;
      if (open?.n === 0) break;
      await sleep(20);
    }
    const seconds = (performance.now() - started) / 1000;
    const statements = database.statements - statementsBefore;
    await drain.stop();
    const { rows } = await database.executeSql(
      "select count(*)::int as n from orders where status in ('success', 'failed')",
    );
    // the sandbox fails some numbers by their ending (its outcome table): final either way
    if (Number(rows[0]?.n) !== ORDERS) {
      const { rows: outcomes } = await database.executeSql(
        "select outcome, count(*)::int as n from supplier_reports group by outcome",
      );
      throw new Error(`only ${rows[0]?.n} orders settled: ${JSON.stringify(outcomes)}`);
    }
    return { perSecond: ORDERS / seconds, statements };
  } finally {
    await jobs.stop();
    await sandbox.close();
    await watch.end();
    await database.close();
    await admin.unsafe(`drop database if exists ${name} with (force)`);
    await admin.end();
  }
}

const now: { perSecond: number; statements: number }[] = [];
const one: { perSecond: number; statements: number }[] = [];
for (let rep = 0; rep < REPS; rep++) {
  now.push(await settled(CONCURRENCY));
  one.push(await settled(1));
  process.stderr.write(`rep ${rep + 1}/${REPS} done\n`);
}
const v = median(now.map((r) => r.perSecond));
const b = median(one.map((r) => r.perSecond));
const statementsOf = (runs: typeof now) => perUnit(median(runs.map((r) => r.statements)), ORDERS);
printTable(
  `stored supplier reports settled (status fetched back, applied), ${ORDERS} orders, supplier status ${STATUS_MS} ms; medians of ${REPS}`,
  ["worker", "settled/s", "statements/order", "vs one at a time", "goal", "met"],
  [
    [
      `${CONCURRENCY} orders at once`,
      v.toFixed(0),
      statementsOf(now),
      (v / b).toFixed(2),
      "≥ 200/s",
      v >= 200 ? "yes" : "no",
    ],
    ["one at a time", b.toFixed(0), statementsOf(one), "1.00", "", ""],
  ],
);
printStatementsNote("from the first job sent until every report was closed");
