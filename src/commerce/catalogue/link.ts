import { and, eq, inArray, sql } from "drizzle-orm";
import type { Database, Executor } from "../../db/client.ts";
import { productRoutes, products, unlinkedSupplierProducts } from "../../db/schema.ts";
import type { Logger } from "../../logger.ts";
import type { ProductCmd, Supplier, SupplierProduct } from "../../supplier/types.ts";
import { type IncomingProduct, prepareCatalogue, productRowOf } from "./incoming.ts";
import { productKey } from "./product-key.ts";
import { applyRouteOrder } from "./route-order.ts";
import { DEFAULT_FIRST_SUPPLIER } from "./routes.ts";
import { refreshRouteSale } from "./sale.ts";
import { mergeSearchIndex } from "./search.ts";
import { PRODUCT_CMDS, SYNC_LOCK } from "./sync.ts";

// links another supplier's products to kios products (docs/suppliers.md#linking): the same
// kind, brand, category and what the name says, each spelt one way (product-key.ts). One
// match: a route. Several: listed for an admin, never guessed. None: the supplier's product
// becomes a kios product of its own, with that one route, on sale like any. A link, once
// made, is kept across syncs (by the supplier's code), whatever its name becomes.

export interface LinkSummary {
  supplier: string;
  /** the supplier's products seen */
  total: number;
  /** routes made this time */
  linked: number;
  /** routes already there, their price and status refreshed */
  kept: number;
  /** products matching no kios product, left for an admin (a bill, a name saying nothing, two alike) */
  unmatched: number;
  /** products matching no kios product that became kios products of their own */
  created: number;
  /** products matching two or more: listed for an admin */
  ambiguous: number;
}

export async function linkSupplierCatalogue(
  db: Database,
  s: {
    name: string;
    supplier: Supplier;
    logger?: Logger | undefined;
    /** the first supplier's name (SUPPLIER_NAME), whose own route is the product row */
    firstSupplier?: string | undefined;
  },
): Promise<LinkSummary> {
  const first = s.firstSupplier ?? DEFAULT_FIRST_SUPPLIER;
  const log = s.logger?.child({ component: "catalogue" });
  const lists = {} as Record<ProductCmd, SupplierProduct[]>;
  for (const cmd of PRODUCT_CMDS) lists[cmd] = await s.supplier.products(cmd);
  const prepared = prepareCatalogue(lists);
  if (prepared.invalid.length + prepared.duplicates.length > 0) {
    log?.warn(
      {
        supplier: s.name,
        invalid: prepared.invalid.slice(0, 10),
        duplicates: prepared.duplicates.slice(0, 10),
      },
      "malformed or repeated supplier products left out of the linking",
    );
  }
  const listed = prepared.products;

  const summary: LinkSummary = {
    supplier: s.name,
    total: listed.length,
    linked: 0,
    kept: 0,
    unmatched: 0,
    created: 0,
    ambiguous: 0,
  };
  await db.transaction(async (tx) => {
    // one sync or link at a time: a product made here and the first supplier's sync that
    // would link to it must see each other
    await tx.execute(sql`select pg_advisory_xact_lock(${SYNC_LOCK})`);
    const kios = await tx
      .select({
        code: products.code,
        type: products.type,
        brand: products.brand,
        category: products.category,
        name: products.name,
        listed: products.listed,
      })
      .from(products);
    const takenCodes = new Set(kios.map((p) => p.code));
    // a product no longer listed is matched only where no listed one is: linking to it
    // puts it back on sale rather than making a second one beside it
    const listedByKey = new Map<string, string[]>();
    const unlistedByKey = new Map<string, string[]>();
    for (const p of kios) {
      const k = productKey(p);
      const byKey = p.listed ? listedByKey : unlistedByKey;
      if (k !== null) byKey.set(k, [...(byKey.get(k) ?? []), p.code]);
    }
    const candidatesOf = (key: string | null): string[] =>
      key === null ? [] : (listedByKey.get(key) ?? unlistedByKey.get(key) ?? []);
    const all = await tx
      .select({
        productCode: productRoutes.productCode,
        supplier: productRoutes.supplier,
        supplierCode: productRoutes.supplierCode,
        position: productRoutes.position,
      })
      .from(productRoutes);
    const mine = new Map(
      all.filter((r) => r.supplier === s.name).map((r) => [r.supplierCode, r] as const),
    );
    const takenProducts = new Set(
      all.filter((r) => r.supplier === s.name).map((r) => r.productCode),
    );
    // the first supplier's own route is position 0 (implicit): others come after it
    const lastPosition = new Map<string, number>();
    for (const r of all) {
      lastPosition.set(r.productCode, Math.max(lastPosition.get(r.productCode) ?? 0, r.position));
    }
    const now = new Date();
    const routeRows: (typeof productRoutes.$inferInsert)[] = [];
    const unlinked: (typeof unlinkedSupplierProducts.$inferInsert)[] = [];
    const linkedCodes: string[] = [];
    const waiting = (p: IncomingProduct, candidates: string[]) =>
      unlinked.push({
        supplier: s.name,
        supplierCode: p.code,
        name: p.name,
        brand: p.brand,
        category: p.category,
        candidates,
        cost: p.price,
        active: p.active,
        seenAt: now,
      });
    const route = (p: IncomingProduct, productCode: string, position: number) =>
      routeRows.push({
        productCode,
        supplier: s.name,
        supplierCode: p.code,
        name: p.name,
        cost: p.price,
        active: p.active,
        listed: true,
        position,
        createdAt: now,
        updatedAt: now,
      });
    // products no kios product matches, by key: one alone becomes a product of its own
    const unmatched = new Map<string, IncomingProduct[]>();
    for (const p of listed) {
      const known = mine.get(p.code);
      if (known) {
        summary.kept += 1;
        route(p, known.productCode, known.position);
        continue;
      }
      const key = productKey(p);
      const candidates = candidatesOf(key);
      if (candidates.length === 0) {
        // a bill is paid where it is asked (the inquiry binds it): never a product of its own
        if (key === null || p.type === "pasca") {
          summary.unmatched += 1;
          waiting(p, []);
        } else unmatched.set(key, [...(unmatched.get(key) ?? []), p]);
        continue;
      }
      const only = candidates.length === 1 ? candidates[0]! : undefined;
      if (!only || takenProducts.has(only)) {
        summary.ambiguous += 1;
        waiting(p, candidates);
        continue;
      }
      const position = (lastPosition.get(only) ?? 0) + 1;
      lastPosition.set(only, position);
      takenProducts.add(only);
      linkedCodes.push(p.code);
      summary.linked += 1;
      route(p, only, position);
    }
    const created: (typeof products.$inferInsert)[] = [];
    for (const alike of unmatched.values()) {
      const p = alike[0]!;
      // two of this supplier's products alike: which one is the product is not guessed
      const code = alike.length === 1 ? freeCode(p.code, s.name, takenCodes) : undefined;
      if (code === undefined) {
        summary.unmatched += alike.length;
        for (const q of alike) waiting(q, []);
        continue;
      }
      takenCodes.add(code);
      created.push({
        ...productRowOf(p),
        code,
        originSupplier: s.name,
        firstSeenAt: now,
        updatedAt: now,
        syncedAt: now,
      });
      linkedCodes.push(p.code);
      summary.created += 1;
      route(p, code, 0);
    }
    for (const chunk of chunks(created)) await tx.insert(products).values(chunk);
    for (const chunk of chunks(routeRows)) {
      await tx
        .insert(productRoutes)
        .values(chunk)
        .onConflictDoUpdate({
          target: [productRoutes.supplier, productRoutes.supplierCode],
          // a kept link keeps its product, position and switch: only the supplier's facts move
          set: {
            name: sql`excluded.name`,
            cost: sql`excluded.cost`,
            active: sql`excluded.active`,
            listed: true,
            updatedAt: now,
          },
        });
    }
    for (const chunk of chunks(unlinked)) {
      await tx
        .insert(unlinkedSupplierProducts)
        .values(chunk)
        .onConflictDoUpdate({
          target: [unlinkedSupplierProducts.supplier, unlinkedSupplierProducts.supplierCode],
          set: {
            name: sql`excluded.name`,
            candidates: sql`excluded.candidates`,
            cost: sql`excluded.cost`,
            active: sql`excluded.active`,
            seenAt: now,
          },
        });
    }
    for (const chunk of chunks(linkedCodes)) {
      await tx
        .delete(unlinkedSupplierProducts)
        .where(
          and(
            eq(unlinkedSupplierProducts.supplier, s.name),
            inArray(unlinkedSupplierProducts.supplierCode, chunk),
          ),
        );
    }
    // what this supplier no longer lists is not tried, but its link is kept; a list that
    // came back empty is taken for the supplier's fault, not for every product gone
    const seen = new Set(listed.map((p) => p.code));
    const emptyLists = new Set(PRODUCT_CMDS.filter((cmd) => prepared.counts[cmd] === 0));
    const typeOf = new Map(kios.map((p) => [p.code, p.type] as const));
    const gone = [...mine.values()]
      .filter((r) => !seen.has(r.supplierCode))
      .filter((r) => !emptyLists.has(typeOf.get(r.productCode) ?? "prepaid"))
      .map((r) => r.supplierCode);
    for (const chunk of chunks(gone)) {
      await tx
        .update(productRoutes)
        .set({ listed: false, updatedAt: now })
        .where(and(eq(productRoutes.supplier, s.name), inArray(productRoutes.supplierCode, chunk)));
    }
    await mirrorOriginRoutes(tx, s.name, now);
    await applyRouteOrder(tx, first);
    await refreshRouteSale(tx, first);
  });
  if (summary.created > 0) await mergeSearchIndex(db);
  log?.info({ ...summary }, "supplier catalogue linked");
  return summary;
}

/**
 * the code a product another supplier brought is sold by: that supplier's own code, upper
 * case (a quick order is matched upper case; the route keeps the supplier's spelling), or,
 * when a kios product holds it already, the code and the supplier's name; undefined when
 * both are taken or unfit for a quick order (2 to 32 letters, digits, - and _)
 */
function freeCode(code: string, supplier: string, taken: ReadonlySet<string>): string | undefined {
  const fits = (c: string) => /^[A-Z0-9_-]{2,32}$/.test(c) && !taken.has(c);
  const own = code.toUpperCase();
  if (fits(own)) return own;
  const suffixed = `${own}-${supplier.toUpperCase()}`.replace(/[^A-Z0-9_-]/g, "");
  return fits(suffixed) ? suffixed : undefined;
}

/**
 * a product another supplier brought shows that supplier's route on its own row (its price,
 * name and status), where lists, searches and price rules read them
 */
async function mirrorOriginRoutes(tx: Executor, supplier: string, now: Date): Promise<void> {
  await tx.execute(sql`
    update products p
    set supplier_price = r.cost, active = r.active, listed = r.listed, name = r.name,
      updated_at = ${now.toISOString()}::timestamptz, synced_at = ${now.toISOString()}::timestamptz
    from product_routes r
    where p.origin_supplier = ${supplier} and r.product_code = p.code and r.supplier = ${supplier}
      and (p.supplier_price, p.active, p.listed, p.name)
        is distinct from (r.cost, r.active, r.listed, r.name)`);
}

function* chunks<T>(rows: readonly T[], size = 500): Generator<T[]> {
  for (let i = 0; i < rows.length; i += size) yield rows.slice(i, i + size);
}
