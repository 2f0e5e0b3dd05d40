// the Mini App's search as you type, on the sandbox's 5,526 products, on PGlite (in memory)
// and PostgreSQL (a database of its own): every prefix of a few queries a buyer types, from
// two letters on ("fr", "fre", "free", … "free fire 140"), each a searchCatalogue call as the
// Mini App's API makes it (the first 20 at the customer price, with the total). Baselines in
// the same run: the same calls with the planner's index scans off (what the trigram index
// buys), and the floor, a product read by its code through the same pricing (a primary-key
// lookup: what any priced catalogue read costs). Interleaved repetitions; medians.
// run: npx tsx bench/catalogue-search.ts [--reps 5]; PostgreSQL from BENCH_DATABASE_URL
// (default the local server)

import { randomBytes } from "node:crypto";
import { parseArgs } from "node:util";
import { DEFAULT_SANDBOX_CREDENTIALS, startSandbox } from "@kios/supplier-sandbox";
import postgres from "postgres";
import { productByCode } from "../src/commerce/catalogue/queries.ts";
import { searchCatalogue } from "../src/commerce/catalogue/search.ts";
import { syncCatalogue } from "../src/commerce/catalogue/sync.ts";
import { type DatabaseHandle, openDatabase } from "../src/db/client.ts";
import { createSignatureSupplier } from "../src/supplier/index.ts";
import { withDatabase } from "../test/helpers/postgres-url.ts";
import { median, percentile, printTable } from "./table.ts";

const { values } = parseArgs({ options: { reps: { type: "string", default: "5" } } });
const REPS = Number(values.reps);
if (!(Number.isInteger(REPS) && REPS > 0)) throw new Error("--reps must be positive");
const SERVER_URL = process.env.BENCH_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";

const TYPED = ["free fire 140", "tsel 10", "telkomsel data 10gb 30", "gopay 50.000", "token pln"];
/** every prefix from two characters on: one search per key press */
const KEYSTROKES = TYPED.flatMap((q) =>
  Array.from({ length: q.length - 1 }, (_, i) => q.slice(0, i + 2)).filter((p) => !p.endsWith(" ")),
);
/** the goal: a key press costs at most this many product reads by code */
const GOAL = 2;

async function timed(fn: () => Promise<unknown>): Promise<number> {
  const start = performance.now();
  await fn();
  return performance.now() - start;
}

async function withoutIndexScans<T>(h: DatabaseHandle, fn: () => Promise<T>): Promise<T> {
  await h.executeSql("set enable_indexscan = off; set enable_bitmapscan = off;");
  try {
    return await fn();
  } finally {
    await h.executeSql("reset enable_indexscan; reset enable_bitmapscan;");
  }
}

interface Measured {
  search: number[];
  scan: number[];
  floor: number[];
}

async function measure(h: DatabaseHandle, into: Measured): Promise<void> {
  const search = (q: string) => searchCatalogue(h.db, { text: q, tier: "customer", limit: 20 });
  const sides: [keyof Measured, () => Promise<void>][] = [
    [
      "search",
      async () => {
        for (const q of KEYSTROKES) into.search.push(await timed(() => search(q)));
      },
    ],
    [
      "scan",
      () =>
        withoutIndexScans(h, async () => {
          for (const q of KEYSTROKES) into.scan.push(await timed(() => search(q)));
        }),
    ],
    [
      "floor",
      async () => {
        for (const _ of KEYSTROKES) {
          into.floor.push(await timed(() => productByCode(h.db, "FF140", { tier: "customer" })));
        }
      },
    ],
  ];
  // which side goes first rotates with each repetition
  const shift = into.search.length % sides.length;
  for (const [, run] of [...sides.slice(shift), ...sides.slice(0, shift)]) await run();
}

const sandbox = await startSandbox({ port: 0 });
const supplier = createSignatureSupplier({ baseUrl: sandbox.url, ...DEFAULT_SANDBOX_CREDENTIALS });
const name = `kios_bench_search_${randomBytes(4).toString("hex")}`;
const admin = postgres(SERVER_URL, { max: 1, onnotice: () => {} });
await admin.unsafe(`create database ${name}`);

const rows: string[][] = [];
try {
  for (const driver of ["pglite", "postgres"] as const) {
    // one connection, so the planner settings of the baseline apply to its queries
    const h =
      driver === "pglite"
        ? await openDatabase({ pgliteDir: "memory://" })
        : await openDatabase({ databaseUrl: withDatabase(SERVER_URL, name), maxConnections: 1 });
    try {
      await h.migrate();
      const summary = await syncCatalogue(h.db, supplier);
      await h.executeSql("analyze products");
      const m: Measured = { search: [], scan: [], floor: [] };
      await measure(h, { search: [], scan: [], floor: [] }); // warm-up, not counted
      for (let rep = 0; rep < REPS; rep++) await measure(h, m);
      const search = median(m.search);
      const floor = median(m.floor);
      const ratio = search / floor;
      rows.push([
        `${driver}, ${summary.total} products`,
        `${search.toFixed(2)} ms`,
        `${percentile(m.search, 95).toFixed(2)} ms`,
        `${median(m.scan).toFixed(2)} ms`,
        `${(median(m.scan) / search).toFixed(2)}×`,
        `${floor.toFixed(2)} ms`,
        ratio.toFixed(2),
        `≤ ${GOAL}`,
        ratio <= GOAL ? "yes" : "no",
      ]);
    } finally {
      await h.close();
    }
  }
} finally {
  await admin.unsafe(`drop database if exists ${name} with (force)`);
  await admin.end();
  await sandbox.close();
}

printTable(
  `catalogue search as you type: ${KEYSTROKES.length} key presses × ${REPS} (medians)`,
  [
    "database",
    "search",
    "p95",
    "no index",
    "index gain",
    "read by code",
    "vs read by code",
    "goal",
    "met",
  ],
  rows,
);
