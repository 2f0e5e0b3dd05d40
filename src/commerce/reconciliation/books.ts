import { type Column, type SQL, sql } from "drizzle-orm";

// whose books a reconciliation step keeps (docs/reconciliation.md#several-suppliers): each
// supplier has its own balance readings, top-ups and window chain. Attempts and routes name
// a supplier always; checks and top-ups store null for the first, so the rows written before
// there were several suppliers (and a renamed first) stay the first's.

export interface SupplierBook {
  /** the supplier's name, as attempts and routes store it */
  name: string;
  /** the first supplier (SUPPLIER_*): its checks and top-ups are stored with a null supplier */
  first: boolean;
}

/** the first supplier's name when nothing says otherwise (SUPPLIER_NAME's default) */
const DEFAULT_FIRST = "main";

/** the book of `name` (absent or null: the first) when the first is `firstSupplier` */
export function bookOf(firstSupplier: string | undefined, name?: string | null): SupplierBook {
  const first = firstSupplier ?? DEFAULT_FIRST;
  return name === undefined || name === null || name === first
    ? { name: first, first: true }
    : { name, first: false };
}

/** how checks and top-ups store the book's supplier */
export const bookKey = (book: SupplierBook): string | null => (book.first ? null : book.name);

/** a condition on a checks/top-ups `supplier` column: the row is this book's */
export function inBook(column: Column | string, book: SupplierBook): SQL {
  const col = typeof column === "string" ? sql.raw(column) : sql`${column}`;
  return book.first ? sql`${col} is null` : sql`${col} = ${book.name}::text`;
}
