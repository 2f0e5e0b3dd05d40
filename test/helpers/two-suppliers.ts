import { type RunningSandbox, startSandbox } from "@kios/supplier-sandbox";
import { eq } from "drizzle-orm";
import { linkSupplierCatalogue } from "../../src/commerce/catalogue/link.ts";
import type { OrderEngine } from "../../src/commerce/orders/engine.ts";
import { productRoutes, products } from "../../src/db/schema.ts";
import { createSignatureSupplier } from "../../src/supplier/signature/client.ts";
import type { Supplier } from "../../src/supplier/types.ts";
import {
  bootCommerce,
  type CommerceHarness,
  HARNESS_SLOW_REPLY_MS,
  HARNESS_SUPPLIER_TIMEOUT_MS,
} from "./commerce.ts";
import { patient } from "./patience.ts";
import { BACKUP_CATALOGUE, BACKUP_CREDENTIALS, matchBackupPrices } from "./synced-catalogue.ts";

// the commerce core with two sandbox suppliers: "main" (the first, its catalogue synced)
// and "backup" (its own codes, B + the main's, its own account), linked as routes.

export interface TwoSuppliers extends CommerceHarness {
  backupSandbox: RunningSandbox;
  backup: Supplier;
  /** the engine with both suppliers */
  engine: OrderEngine;
}

/**
 * the options of a describe whose tests each boot their own pair (bootTwoSuppliers inside
 * the test): a migrated database, two sandboxes and two catalogues took more than vitest's
 * 30 s on a busy machine (2 cores shared by several suites), and the test failed on its
 * boot, not on what it checks
 */
export const BOOTS_IN_EACH_TEST = { timeout: patient(120_000) } as const;

export async function bootTwoSuppliers(
  options: {
    settleDelayMs?: number;
    wrapMain?: (s: Supplier) => Supplier;
    /** the backup's own outcome table (an ending that fails at the main succeeds here) */
    backupOutcomes?: Readonly<Record<string, string>>;
    /** sync and link afresh, not from the synced template (the template's own test) */
    freshCatalogue?: boolean;
  } = {},
): Promise<TwoSuppliers> {
  const settleDelayMs = options.settleDelayMs ?? 60 * 60_000;
  // the main synced and the backup linked, cloned from the synced template: none of these
  // options changes a catalogue
  const h = await bootCommerce({
    sandbox: { settleDelayMs },
    catalogue: options.freshCatalogue ? "fresh" : "main+backup",
  });
  const backupSandbox = await startSandbox({
    port: 0,
    clock: h.clock,
    settleDelayMs,
    slowReplyMs: HARNESS_SLOW_REPLY_MS,
    callbackRetryDelaysMs: [50],
    ...BACKUP_CATALOGUE,
    ...(options.backupOutcomes ? { outcomes: options.backupOutcomes } : {}),
    accounts: [
      {
        apiId: BACKUP_CREDENTIALS.apiId,
        keys: [{ apiKey: BACKUP_CREDENTIALS.apiKey, secretKey: BACKUP_CREDENTIALS.secretKey }],
        balance: 5_000_000,
      },
    ],
  });
  matchBackupPrices(h.sandbox, backupSandbox);
  const backup = createSignatureSupplier({
    baseUrl: backupSandbox.url,
    ...BACKUP_CREDENTIALS,
    clock: h.clock,
    timeoutMs: HARNESS_SUPPLIER_TIMEOUT_MS,
    readRetries: 1,
    retryBaseMs: 20,
  });
  if (h.catalogueFrom !== "main+backup") {
    await linkSupplierCatalogue(h.deps.db, { name: "backup", supplier: backup });
  }
  // a slow start (PGlite holds the event loop) can leave an idle keep-alive socket the
  // sandbox has closed: a read (retried) opens fresh ones before an order is sent, which
  // is never retried and would be left unknown by a reset socket
  await h.supplier.balance();
  await backup.balance();
  const engine: OrderEngine = {
    ...h.deps,
    supplier: options.wrapMain ? options.wrapMain(h.supplier) : h.supplier,
    suppliers: new Map([["backup", backup]]),
    firstSupplier: "main",
  };
  return {
    ...h,
    backupSandbox,
    backup,
    engine,
    async stop() {
      await backupSandbox.close();
      await h.stop();
    },
  };
}

/**
 * a second kios product of the product's type, brand, category and name, its backup route
 * taken away: the backup's product then matches two kios products and is left for an admin
 */
export async function addTwinOf(h: TwoSuppliers, code: string): Promise<void> {
  const [p] = await h.deps.db.select().from(products).where(eq(products.code, code));
  if (!p) throw new Error(`no product ${code}`);
  await h.deps.db.delete(productRoutes).where(eq(productRoutes.supplierCode, `B${code}`));
  await h.deps.db.insert(products).values({
    code: `${code}-TWIN`,
    name: p.name,
    category: p.category,
    brand: p.brand,
    type: p.type,
    supplierPrice: p.supplierPrice,
    active: true,
  });
}
