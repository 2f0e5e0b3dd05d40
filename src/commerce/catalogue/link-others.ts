import type { Database } from "../../db/client.ts";
import type { Logger } from "../../logger.ts";
import type { Supplier } from "../../supplier/types.ts";
import { type LinkSummary, linkSupplierCatalogue } from "./link.ts";

// after a sync of the first supplier, every other supplier's catalogue is linked
// (docs/suppliers.md#linking), by the sync job and by `kios sync` alike.

export interface OthersLinked {
  linked: LinkSummary[];
  /** suppliers whose catalogue could not be read: their routes stay as they were */
  failed: { supplier: string; error: string }[];
}

export async function linkOtherSuppliers(
  db: Database,
  others: readonly { name: string; supplier: Supplier }[],
  logger: Logger,
  /** the first supplier's name (SUPPLIER_NAME), whose own route is the product row */
  firstSupplier?: string | undefined,
): Promise<OthersLinked> {
  const out: OthersLinked = { linked: [], failed: [] };
  for (const other of others) {
    try {
      out.linked.push(await linkSupplierCatalogue(db, { ...other, logger, firstSupplier }));
    } catch (err) {
      // one supplier down leaves its routes as they were; the others still link
      logger
        .child({ component: "catalogue-jobs" })
        .error({ err, supplier: other.name }, "linking a supplier's catalogue failed");
      out.failed.push({ supplier: other.name, error: (err as Error).message });
    }
  }
  return out;
}
