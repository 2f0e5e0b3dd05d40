import {
  DIGIFLAZZ_SANDBOX_ACCOUNT,
  type PrepaidItem,
  type RunningDigiflazzSandbox,
  startDigiflazzSandbox,
} from "@kios/digiflazz-sandbox";
import { linkSupplierCatalogue } from "../../src/commerce/catalogue/link.ts";
import type { OrderEngine } from "../../src/commerce/orders/engine.ts";
import { createDigiflazzSupplier } from "../../src/supplier/digiflazz/client.ts";
import type { Supplier } from "../../src/supplier/types.ts";
import { bootCommerce, type CommerceHarness } from "./commerce.ts";

// the commerce core with the seed-protocol sandbox first ("main") and the Digiflazz sandbox
// second ("backup", linked as routes): failover across protocols

export interface MainAndDigiflazz extends CommerceHarness {
  digiflazz: RunningDigiflazzSandbox;
  backup: Supplier;
  engine: OrderEngine;
  /** the bodies Digiflazz was sent for one ref_id */
  sentFor(refId: string): Record<string, unknown>[];
}

export async function bootMainAndDigiflazz(
  options: {
    /** the Digiflazz sandbox's prepaid list (default its own) */
    prepaid?: PrepaidItem[];
  } = {},
): Promise<MainAndDigiflazz> {
  const h = await bootCommerce({ sandbox: { settleDelayMs: 60 * 60_000 } });
  // settled by hand (digiflazz.settle), never by a timer
  const digiflazz = await startDigiflazzSandbox({
    clock: h.clock,
    settleDelayMs: 60 * 60_000,
    ...(options.prepaid ? { prepaid: options.prepaid } : {}),
  });
  // no dearer than the main for the product the tests buy, so its route is usable
  const main = h.sandbox.catalogue().find((p) => p.code === "TSEL10")!;
  digiflazz.setProduct("tsel10", { price: main.price });
  const backup = createDigiflazzSupplier({
    baseUrl: digiflazz.url,
    username: DIGIFLAZZ_SANDBOX_ACCOUNT.username,
    apiKey: DIGIFLAZZ_SANDBOX_ACCOUNT.apiKey,
    clock: h.clock,
    timeoutMs: 2_500,
    readRetries: 1,
    retryBaseMs: 20,
  });
  await linkSupplierCatalogue(h.deps.db, { name: "backup", supplier: backup });
  await h.supplier.balance();
  await backup.balance();
  const engine: OrderEngine = {
    ...h.deps,
    suppliers: new Map([["backup", backup]]),
    firstSupplier: "main",
  };
  return {
    ...h,
    digiflazz,
    backup,
    engine,
    sentFor: (refId) => digiflazz.state.requests.filter((b) => b.ref_id === refId),
    async stop() {
      await digiflazz.stop();
      await h.stop();
    },
  };
}
