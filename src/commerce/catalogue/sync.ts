import { type Clock, systemClock } from "@kios/kit";
import { sql } from "drizzle-orm";
import type { Database, Executor } from "../../db/client.ts";
import { rowsOf, toNumber } from "../../db/sql-rows.ts";
import type { Logger } from "../../logger.ts";
import type { ProductCmd, Supplier, SupplierProduct } from "../../supplier/types.ts";
import { routeFirstToOrigins } from "./first-to-origin.ts";
import { type IncomingProduct, prepareCatalogue } from "./incoming.ts";
import { applyRouteOrder } from "./route-order.ts";
import { DEFAULT_FIRST_SUPPLIER } from "./routes.ts";
import { refreshRouteSale } from "./sale.ts";
import { mergeSearchIndex } from "./search.ts";

export const PRODUCT_CMDS: readonly ProductCmd[] = ["prepaid", "game", "pasca"];

/** the settings key holding the last successful sync's summary */
export const LAST_SYNC_SETTING = "catalogue.last_sync";

export interface SyncSummary {
  /** valid products the supplier listed (all three lists) */
  total: number;
  /** codes seen for the first time */
  added: number;
  /** known codes whose stored data changed (price, name, status, …) or that came back */
  changed: number;
  /** known codes with nothing to write */
  unchanged: number;
  /** products that could be sold before and can't now (unlisted, or now inactive) */
  deactivated: number;
  /** known products that couldn't be sold before and can now (re-listed, or active again) */
  reactivated: number;
  /** products newly marked listed=false because no list holds them any more */
  unlisted: number;
  /**
   * new products linked as routes of kios products another supplier brought (a product
   * only a backup sold, now listed here too): no second product
   */
  routed: number;
  /** rows written to price_changes */
  priceChanges: number;
  /** records left out: malformed, a code that appeared twice, or one another supplier's product holds */
  skipped: number;
  /** lists that came back empty while the table holds products of that type: nothing unlisted */
  suspiciousEmpty: ProductCmd[];
  /** wall-clock duration of the whole sync, fetches included */
  ms: number;
}

export interface SyncOptions {
  /** timestamps written (changed_at, updated_at, …); default: system time */
  clock?: Clock;
  logger?: Logger;
  /** products per upsert statement */
  chunkSize?: number;
  /** this supplier's name (SUPPLIER_NAME), whose own route is the product row; default "main" */
  firstSupplier?: string | undefined;
}

/** a sync that stopped before touching the catalogue */
export class CatalogueSyncError extends Error {
  override name = "CatalogueSyncError";
  constructor(
    message: string,
    readonly cmd: ProductCmd | undefined,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

// any constant: one sync at a time across processes (cli and job runner)
export const SYNC_LOCK = 7_240_118_301;

/**
 * fetches the supplier's three lists and brings `products` in line with them, in one
 * transaction and in bulk. A failed fetch aborts before the table is touched; an empty
 * list for a type the table still holds is taken for a supplier fault, not a wipe-out.
 */
export async function syncCatalogue(
  db: Database,
  supplier: Supplier,
  opts: SyncOptions = {},
): Promise<SyncSummary> {
  const started = performance.now();
  const clock = opts.clock ?? systemClock;
  const log = opts.logger?.child({ component: "catalogue-sync" });
  const chunkSize = Math.max(1, opts.chunkSize ?? 1000);

  const lists = await fetchAll(supplier);
  const prepared = prepareCatalogue(lists);
  if (prepared.invalid.length > 0) {
    log?.warn(
      { count: prepared.invalid.length, sample: prepared.invalid.slice(0, 10) },
      "malformed supplier products left out",
    );
  }
  if (prepared.duplicates.length > 0) {
    log?.warn(
      { count: prepared.duplicates.length, sample: prepared.duplicates.slice(0, 10) },
      "duplicate product codes: the first one is kept",
    );
  }

  const now = new Date(clock.now()).toISOString();
  const summary = await db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(${SYNC_LOCK})`);

    const first = opts.firstSupplier ?? DEFAULT_FIRST_SUPPLIER;
    const listedTypes = PRODUCT_CMDS.filter((cmd) => prepared.counts[cmd] > 0);
    // what is a route of a product another supplier brought is written as that route
    const toOrigins = await routeFirstToOrigins(tx, {
      incoming: prepared.products,
      unlistTypes: listedTypes,
      firstSupplier: first,
      now,
    });
    if (toOrigins.clashing.length > 0) {
      log?.warn(
        { count: toOrigins.clashing.length, sample: toOrigins.clashing.slice(0, 10) },
        "product codes held by another supplier's product: left out",
      );
    }
    const own =
      toOrigins.routed.size + toOrigins.clashing.length === 0
        ? prepared.products
        : prepared.products.filter(
            (p) => !toOrigins.routed.has(p.code) && !toOrigins.clashing.includes(p.code),
          );

    const totals = { added: 0, changed: 0, unchanged: 0, deactivated: 0, reactivated: 0 };
    let priceChanges = 0;
    for (let i = 0; i < own.length; i += chunkSize) {
      const chunk = await upsertChunk(tx, own.slice(i, i + chunkSize), now);
      totals.added += chunk.incoming - chunk.existing;
      totals.changed += chunk.written - (chunk.incoming - chunk.existing);
      totals.unchanged += chunk.existing - (chunk.written - (chunk.incoming - chunk.existing));
      totals.deactivated += chunk.deactivated;
      totals.reactivated += chunk.reactivated;
      priceChanges += chunk.priceChanges;
    }

    const suspiciousEmpty: ProductCmd[] = [];
    for (const cmd of PRODUCT_CMDS) {
      if (prepared.counts[cmd] > 0) continue;
      const listed = await countListed(tx, cmd);
      if (listed > 0) {
        suspiciousEmpty.push(cmd);
        log?.warn(
          { cmd, listed },
          "supplier returned no products of this type while the catalogue has some: nothing unlisted",
        );
      }
    }
    const gone = await unlistMissing(tx, prepared.products, listedTypes, now);
    await applyRouteOrder(tx, first);
    // a product the first supplier switched off may still sell through another route
    await refreshRouteSale(tx, first);

    const result: SyncSummary = {
      total: prepared.products.length,
      ...totals,
      routed: toOrigins.linked,
      deactivated: totals.deactivated + gone.wereSellable,
      unlisted: gone.unlisted,
      priceChanges,
      skipped: prepared.invalid.length + prepared.duplicates.length + toOrigins.clashing.length,
      suspiciousEmpty,
      ms: 0,
    };
    await tx.execute(sql`
      insert into settings (key, value, updated_at)
      values (${LAST_SYNC_SETTING}, ${JSON.stringify({ at: now, summary: result })}::jsonb, ${now})
      on conflict (key) do update set value = excluded.value, updated_at = excluded.updated_at`);
    return result;
  });

  if (summary.added + summary.changed > 0) await mergeSearchIndex(db);
  summary.ms = Math.round(performance.now() - started);
  log?.info(summary, "catalogue synced");
  return summary;
}

async function fetchAll(supplier: Supplier): Promise<Record<ProductCmd, SupplierProduct[]>> {
  const settled = await Promise.allSettled(PRODUCT_CMDS.map((cmd) => supplier.products(cmd)));
  const lists = {} as Record<ProductCmd, SupplierProduct[]>;
  settled.forEach((outcome, i) => {
    const cmd = PRODUCT_CMDS[i]!;
    if (outcome.status === "rejected") {
      const reason =
        outcome.reason instanceof Error ? outcome.reason.message : String(outcome.reason);
      throw new CatalogueSyncError(`fetching the ${cmd} products failed: ${reason}`, cmd, {
        cause: outcome.reason,
      });
    }
    if (!Array.isArray(outcome.value)) {
      throw new CatalogueSyncError(`the supplier's ${cmd} list is not a list`, cmd);
    }
    lists[cmd] = outcome.value;
  });
  return lists;
}

interface ChunkCounts {
  incoming: number;
  existing: number;
  written: number;
  priceChanges: number;
  deactivated: number;
  reactivated: number;
}

// one statement per chunk: every CTE sees the table as it was before the statement, so
// `previous` holds the old prices and states while `written` upserts only what changed.
async function upsertChunk(
  tx: Executor,
  chunk: IncomingProduct[],
  now: string,
): Promise<ChunkCounts> {
  const result = await tx.execute(sql`
    with incoming as (
      select * from jsonb_to_recordset(${JSON.stringify(chunk)}::jsonb) as i(
        code text, name text, category text, brand text, type text, operator text,
        price bigint, active boolean, description text, start_cut_off text, end_cut_off text)
    ),
    previous as (
      select p.code, p.supplier_price, p.active, p.listed
      from products p join incoming i on i.code = p.code
    ),
    written as (
      insert into products as p (
        code, name, category, brand, type, operator, supplier_price, active, listed,
        description, start_cut_off, end_cut_off, first_seen_at, updated_at, synced_at)
      select code, name, category, brand, type, operator, price, active, true,
        description, start_cut_off, end_cut_off,
        ${now}::timestamptz, ${now}::timestamptz, ${now}::timestamptz
      from incoming
      on conflict (code) do update set
        name = excluded.name, category = excluded.category, brand = excluded.brand,
        type = excluded.type, operator = excluded.operator,
        supplier_price = excluded.supplier_price, active = excluded.active, listed = true,
        description = excluded.description, start_cut_off = excluded.start_cut_off,
        end_cut_off = excluded.end_cut_off, updated_at = excluded.updated_at,
        synced_at = excluded.synced_at
      where not p.listed
        or (p.name, p.category, p.brand, p.type, p.operator, p.supplier_price, p.active,
            p.description, p.start_cut_off, p.end_cut_off)
          is distinct from
           (excluded.name, excluded.category, excluded.brand, excluded.type, excluded.operator,
            excluded.supplier_price, excluded.active, excluded.description,
            excluded.start_cut_off, excluded.end_cut_off)
      returning p.code
    ),
    priced as (
      insert into price_changes (product_code, old_price, new_price, changed_at)
      select v.code, v.supplier_price, i.price, ${now}::timestamptz
      from previous v join incoming i on i.code = v.code
      where v.supplier_price <> i.price
      returning product_code
    )
    select
      (select count(*) from incoming) as incoming,
      (select count(*) from previous) as existing,
      (select count(*) from written) as written,
      (select count(*) from priced) as price_changes,
      (select count(*) from previous v join incoming i on i.code = v.code
        where v.active and v.listed and not i.active) as deactivated,
      (select count(*) from previous v join incoming i on i.code = v.code
        where not (v.active and v.listed) and i.active) as reactivated`);
  const row = rowsOf(result)[0] ?? {};
  return {
    incoming: toNumber(row.incoming),
    existing: toNumber(row.existing),
    written: toNumber(row.written),
    priceChanges: toNumber(row.price_changes),
    deactivated: toNumber(row.deactivated),
    reactivated: toNumber(row.reactivated),
  };
}

async function countListed(tx: Executor, type: ProductCmd): Promise<number> {
  const result = await tx.execute(
    sql`select count(*) as n from products
      where type = ${type} and listed and origin_supplier is null`,
  );
  return toNumber(rowsOf(result)[0]?.n);
}

async function unlistMissing(
  tx: Executor,
  seen: IncomingProduct[],
  types: ProductCmd[],
  now: string,
): Promise<{ unlisted: number; wereSellable: number }> {
  if (types.length === 0) return { unlisted: 0, wereSellable: 0 };
  const result = await tx.execute(sql`
    with seen as (
      select jsonb_array_elements_text(${JSON.stringify(seen.map((p) => p.code))}::jsonb) as code
    ),
    gone as (
      update products p set listed = false, updated_at = ${now}::timestamptz,
        synced_at = ${now}::timestamptz
      where p.listed and p.origin_supplier is null
        and p.type in (select jsonb_array_elements_text(${JSON.stringify(types)}::jsonb))
        and not exists (select 1 from seen s where s.code = p.code)
      returning p.active
    )
    select count(*) as unlisted, count(*) filter (where active) as were_sellable from gone`);
  const row = rowsOf(result)[0] ?? {};
  return { unlisted: toNumber(row.unlisted), wereSellable: toNumber(row.were_sellable) };
}
