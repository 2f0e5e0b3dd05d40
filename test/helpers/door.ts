import { createHash } from "node:crypto";
import { listen, type RunningServer } from "@kios/kit";
import { CENTER_PREFIX, createCenterRoutes } from "../../src/center/routes.ts";
import { createCenterKey, type IssuedCenterKey } from "../../src/commerce/center/keys.ts";
import { createSecretBox } from "../../src/commerce/h2h/cipher.ts";
import type { ClientAddress } from "../../src/h2h/client-address.ts";
import { createRateLimiter } from "../../src/h2h/rate-limit.ts";
import { bootCommerce, type CommerceHarness } from "./commerce.ts";

// the OtomaX-family door over real HTTP on the commerce harness, with a client of its own:
// its own signer (SHA-1, base64 made URL-safe by hand), its own query strings, and the one
// pattern docs/center.md gives for reading the replies. Shared by the door's test files.

/** docs/center.md's pattern (groups: refID, product, dest, status, SN, reason, price, balance) */
export const REPLY =
  /^R#(\S+) ([^.\s]+)\.(\S+) (SUKSES|GAGAL|PROSES)\.(?: SN: (.*?)\.)?(?: Alasan: (.*?)\.)?(?: Harga ([\d.]+)\.)? Saldo (-?[\d.]+)/;

/** the sign over `OtomaX|…` as the reseller's software computes it */
export function otomaxTestSign(parts: string[]): string {
  return createHash("sha1")
    .update(["OtomaX", ...parts].join("|"))
    .digest("base64")
    .replace(/\+/g, "-")
    .replace(/\//g, "_")
    .replace(/=+$/, "");
}

export const rupiah = (s: string) => Number(s.replace(/\./g, ""));
export const phone = (ending: string) =>
  `0812345${String(Math.floor(Math.random() * 1000)).padStart(3, "0")}${ending}`;

interface DoorTrx {
  product: string;
  dest: string;
  refId: string;
}

export interface DoorHarness {
  h: CommerceHarness;
  box: ReturnType<typeof createSecretBox>;
  /** the door's base URL (…/h2h/otomax) */
  base: string;
  /** a reseller with center credentials and this much in their wallet */
  reseller(balance?: number): Promise<IssuedCenterKey>;
  trxUrl(k: IssuedCenterKey, t: DoorTrx, extra?: Record<string, string>): string;
  balanceUrl(k: IssuedCenterKey, signWith?: string): string;
  get(
    url: string,
    headers?: Record<string, string>,
  ): Promise<{ status: number; text: string; type: string | null }>;
  stop(): Promise<void>;
}

export async function bootDoor(
  options: { clientAddress?: ClientAddress } = {},
): Promise<DoorHarness> {
  const h = await bootCommerce();
  const box = createSecretBox("test-h2h-encryption-key-0123456789abcdef");
  const app = createCenterRoutes({
    orders: h.deps,
    box,
    clock: h.clock,
    logger: h.deps.logger,
    limiter: createRateLimiter(),
    clientAddress: options.clientAddress,
  });
  const server: RunningServer = await listen(app, 0, "127.0.0.1", { keepIdleConnections: true });
  const base = `http://127.0.0.1:${server.port}${CENTER_PREFIX}`;
  return {
    h,
    box,
    base,
    async reseller(balance = 1_000_000) {
      const userId = await h.newUser(balance, "reseller");
      const made = await createCenterKey(h.deps.db, box, userId);
      if (!made.ok) throw new Error(made.reason);
      return made.key;
    },
    trxUrl(k, t, extra = {}) {
      const q = new URLSearchParams({
        memberID: k.memberId,
        product: t.product,
        dest: t.dest,
        refID: t.refId,
        sign: otomaxTestSign([k.memberId, t.product, t.dest, t.refId, k.pin, k.password]),
        ...extra,
      });
      return `${base}/trx?${q}`;
    },
    balanceUrl(k, signWith = k.password) {
      const q = new URLSearchParams({
        memberID: k.memberId,
        sign: otomaxTestSign([k.memberId, "", "", "", k.pin, signWith]),
      });
      return `${base}/balance?${q}`;
    },
    async get(url, headers) {
      const r = await fetch(url, headers ? { headers } : {});
      return { status: r.status, text: await r.text(), type: r.headers.get("content-type") };
    },
    async stop() {
      await server.close();
      await h.stop();
    },
  };
}
