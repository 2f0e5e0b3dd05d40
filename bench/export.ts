// export benchmark: a month of 100,000 orders written as CSV by `exportedOrders` +
// `exportFile` (a thousand orders a page, written as they come), against the naive export
// in the same run: every row read with one SELECT and the file built in memory. Measured:
// the time, and the heap the export keeps alive: every 100 ms a full GC, then the heap in use
// above where it started (so garbage not yet collected does not count). PostgreSQL from BENCH_DATABASE_URL (default the local server).
// run: npx tsx --expose-gc bench/export.ts [orders]

import { randomBytes } from "node:crypto";
import { Readable, Writable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { stringify } from "csv-stringify/sync";
import postgres from "postgres";
import { EXPORT_COLUMNS, exportedOrders, exportFile } from "../src/commerce/orders/export.ts";
import { openDatabase } from "../src/db/client.ts";
import { orders } from "../src/db/schema.ts";
import { withDatabase } from "../test/helpers/postgres-url.ts";
import { median, printTable } from "./table.ts";

const SIZE = Number(process.argv[2] ?? 100_000);
const REPS = 3;
const SERVER_URL = process.env.BENCH_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";
const gc = (globalThis as { gc?: () => void }).gc ?? (() => {});

const name = `kios_bench_${randomBytes(5).toString("hex")}`;
const admin = postgres(SERVER_URL, { max: 1, onnotice: () => {} });
await admin.unsafe(`create database ${name}`);
const database = await openDatabase({ databaseUrl: withDatabase(SERVER_URL, name) });
try {
  await database.migrate();
  await database.executeSql("insert into users (telegram_id) values (500)");
  await database.executeSql(`insert into products (code, name, category, brand, type, supplier_price, active)
    values ('TSEL10', 'Telkomsel 10.000', 'Pulsa', 'TELKOMSEL', 'prepaid', 10100, true)`);
  await database.executeSql(
    `insert into orders (ref_id, confirm_key, user_id, chat_id, kind, product_code, product_name,
       destination, price, cost, status, sn, created_at, updated_at)
     select 'K' || i, 'Q' || i, 500, 500, 'prepaid', 'TSEL10', 'Telkomsel 10.000',
       '0812' || lpad(i::text, 8, '0'), 10400, 10100,
       case when i % 7 = 0 then 'failed' else 'success' end,
       case when i % 7 = 0 then null else 'SN' || i end,
       timestamptz '2026-11-01 00:00+07' + (i || ' seconds')::interval,
       timestamptz '2026-11-01 00:00+07' + (i || ' seconds')::interval
     from generate_series(1, $1::int) as i`,
    [SIZE],
  );
  const period = { from: new Date("2026-10-31T17:00:00Z"), to: new Date("2026-11-30T17:00:00Z") };

  /** runs work while sampling the heap; the peak above the start, in MiB, and the time */
  async function measure(work: () => Promise<number>) {
    gc();
    const start = process.memoryUsage().heapUsed;
    let peak = start;
    const timer = setInterval(() => {
      gc();
      peak = Math.max(peak, process.memoryUsage().heapUsed);
    }, 100);
    const began = performance.now();
    const bytes = await work();
    const ms = performance.now() - began;
    clearInterval(timer);
    return { ms, mib: (peak - start) / 1024 / 1024, bytes };
  }
  const sink = () => {
    let bytes = 0;
    const w = new Writable({
      write(chunk: Buffer, _enc, done) {
        bytes += chunk.length;
        done();
      },
    });
    return { w, bytes: () => bytes };
  };

  const streamed = async () => {
    const s = sink();
    await pipeline(Readable.from(exportFile(exportedOrders(database.db, period), "csv")), s.w);
    return s.bytes();
  };
  // a quarter of the orders: if the heap needed does not grow with the file, memory is constant
  const quarter = { from: period.from, to: new Date(period.from.getTime() + SIZE * 250) };
  const streamedQuarter = async () => {
    const s = sink();
    await pipeline(Readable.from(exportFile(exportedOrders(database.db, quarter), "csv")), s.w);
    return s.bytes();
  };
  const naive = async () => {
    const rows = await database.db.select().from(orders);
    const text = stringify(
      rows.map((o) => ({ ...o, created_at: o.createdAt.toISOString() })),
      { header: true, columns: EXPORT_COLUMNS },
    );
    return Buffer.byteLength(text);
  };

  const runs: Record<string, { ms: number; mib: number; bytes: number }[]> = {
    streamed: [],
    quarter: [],
    naive: [],
  };
  for (let rep = 0; rep < REPS; rep++) {
    runs.streamed!.push(await measure(streamed));
    runs.quarter!.push(await measure(streamedQuarter));
    runs.naive!.push(await measure(naive));
  }
  const row = (label: string, key: string) => {
    const r = runs[key]!;
    return [
      label,
      (median(r.map((x) => x.ms)) / 1000).toFixed(2),
      median(r.map((x) => x.mib)).toFixed(1),
      (median(r.map((x) => x.bytes)) / 1024 / 1024).toFixed(1),
    ];
  };
  const ratio = median(runs.streamed!.map((x) => x.mib)) / median(runs.naive!.map((x) => x.mib));
  printTable(
    `a month of ${SIZE.toLocaleString("en")} orders as CSV, PostgreSQL (medians of ${REPS})`,
    ["export", "seconds", "live heap above start, MiB", "file MiB"],
    [
      row("kios: a page at a time, written as it goes", "streamed"),
      row("kios, a quarter of the orders (same memory: constant)", "quarter"),
      row("baseline: one SELECT, the file built in memory", "naive"),
      ["heap ratio (kios / baseline)", "", ratio.toFixed(3), ""],
    ],
  );
} finally {
  await database.close();
  await admin.unsafe(`drop database if exists ${name} with (force)`);
  await admin.end();
}
