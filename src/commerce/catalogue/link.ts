import { and, eq, inArray, sql } from "drizzle-orm";
import type { Database } from "../../db/client.ts";
import { productRoutes, products, unlinkedSupplierProducts } from "../../db/schema.ts";
import type { Logger } from "../../logger.ts";
import type { Supplier, SupplierProduct } from "../../supplier/types.ts";
import { DEFAULT_FIRST_SUPPLIER } from "./routes.ts";
import { refreshRouteSale } from "./sale.ts";
import { PRODUCT_CMDS } from "./sync.ts";

// links another supplier's products to kios products (docs/suppliers.md#linking): the same
// type, brand, category and normalised name. One match: a route; none or several: listed
// for an admin, never guessed. A link, once made, is kept across syncs (by the supplier's
// code), whatever its name becomes.

export interface LinkSummary {
  supplier: string;
  /** the supplier's products seen */
  total: number;
  /** routes made this time */
  linked: number;
  /** routes already there, their price and status refreshed */
  kept: number;
  /** products matching no kios product */
  unmatched: number;
  /** products matching two or more: listed for an admin */
  ambiguous: number;
}

/** "Telkomsel 10.000" and "TELKOMSEL  10000" are one name */
export function normalisedName(name: string): string {
  return name
    .toLowerCase()
    .replace(/(\d)[.,](?=\d{3}(\D|$))/g, "$1")
    .replace(/\s+/g, " ")
    .trim();
}

const keyOf = (p: { type: string; brand: string; category: string; name: string }) =>
  [
    p.type,
    p.brand.trim().toLowerCase(),
    p.category.trim().toLowerCase(),
    normalisedName(p.name),
  ].join("|");

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
  const listed: SupplierProduct[] = [];
  for (const cmd of PRODUCT_CMDS) listed.push(...(await s.supplier.products(cmd)));

  const kios = await db
    .select({
      code: products.code,
      type: products.type,
      brand: products.brand,
      category: products.category,
      name: products.name,
    })
    .from(products)
    .where(eq(products.listed, true));
  const byKey = new Map<string, string[]>();
  for (const p of kios) {
    const k = keyOf(p);
    byKey.set(k, [...(byKey.get(k) ?? []), p.code]);
  }

  const summary: LinkSummary = {
    supplier: s.name,
    total: listed.length,
    linked: 0,
    kept: 0,
    unmatched: 0,
    ambiguous: 0,
  };
  await db.transaction(async (tx) => {
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
    for (const p of listed) {
      const known = mine.get(p.code);
      let productCode = known?.productCode;
      let position = known?.position;
      if (known) {
        summary.kept += 1;
      } else {
        const candidates = byKey.get(keyOf(p)) ?? [];
        const only = candidates.length === 1 ? candidates[0]! : undefined;
        if (!only || takenProducts.has(only)) {
          if (candidates.length === 0) summary.unmatched += 1;
          else summary.ambiguous += 1;
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
          continue;
        }
        productCode = only;
        position = (lastPosition.get(only) ?? 0) + 1;
        lastPosition.set(only, position);
        takenProducts.add(only);
        linkedCodes.push(p.code);
        summary.linked += 1;
      }
      routeRows.push({
        productCode: productCode!,
        supplier: s.name,
        supplierCode: p.code,
        name: p.name,
        cost: p.price,
        active: p.active,
        listed: true,
        position: position!,
        createdAt: now,
        updatedAt: now,
      });
    }
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
    // what this supplier no longer lists is not tried, but its link is kept
    const seen = new Set(listed.map((p) => p.code));
    const gone = [...mine.keys()].filter((code) => !seen.has(code));
    for (const chunk of chunks(gone)) {
      await tx
        .update(productRoutes)
        .set({ listed: false, updatedAt: now })
        .where(and(eq(productRoutes.supplier, s.name), inArray(productRoutes.supplierCode, chunk)));
    }
    await refreshRouteSale(tx, s.firstSupplier ?? DEFAULT_FIRST_SUPPLIER);
  });
  s.logger?.child({ component: "catalogue" }).info({ ...summary }, "supplier catalogue linked");
  return summary;
}

function* chunks<T>(rows: readonly T[], size = 500): Generator<T[]> {
  for (let i = 0; i < rows.length; i += size) yield rows.slice(i, i + size);
}
