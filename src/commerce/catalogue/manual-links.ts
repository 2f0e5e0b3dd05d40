import { and, asc, eq, sql } from "drizzle-orm";
import type { Database, Executor } from "../../db/client.ts";
import { productRoutes, unlinkedSupplierProducts } from "../../db/schema.ts";
import { lockProduct } from "./routes.ts";
import { refreshRouteSale } from "./sale.ts";

// what the linking left to an admin (docs/suppliers.md#linking): another supplier's products
// that matched no kios product, or two or more equally. Nothing is guessed; an admin sees
// them (`/unlinked`, `kios routes --unlinked`) and links one by hand (`/link`, `kios routes
// <product> link <supplier> <code>`). A link made by hand is kept by later syncs like any.

export type UnlinkedProduct = typeof unlinkedSupplierProducts.$inferSelect;

/** the products left unlinked, one supplier's or all, ambiguous ones (with candidates) first */
export async function listUnlinked(
  exec: Executor,
  o: { supplier?: string | undefined; limit: number; offset?: number },
): Promise<{ items: UnlinkedProduct[]; total: number }> {
  const where = o.supplier ? eq(unlinkedSupplierProducts.supplier, o.supplier) : undefined;
  const [items, [count]] = await Promise.all([
    exec
      .select()
      .from(unlinkedSupplierProducts)
      .where(where)
      .orderBy(
        sql`jsonb_array_length(${unlinkedSupplierProducts.candidates}) = 0`,
        asc(unlinkedSupplierProducts.supplier),
        asc(unlinkedSupplierProducts.supplierCode),
      )
      .limit(o.limit)
      .offset(o.offset ?? 0),
    exec.select({ n: sql<number>`count(*)::int` }).from(unlinkedSupplierProducts).where(where),
  ]);
  return { items, total: Number(count?.n ?? 0) };
}

export type LinkByHandResult =
  | { ok: true; position: number }
  | {
      ok: false;
      reason: "no_product" | "not_unlinked" | "bill" | "has_route";
    };

/**
 * an admin links another supplier's product to a kios product: a route after the product's
 * others, with the supplier's cost and status as last synced. Refused for a product that
 * is not there, a supplier product not waiting for a link, a bill (bills stay at the first
 * supplier), or a kios product that already has a route at that supplier (one route per
 * supplier: disable or move that one instead).
 */
export async function linkByHand(
  db: Database,
  o: { productCode: string; supplier: string; supplierCode: string; firstSupplier: string },
): Promise<LinkByHandResult> {
  return db.transaction(async (tx) => {
    const product = await lockProduct(tx, o.productCode);
    if (!product) return { ok: false, reason: "no_product" } as const;
    const [waiting] = await tx
      .select()
      .from(unlinkedSupplierProducts)
      .where(
        and(
          eq(unlinkedSupplierProducts.supplier, o.supplier),
          eq(unlinkedSupplierProducts.supplierCode, o.supplierCode),
        ),
      )
      .for("update");
    if (!waiting) return { ok: false, reason: "not_unlinked" } as const;
    if (product.type === "pasca") return { ok: false, reason: "bill" } as const;
    const [existing] = await tx
      .select({ supplier: productRoutes.supplier })
      .from(productRoutes)
      .where(
        and(eq(productRoutes.productCode, product.code), eq(productRoutes.supplier, o.supplier)),
      );
    if (existing || o.supplier === o.firstSupplier) {
      return { ok: false, reason: "has_route" } as const;
    }
    const [last] = await tx
      .select({ position: sql<number>`coalesce(max(${productRoutes.position}), 0)::int` })
      .from(productRoutes)
      .where(eq(productRoutes.productCode, product.code));
    const position = Number(last?.position ?? 0) + 1;
    const now = new Date();
    await tx.insert(productRoutes).values({
      productCode: product.code,
      supplier: o.supplier,
      supplierCode: o.supplierCode,
      name: waiting.name,
      cost: waiting.cost,
      active: waiting.active,
      position,
      createdAt: now,
      updatedAt: now,
    });
    await tx
      .delete(unlinkedSupplierProducts)
      .where(
        and(
          eq(unlinkedSupplierProducts.supplier, o.supplier),
          eq(unlinkedSupplierProducts.supplierCode, o.supplierCode),
        ),
      );
    await refreshRouteSale(tx, o.firstSupplier, [product.code]);
    return { ok: true, position } as const;
  });
}
