// catalogue benchmark: the bulk sync against a naive row-by-row upsert, and the bot's
// catalogue queries with and without their indexes, on 20,000 products in in-memory PGlite.
// run: npx tsx bench/catalogue-sync.ts [products]

import { and, eq, sql } from "drizzle-orm";
import { prepareCatalogue, productRowOf } from "../src/commerce/catalogue/incoming.ts";
import { setMarkupRule } from "../src/commerce/catalogue/markup-rules.ts";
import { loadPricing } from "../src/commerce/catalogue/prices.ts";
import { sellingPrice } from "../src/commerce/catalogue/pricing.ts";
import {
  productByCode,
  productsByBrand,
  productsByOperator,
  searchProducts,
} from "../src/commerce/catalogue/queries.ts";
import { PRODUCT_CMDS, syncCatalogue } from "../src/commerce/catalogue/sync.ts";
import { type DatabaseHandle, openDatabase } from "../src/db/client.ts";
import { priceChanges, products } from "../src/db/schema.ts";
import { rowsOf } from "../src/db/sql-rows.ts";
import type { Supplier } from "../src/supplier/types.ts";
import { createFakeSupplier, generateCatalogue } from "../test/helpers/fake-supplier.ts";

const SIZE = Number(process.argv[2] ?? 20_000);

async function fresh(): Promise<DatabaseHandle> {
  const handle = await openDatabase({ pgliteDir: "memory://" });
  await handle.migrate();
  return handle;
}

async function timed<T>(fn: () => Promise<T>): Promise<[T, number]> {
  const start = performance.now();
  const value = await fn();
  return [value, performance.now() - start];
}

/** the obvious way: one select, then one insert or update (and price change) per product */
async function naiveSync(handle: DatabaseHandle, supplier: Supplier): Promise<void> {
  const lists = Object.fromEntries(
    await Promise.all(PRODUCT_CMDS.map(async (cmd) => [cmd, await supplier.products(cmd)])),
  );
  const { products: incoming } = prepareCatalogue(lists);
  await handle.db.transaction(async (tx) => {
    for (const p of incoming) {
      const [old] = await tx.select().from(products).where(eq(products.code, p.code));
      const row = productRowOf(p);
      if (!old) {
        await tx.insert(products).values(row);
        continue;
      }
      const same =
        old.name === row.name &&
        old.category === row.category &&
        old.brand === row.brand &&
        old.operator === row.operator &&
        old.supplierPrice === row.supplierPrice &&
        old.active === row.active &&
        old.listed &&
        old.description === row.description &&
        old.startCutOff === row.startCutOff &&
        old.endCutOff === row.endCutOff;
      if (same) continue;
      if (old.supplierPrice !== row.supplierPrice) {
        await tx.insert(priceChanges).values({
          productCode: p.code,
          oldPrice: old.supplierPrice,
          newPrice: row.supplierPrice,
        });
      }
      await tx.update(products).set(row).where(eq(products.code, p.code));
    }
    const seen = new Set(incoming.map((p) => p.code));
    const listed = await tx
      .select({ code: products.code })
      .from(products)
      .where(eq(products.listed, true));
    for (const { code } of listed) {
      if (!seen.has(code)) {
        await tx
          .update(products)
          .set({ listed: false })
          .where(and(eq(products.code, code), eq(products.listed, true)));
      }
    }
  });
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)]!;
}

async function latency(fn: () => Promise<unknown>, runs = 30): Promise<number> {
  for (let i = 0; i < 3; i++) await fn();
  const times: number[] = [];
  for (let i = 0; i < runs; i++) times.push((await timed(fn))[1]);
  return median(times);
}

const ms = (n: number) => `${n.toFixed(n < 10 ? 2 : 0)} ms`.padStart(10);
const ratio = (slow: number, fast: number) => `${(slow / fast).toFixed(1)}×`.padStart(7);

// ---- sync ----

const catalogue = generateCatalogue(SIZE, 42);
const changed = {
  ...catalogue,
  // 1 % new prices, 1 % dropped
  prepaid: catalogue.prepaid
    .filter((_, i) => i % 100 !== 1)
    .map((p, i) => (i % 100 === 0 ? { ...p, price: p.price + 100 } : p)),
};

console.log(`catalogue sync: ${SIZE} products, PGlite in memory\n`);
console.log(
  `${"".padEnd(30)}${"bulk".padStart(10)}${"row by row".padStart(12)}${"ratio".padStart(8)}`,
);

const bulkDb = await fresh();
const naiveDb = await fresh();
const steps: [string, typeof catalogue][] = [
  ["first sync (all new)", catalogue],
  ["second sync (nothing changed)", catalogue],
  ["third sync (1 % changed/gone)", changed],
];
for (const [label, lists] of steps) {
  const supplier = createFakeSupplier(lists);
  const [, bulk] = await timed(() => syncCatalogue(bulkDb.db, supplier));
  const [, naive] = await timed(() => naiveSync(naiveDb, supplier));
  console.log(
    `${label.padEnd(30)}${ms(bulk)}${ms(naive).padStart(12)}${ratio(naive, bulk).padStart(8)}`,
  );
}
await naiveDb.close();

// ---- queries ----

const db = bulkDb.db;
await setMarkupRule(db, { scope: "all", tier: "customer", percentBp: 200 });
await setMarkupRule(db, {
  scope: "brand",
  scopeValue: "TELKOMSEL",
  tier: "reseller",
  percentBp: 100,
});
await bulkDb.executeSql("analyze");

const withoutIndexes = async <T>(fn: () => Promise<T>): Promise<T> => {
  await bulkDb.executeSql("set enable_indexscan = off; set enable_bitmapscan = off;");
  try {
    return await fn();
  } finally {
    await bulkDb.executeSql("reset enable_indexscan; reset enable_bitmapscan;");
  }
};

/** the naive search: every sellable product into memory, filtered and priced in JS */
async function searchInMemory(text: string) {
  const words = text.toLowerCase().split(/\s+/);
  const [all, pricing] = await Promise.all([
    db
      .select()
      .from(products)
      .where(and(eq(products.active, true), eq(products.listed, true))),
    loadPricing(db),
  ]);
  return all
    .filter((p) =>
      words.every((w) => p.name.toLowerCase().includes(w) || p.code.toLowerCase().includes(w)),
    )
    .map((p) => ({ ...p, price: sellingPrice(pricing.rules, p, "customer", pricing.step) }))
    .filter((p) => p.price !== null)
    .sort((a, b) => a.price! - b.price!)
    .slice(0, 10);
}

const aCode = catalogue.game[0]!.code;
const queries: [string, () => Promise<unknown>, () => Promise<unknown>, string][] = [
  [
    "by operator (telkomsel pulsa)",
    () => productsByOperator(db, "telkomsel", "Pulsa", { tier: "customer" }),
    () => withoutIndexes(() => productsByOperator(db, "telkomsel", "Pulsa", { tier: "customer" })),
    "same query, indexes off",
  ],
  [
    "by brand (game FREE FIRE)",
    () => productsByBrand(db, "game", "FREE FIRE", { tier: "reseller" }),
    () => withoutIndexes(() => productsByBrand(db, "game", "FREE FIRE", { tier: "reseller" })),
    "same query, indexes off",
  ],
  [
    "by code",
    () => productByCode(db, aCode, { tier: "customer" }),
    () => withoutIndexes(() => productByCode(db, aCode, { tier: "customer" })),
    "same query, indexes off",
  ],
  [
    "search (telkomsel data 5gb)",
    () => searchProducts(db, "telkomsel data 5gb", { tier: "customer" }),
    () => searchInMemory("telkomsel data 5gb"),
    "load all, filter in JS",
  ],
];

// as the bot calls them: each call also reads the markup rules and the rounding step
console.log(`\nqueries (median of 30, first page of 10 with prices)\n`);
console.log(
  `${"".padEnd(30)}${"kios".padStart(10)}${"baseline".padStart(12)}${"ratio".padStart(8)}  baseline`,
);
for (const [label, fast, slow, what] of queries) {
  const a = await latency(fast);
  const b = await latency(slow);
  console.log(
    `${label.padEnd(30)}${ms(a)}${ms(b).padStart(12)}${ratio(b, a).padStart(8)}  ${what}`,
  );
}

const plan = rowsOf(
  await bulkDb.db.execute(
    sql`explain select * from products p where p.operator = 'telkomsel' and p.category = 'Pulsa'`,
  ),
)
  .map((r) => String(Object.values(r)[0]))
  .find((line) => /Index/.test(line));
console.log(`\nplan for by operator: ${plan?.trim() ?? "no index used"}`);
await bulkDb.close();
