import type { products } from "../../db/schema.ts";
import type { ProductCmd, SupplierProduct } from "../../supplier/types.ts";
import { hasControlCharacters, plainText } from "../plain-text.ts";
import { canonicalCategory } from "./categories.ts";
import { operatorOfBrand } from "./operators.ts";

/** a supplier product as the sync writes it (snake_case: it travels as JSON into SQL) */
export interface IncomingProduct {
  code: string;
  name: string;
  category: string;
  brand: string;
  type: ProductCmd;
  operator: string | null;
  price: number;
  active: boolean;
  description: string;
  start_cut_off: string | null;
  end_cut_off: string | null;
}

/** a supplier product as a new products row (the sync's own upsert writes the same in SQL) */
export const productRowOf = (p: IncomingProduct) =>
  ({
    code: p.code,
    name: p.name,
    category: p.category,
    brand: p.brand,
    type: p.type,
    operator: p.operator,
    supplierPrice: p.price,
    active: p.active,
    listed: true,
    description: p.description,
    startCutOff: p.start_cut_off,
    endCutOff: p.end_cut_off,
  }) satisfies typeof products.$inferInsert;

export interface PreparedCatalogue {
  /** valid products, one per code, in the supplier's order */
  products: IncomingProduct[];
  /** how many valid products each list held */
  counts: Record<ProductCmd, number>;
  /** codes of records left out: malformed, or a code seen before */
  invalid: string[];
  duplicates: string[];
}

// the supplier's words without control characters: PostgreSQL refuses a NUL, and any of
// them stops a price-list picture from being drawn
const text = (v: unknown): string | null => (typeof v === "string" ? plainText(v.trim()) : null);
const optionalText = (v: unknown): string | null => {
  const s = text(v);
  return s ? s : null;
};

/**
 * checks and shapes the three lists. the type is the list a product came from, so that
 * unlisting (which works per list) and the stored type always agree.
 */
export function prepareCatalogue(lists: Record<ProductCmd, SupplierProduct[]>): PreparedCatalogue {
  const products: IncomingProduct[] = [];
  const counts: Record<ProductCmd, number> = { prepaid: 0, game: 0, pasca: 0 };
  const invalid: string[] = [];
  const duplicates: string[] = [];
  const seen = new Set<string>();

  for (const cmd of ["prepaid", "game", "pasca"] as const) {
    for (const raw of lists[cmd]) {
      const product = shape(raw, cmd);
      if (!product) {
        invalid.push(String((raw as { code?: unknown } | null)?.code ?? "?"));
        continue;
      }
      if (seen.has(product.code)) {
        duplicates.push(product.code);
        continue;
      }
      seen.add(product.code);
      products.push(product);
      counts[cmd] += 1;
    }
  }
  return { products, counts, invalid, duplicates };
}

function shape(raw: SupplierProduct, cmd: ProductCmd): IncomingProduct | null {
  if (typeof raw !== "object" || raw === null) return null;
  // a code is sent back to the supplier as it came: one holding a control character is
  // left out rather than changed
  if (typeof raw.code === "string" && hasControlCharacters(raw.code)) return null;
  const code = text(raw.code);
  const name = text(raw.name);
  const category = text(raw.category);
  const brand = text(raw.brand);
  // a price the database would refuse (or a fraction of a rupiah) must not abort the sync
  if (!code || name === null || category === null || brand === null) return null;
  if (!Number.isSafeInteger(raw.price) || raw.price < 0) return null;
  if (typeof raw.active !== "boolean") return null;
  return {
    code,
    name: name || code,
    category: canonicalCategory(category),
    brand,
    type: cmd,
    operator: cmd === "prepaid" ? operatorOfBrand(brand) : null,
    price: raw.price,
    active: raw.active,
    description: text(raw.desc) ?? "",
    start_cut_off: optionalText(raw.startCutOff),
    end_cut_off: optionalText(raw.endCutOff),
  };
}
