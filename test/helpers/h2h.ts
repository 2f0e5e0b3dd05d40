import { listen, type RunningServer } from "@kios/kit";
import { createSecretBox, type SecretBox } from "../../src/commerce/h2h/cipher.ts";
import { createKey, type IssuedKey } from "../../src/commerce/h2h/keys.ts";
import { createRateLimiter } from "../../src/h2h/rate-limit.ts";
import { createH2hRoutes, H2H_PREFIX, type H2hRouteDeps } from "../../src/h2h/routes.ts";
import { createSignatureSupplier } from "../../src/supplier/signature/client.ts";
import type { Supplier } from "../../src/supplier/types.ts";
import { bootCommerce, type CommerceHarness } from "./commerce.ts";

const TEST_H2H_SECRET = "test-h2h-encryption-key-0123456789abcdef";

export interface H2hHarness extends CommerceHarness {
  box: SecretBox;
  server: RunningServer;
  /** the base URL a client is configured with (…/h2h/v1) */
  baseUrl: string;
  /** a reseller with a wallet and a key */
  reseller(balance?: number): Promise<IssuedKey>;
  /** kios's own signature client, pointed at this kios's H2H API */
  client(key: IssuedKey, over?: Partial<Parameters<typeof createSignatureSupplier>[0]>): Supplier;
}

/** the commerce core (buying from the sandbox) with its H2H API on a real port */
export async function bootH2h(
  options: Parameters<typeof bootCommerce>[0] & { route?: Partial<H2hRouteDeps> } = {},
): Promise<H2hHarness> {
  const harness = await bootCommerce(options);
  const box = createSecretBox(TEST_H2H_SECRET);
  const app = createH2hRoutes({
    orders: harness.deps,
    box,
    clock: harness.clock,
    logger: harness.deps.logger,
    limiter: createRateLimiter(),
    ...options.route,
  });
  const server = await listen(app, 0, "127.0.0.1", { keepIdleConnections: true });
  const baseUrl = `http://127.0.0.1:${server.port}${H2H_PREFIX}`;
  return {
    ...harness,
    box,
    server,
    baseUrl,
    async reseller(balance = 1_000_000) {
      const userId = await harness.newUser(balance, "reseller");
      const issued = await createKey(harness.deps.db, box, userId);
      if (!issued.ok) throw new Error(issued.reason);
      return issued.key;
    },
    client(key, over = {}) {
      return createSignatureSupplier({
        baseUrl,
        apiId: key.apiId,
        apiKey: key.apiKey,
        secretKey: key.secretKey,
        clock: harness.clock,
        timeoutMs: 10_000,
        readRetries: 0,
        ...over,
      });
    },
    async stop() {
      await server.close();
      await harness.stop();
    },
  };
}
