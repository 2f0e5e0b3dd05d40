// PGlite statement benchmark: what one small statement costs kios on the embedded default,
// through drizzle as kios opens it (src/db/client.ts: the client without drizzle's
// per-query parsers, src/db/pglite-parsers.ts) against drizzle's own pglite driver on an
// equal PGlite, in the same run (interleaved repetitions, medians). Every PGlite statement
// waits for the one before it, so its fixed cost is the embedded shop's ceiling.
// Goal (issue 40, item 5): a statement costs less than drizzle's own driver.
// run: npx tsx bench/pglite-queries.ts [--reps 5] [--ops 2000]

import { parseArgs } from "node:util";
import { PGlite } from "@electric-sql/pglite";
import { eq, sql } from "drizzle-orm";
import { integer, pgTable, text, timestamp } from "drizzle-orm/pg-core";
import { drizzle } from "drizzle-orm/pglite";
import { openDatabase } from "../src/db/client.ts";
import { median, printTable } from "./table.ts";

const { values } = parseArgs({
  options: { reps: { type: "string", default: "5" }, ops: { type: "string", default: "2000" } },
});
const REPS = Number(values.reps);
const OPS = Number(values.ops);

const items = pgTable("bench_items", {
  id: integer("id").primaryKey(),
  name: text("name").notNull(),
  at: timestamp("at", { withTimezone: true }).notNull().defaultNow(),
});
const CREATE =
  "create table bench_items (id int primary key, name text not null, at timestamptz not null default now())";

type Db = ReturnType<typeof drizzle>;
async function side(db: Db, client: PGlite): Promise<Db> {
  await client.exec(CREATE);
  await db
    .insert(items)
    .values(Array.from({ length: 100 }, (_, id) => ({ id, name: `item ${id}` })));
  return db;
}

const stockClient = new PGlite();
const stock = await side(drizzle(stockClient), stockClient);
const kiosClient = new PGlite();
const handle = await openDatabase({ pglite: kiosClient });
const kios = await side(handle.db as unknown as Db, kiosClient);

let next = 1_000;
const work: Record<string, (db: Db, i: number) => Promise<unknown>> = {
  "select $1 (raw)": (db, i) => db.execute(sql`select ${i}::int as n`),
  "a row by its key (query builder)": (db, i) =>
    db
      .select()
      .from(items)
      .where(eq(items.id, i % 100)),
  "insert … returning": (db) =>
    db.insert(items).values({ id: next++, name: "new" }).returning({ id: items.id, at: items.at }),
  "a transaction of two statements": (db, i) =>
    db.transaction(async (tx) => {
      await tx
        .select()
        .from(items)
        .where(eq(items.id, i % 100));
      await tx
        .update(items)
        .set({ name: `seen ${i}` })
        .where(eq(items.id, i % 100));
    }),
};

async function perOp(db: Db, run: (db: Db, i: number) => Promise<unknown>): Promise<number> {
  const began = performance.now();
  for (let i = 0; i < OPS; i++) await run(db, i);
  return ((performance.now() - began) / OPS) * 1000;
}

const rows: string[][] = [];
for (const [name, run] of Object.entries(work)) {
  await perOp(stock, run); // warm both before timing
  await perOp(kios, run);
  const times = { kios: [] as number[], stock: [] as number[] };
  for (let rep = 0; rep < REPS; rep++) {
    // the order alternates, so neither side always runs on the warmer heap
    const order = rep % 2 === 0 ? (["stock", "kios"] as const) : (["kios", "stock"] as const);
    for (const which of order) times[which].push(await perOp(which === "kios" ? kios : stock, run));
  }
  const k = median(times.kios);
  const s = median(times.stock);
  rows.push([name, k.toFixed(0), s.toFixed(0), (k / s).toFixed(2), "< 1", k < s ? "yes" : "no"]);
}
printTable(
  `one statement on PGlite through drizzle: µs per statement (a transaction: per transaction), ${OPS} a repetition, medians of ${REPS}`,
  ["measure", "kios µs", "baseline µs (drizzle's own pglite driver)", "ratio", "goal", "met"],
  rows,
);
await handle.close();
await stockClient.close();
