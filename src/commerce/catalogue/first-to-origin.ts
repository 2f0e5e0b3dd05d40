import { sql } from "drizzle-orm";
import type { Executor } from "../../db/client.ts";
import { rowsOf } from "../../db/sql-rows.ts";
import type { ProductCmd } from "../../supplier/types.ts";
import type { IncomingProduct } from "./incoming.ts";
import { productKey } from "./product-key.ts";

// the first supplier's side of the products other suppliers brought (docs/suppliers.md#linking):
// a product that only a backup sold became a kios product of its own; when the first
// supplier lists it later, that listing becomes a route of the same kios product (by the
// linking key, one candidate only) instead of a second product. Such routes are kept by
// every sync like the product rows are.

export interface FirstToOrigin {
  /** the first supplier's codes kept as routes of products other suppliers brought */
  routed: Set<string>;
  /** routes made this time */
  linked: number;
  /** codes left out: held by a product another supplier brought that is not the same one */
  clashing: string[];
}

/**
 * splits the first supplier's listing: what is (or now becomes) a route of a product another
 * supplier brought is written here, as a route; the caller upserts the rest as products.
 * Routes of the types in `unlistTypes` the listing no longer holds are marked unlisted.
 */
export async function routeFirstToOrigins(
  tx: Executor,
  o: {
    incoming: readonly IncomingProduct[];
    unlistTypes: readonly ProductCmd[];
    firstSupplier: string;
    now: string;
  },
): Promise<FirstToOrigin> {
  const out: FirstToOrigin = { routed: new Set(), linked: 0, clashing: [] };
  const origins = rowsOf(
    await tx.execute(sql`
      select p.code, p.type, p.brand, p.category, p.name, p.listed,
        (select r.supplier_code from product_routes r
          where r.product_code = p.code and r.supplier = ${o.firstSupplier}) as first_code,
        (select coalesce(max(r.position), 0) from product_routes r
          where r.product_code = p.code)::int as last_position
      from products p where p.origin_supplier is not null`),
  ) as {
    code: string;
    type: string;
    brand: string;
    category: string;
    name: string;
    listed: boolean;
    first_code: string | null;
    last_position: number;
  }[];
  // the common case, a shop whose backups sell nothing the first supplier lacks
  if (origins.length === 0) return out;

  const byFirstCode = new Map(
    origins.filter((p) => p.first_code !== null).map((p) => [p.first_code!, p] as const),
  );
  const byCode = new Map(origins.map((p) => [p.code, p] as const));
  // those the first supplier has no route for yet; an unlisted one only where no listed one is
  const open = new Map<string, (typeof origins)[number][]>();
  const openUnlisted = new Map<string, (typeof origins)[number][]>();
  for (const p of origins) {
    const key = p.first_code === null ? productKey(p) : null;
    const into = p.listed ? open : openUnlisted;
    if (key !== null) into.set(key, [...(into.get(key) ?? []), p]);
  }
  const known = new Set(
    rowsOf(
      await tx.execute(sql`
        select p.code from products p
        where p.code in (select jsonb_array_elements_text(${JSON.stringify(o.incoming.map((p) => p.code))}::jsonb))`),
    ).map((r) => String(r.code)),
  );
  // the first supplier's new products by key: two alike link to nothing (never a guess)
  const newByKey = new Map<string, number>();
  const keyOf = new Map<string, string | null>();
  for (const p of o.incoming) {
    if (known.has(p.code) && !byCode.has(p.code)) continue;
    const key = p.type === "pasca" ? null : productKey(p);
    keyOf.set(p.code, key);
    if (key !== null) newByKey.set(key, (newByKey.get(key) ?? 0) + 1);
  }

  const rows: {
    product_code: string;
    supplier_code: string;
    name: string;
    cost: number;
    active: boolean;
    position: number;
  }[] = [];
  for (const p of o.incoming) {
    const kept = byFirstCode.get(p.code);
    if (kept) {
      out.routed.add(p.code);
      rows.push(routeRow(kept.code, p, 0));
      continue;
    }
    if (known.has(p.code) && !byCode.has(p.code)) continue;
    const key = keyOf.get(p.code) ?? null;
    const candidates = key === null ? [] : (open.get(key) ?? openUnlisted.get(key) ?? []);
    const only = candidates.length === 1 && newByKey.get(key!) === 1 ? candidates[0] : undefined;
    if (only) {
      open.delete(key!);
      openUnlisted.delete(key!);
      out.routed.add(p.code);
      out.linked += 1;
      rows.push(routeRow(only.code, p, only.last_position + 1));
    } else if (byCode.has(p.code)) {
      // its code is another supplier's product's, which is not this one: left out, said
      out.clashing.push(p.code);
    }
  }
  if (rows.length > 0) {
    // a kept route keeps its product, position and switch: only the supplier's facts move
    await tx.execute(sql`
      insert into product_routes as r (product_code, supplier, supplier_code, name, cost, active,
        listed, position, created_at, updated_at)
      select i.product_code, ${o.firstSupplier}, i.supplier_code, i.name, i.cost, i.active, true,
        i.position, ${o.now}::timestamptz, ${o.now}::timestamptz
      from jsonb_to_recordset(${JSON.stringify(rows)}::jsonb) as i(product_code text,
        supplier_code text, name text, cost bigint, active boolean, position int)
      on conflict (supplier, supplier_code) do update set name = excluded.name,
        cost = excluded.cost, active = excluded.active, listed = true,
        updated_at = excluded.updated_at
      where (r.name, r.cost, r.active, r.listed)
        is distinct from (excluded.name, excluded.cost, excluded.active, true)`);
  }
  if (o.unlistTypes.length > 0) {
    await tx.execute(sql`
      update product_routes r set listed = false, updated_at = ${o.now}::timestamptz
      from products p
      where p.code = r.product_code and p.origin_supplier is not null
        and r.supplier = ${o.firstSupplier} and r.listed
        and p.type in (select jsonb_array_elements_text(${JSON.stringify(o.unlistTypes)}::jsonb))
        and r.supplier_code not in (select jsonb_array_elements_text(${JSON.stringify([...out.routed])}::jsonb))`);
  }
  return out;
}

function routeRow(productCode: string, p: IncomingProduct, position: number) {
  return {
    product_code: productCode,
    supplier_code: p.code,
    name: p.name,
    cost: p.price,
    active: p.active,
    position,
  };
}
