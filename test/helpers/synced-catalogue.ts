import { createHash } from "node:crypto";
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { ManualClock } from "@kios/kit";
import {
  DEFAULT_SANDBOX_CREDENTIALS,
  type RunningSandbox,
  type SandboxOptions,
  startSandbox,
} from "@kios/supplier-sandbox";
import { linkSupplierCatalogue } from "../../src/commerce/catalogue/link.ts";
import { syncCatalogue } from "../../src/commerce/catalogue/sync.ts";
import type { Database } from "../../src/db/client.ts";
import { createLogger } from "../../src/logger.ts";
import { createSignatureSupplier } from "../../src/supplier/signature/client.ts";
import type { Supplier } from "../../src/supplier/types.ts";

// The commerce harness's boot is mostly its catalogue: a fresh database, the sandbox's
// 5,526 products synced, and with two suppliers the backup's 5,526 linked (seconds on
// PGlite, every test). That database is the same in every test that does not change what
// the sync reads, so the global setup builds it once (test/global-setup.ts) and such a test
// clones it (createTestDatabase({ catalogue })). What the clone holds is proved equal to a
// fresh sync by test/harness/synced-catalogue.test.ts.

/** a database as the harness leaves it: the main sandbox synced, and the backup linked */
export type SyncedCatalogue = "main" | "main+backup";
export const SYNCED_CATALOGUES: readonly SyncedCatalogue[] = ["main", "main+backup"];

/** the two-supplier harness's backup sandbox: its account, and what its catalogue is */
export const BACKUP_CREDENTIALS = {
  apiId: "BACKUP-ID",
  apiKey: "backup-api-key-1",
  secretKey: "backup-secret-key-1",
};
export const BACKUP_CATALOGUE = {
  seed: 2,
  catalogueVariant: { codePrefix: "B" },
} as const satisfies SandboxOptions;
/** the products the tests buy: the backup no dearer than the main, so its route is usable */
const BACKUP_MATCHED_CODES = ["TSEL10", "ISAT10", "XL25"];

/** the backup's prices of the products the tests buy set to the main's (before linking) */
export function matchBackupPrices(main: RunningSandbox, backup: RunningSandbox): void {
  for (const p of main.catalogue()) {
    if (BACKUP_MATCHED_CODES.includes(p.code)) backup.setPrice(`B${p.code}`, p.price);
  }
}

/**
 * the sandbox options that change nothing the sync or the link reads (the list, its
 * prices, codes and statuses): a harness whose options are only these may start from the
 * synced template. Anything else (seed, catalogue variant, faults, accounts, rate limit)
 * syncs afresh.
 */
const CATALOGUE_NEUTRAL: ReadonlySet<string> = new Set([
  "settleDelayMs",
  "slowReplyMs",
  "callbackRetryDelaysMs",
  "callbackTimeoutMs",
  "outcomes",
]);

export function catalogueNeutral(options: SandboxOptions | undefined): boolean {
  return Object.keys(options ?? {}).every((key) => CATALOGUE_NEUTRAL.has(key));
}

/**
 * what the synced templates depend on: the migrated schema, the sync and link code, the
 * sandboxes' catalogues and this file. Any source edit rebuilds them (a few seconds once),
 * so a stale template is never cloned.
 */
export function syncedCatalogueKey(schemaKey: string): string {
  const root = join(import.meta.dirname, "..", "..");
  const hash = createHash("sha256").update(schemaKey);
  const walk = (dir: string) => {
    for (const name of readdirSync(join(root, dir)).sort()) {
      const path = join(dir, name);
      if (statSync(join(root, path)).isDirectory()) walk(path);
      else if (name.endsWith(".ts")) hash.update(path).update(readFileSync(join(root, path)));
    }
  };
  for (const dir of ["src", "packages/supplier-sandbox/src", "packages/kit/src"]) walk(dir);
  hash.update(readFileSync(join(root, "test/helpers/synced-catalogue.ts")));
  return hash.digest("hex").slice(0, 12);
}

function signatureClient(
  sandbox: RunningSandbox,
  credentials: { apiId: string; apiKey: string; secretKey: string },
  clock: ManualClock,
): Supplier {
  return createSignatureSupplier({
    baseUrl: sandbox.url,
    ...credentials,
    clock,
    timeoutMs: 20_000,
    readRetries: 1,
    retryBaseMs: 20,
  });
}

/** brings a migrated database to what the harness's boot leaves (bootCommerce, bootTwoSuppliers) */
export async function syncHarnessCatalogue(db: Database, which: SyncedCatalogue): Promise<void> {
  const clock = new ManualClock();
  const logger = createLogger({ level: "silent" });
  const main = await startSandbox({ port: 0, clock });
  const backup =
    which === "main+backup"
      ? await startSandbox({
          port: 0,
          clock,
          ...BACKUP_CATALOGUE,
          accounts: [
            {
              apiId: BACKUP_CREDENTIALS.apiId,
              keys: [
                { apiKey: BACKUP_CREDENTIALS.apiKey, secretKey: BACKUP_CREDENTIALS.secretKey },
              ],
              balance: 5_000_000,
            },
          ],
        })
      : undefined;
  try {
    await syncCatalogue(db, signatureClient(main, DEFAULT_SANDBOX_CREDENTIALS, clock), {
      clock,
      logger,
    });
    if (backup) {
      matchBackupPrices(main, backup);
      await linkSupplierCatalogue(db, {
        name: "backup",
        supplier: signatureClient(backup, BACKUP_CREDENTIALS, clock),
      });
    }
  } finally {
    await backup?.close();
    await main.close();
  }
}
