import type { Supplier } from "../../supplier/types.ts";
import { SupplierError } from "../../supplier/types.ts";
import type { OrderEngine } from "../orders/engine.ts";
import { firstSupplierName } from "../orders/routing.ts";
import { type BalanceCheck, checkSupplierBalance, settleOpenOrders } from "./balance-check.ts";
import { bookOf, type SupplierBook } from "./books.ts";

// every supplier the engine buys from, checked one by one (the hourly job, /recon, kios
// recon): each with its own window chain and lock, so one supplier that can't be read
// leaves the others' checks as they are.

export interface SupplierAccount {
  book: SupplierBook;
  supplier: Supplier;
}

/** the engine's suppliers: the first, then the others in their configured order */
export function supplierAccounts(orders: OrderEngine): SupplierAccount[] {
  const first = firstSupplierName(orders);
  return [
    { book: bookOf(first), supplier: orders.supplier },
    ...[...(orders.suppliers ?? new Map<string, Supplier>())]
      .filter(([name]) => name !== first)
      .map(([name, supplier]) => ({ book: bookOf(first, name), supplier })),
  ];
}

/** one supplier by name (case-insensitive), or undefined with the names there are */
export function findSupplierAccount(
  orders: OrderEngine,
  name: string,
): { account: SupplierAccount | undefined; names: string[] } {
  const all = supplierAccounts(orders);
  const wanted = name.trim().toLowerCase();
  return {
    account: all.find((a) => a.book.name === wanted),
    names: all.map((a) => a.book.name),
  };
}

export type SupplierCheckResult =
  | { book: SupplierBook; check: BalanceCheck }
  /** its balance could not be read: nothing stored for it this time */
  | { book: SupplierBook; error: SupplierError };

/** checks these suppliers' balances (default: every one), one after another */
export async function checkSuppliers(
  orders: OrderEngine,
  o: { accounts?: readonly SupplierAccount[]; adminIds?: readonly number[] } = {},
): Promise<SupplierCheckResult[]> {
  const results: SupplierCheckResult[] = [];
  for (const { book, supplier } of o.accounts ?? supplierAccounts(orders)) {
    try {
      const check = await checkSupplierBalance({
        db: orders.db,
        supplier,
        book,
        clock: orders.clock,
        tolerance: orders.recon?.tolerance,
        lowBalance: orders.recon?.lowBalance,
        adminIds: o.adminIds ?? orders.adminIds,
        settleOpen: () => settleOpenOrders(orders, 5, book),
      });
      results.push({ book, check });
    } catch (err) {
      if (!(err instanceof SupplierError)) throw err;
      results.push({ book, error: err });
    }
  }
  return results;
}
