import { type Supplier, SupplierError } from "./types.ts";

// a supplier whose refusals and failures are counted by code (the app's metrics), the
// calls themselves unchanged

export function countingErrors(supplier: Supplier, count: (code: string) => void): Supplier {
  const counted = async <T>(call: () => Promise<T>): Promise<T> => {
    try {
      const result = await call();
      // order and payBill answer a refusal instead of throwing it
      const error = (result as { error?: unknown } | undefined)?.error;
      if (error instanceof SupplierError) count(error.code);
      return result;
    } catch (err) {
      count(err instanceof SupplierError ? err.code : "ERROR");
      throw err;
    }
  };
  return {
    ...supplier,
    balance: () => counted(() => supplier.balance()),
    products: (cmd) => counted(() => supplier.products(cmd)),
    inquiry: (req) => counted(() => supplier.inquiry(req)),
    order: (req) => counted(() => supplier.order(req)),
    payBill: (req) => counted(() => supplier.payBill(req)),
    status: (refId, sent) => counted(() => supplier.status(refId, sent)),
  };
}
