import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import type { Clock } from "@kios/kit";
import { ManualClock, verifyCallback } from "@kios/kit";
import {
  DEFAULT_SANDBOX_CREDENTIALS,
  type RunningSandbox,
  type SandboxOptions,
  startSandbox,
  type WireProduct,
} from "@kios/supplier-sandbox";
import { afterEach, expect } from "vitest";
import type { Logger } from "../../src/logger.ts";
import { createKeySupplier } from "../../src/supplier/key/client.ts";
import { parseSupplierReport } from "../../src/supplier/report.ts";
import { createSignatureSupplier } from "../../src/supplier/signature/client.ts";
import {
  type SubmitOutcome,
  type Supplier,
  SupplierError,
  type SupplierErrorCode,
  type SupplierTransaction,
  type TransactionStatus,
} from "../../src/supplier/types.ts";

// the client against the real sandbox over real HTTP, for either wire interface: the
// shared contract cases run once per interface, and each interface has its own extras.

const SECRET = DEFAULT_SANDBOX_CREDENTIALS.secretKey;

/** what a test may change about a client, whatever its interface */
export interface ClientOver {
  apiId?: string;
  apiKey?: string;
  secretKey?: string;
  clock?: Clock;
  timeoutMs?: number;
  readRetries?: number;
  retryBaseMs?: number;
  fetch?: typeof fetch;
  logger?: Logger;
}

export interface InterfaceKit {
  name: "signature" | "key";
  make(baseUrl: string, over: ClientOver): Supplier;
  /** the supplierCode a transaction answer carries */
  code(kind: "order" | "bill", status: TransactionStatus): string;
  /** what a key that was never issued is refused with */
  unknownKeyCode: SupplierErrorCode;
}

const KEY_RC: Record<TransactionStatus, string> = { success: "00", pending: "03", failed: "02" };

export const KITS: InterfaceKit[] = [
  {
    name: "signature",
    make: (baseUrl, over) =>
      createSignatureSupplier({ baseUrl, ...DEFAULT_SANDBOX_CREDENTIALS, ...over }),
    code: (kind, status) =>
      `${kind === "order" ? "ORDER" : "BILL_PAYMENT"}_${status.toUpperCase()}`,
    // a key never issued cannot be told from a wrong secret
    unknownKeyCode: "INVALID_SIGNATURE",
  },
  {
    name: "key",
    make: (baseUrl, { apiId: _id, secretKey: _secret, ...over }) =>
      createKeySupplier({ baseUrl, apiKey: DEFAULT_SANDBOX_CREDENTIALS.apiKey, ...over }),
    code: (_kind, status) => KEY_RC[status],
    unknownKeyCode: "INVALID_API_KEY",
  },
];

export const kitOf = (name: InterfaceKit["name"]): InterfaceKit =>
  KITS.find((k) => k.name === name)!;

export interface Booted {
  sandbox: RunningSandbox;
  supplier: Supplier;
  clock: ManualClock;
  /** a client with other credentials or options against the same sandbox */
  client(over?: ClientOver): Supplier;
}

const cleanups: (() => Promise<void>)[] = [];

/** registers the per-test cleanup; call once at the top of a test file */
export function cleanUpAfterEach(): void {
  afterEach(async () => {
    while (cleanups.length > 0) await cleanups.pop()!();
  });
}

export async function boot(
  kit: InterfaceKit,
  options: SandboxOptions = {},
  clientOptions: ClientOver = {},
): Promise<Booted> {
  // one clock for both sides, so moving it moves inquiry windows and timestamps together
  const clock = new ManualClock();
  const sandbox = await startSandbox({ port: 0, clock, settleDelayMs: 50, ...options });
  cleanups.push(() => sandbox.close());
  const client = (over: ClientOver = {}) =>
    kit.make(sandbox.url, {
      clock,
      retryBaseMs: 5,
      timeoutMs: 5000,
      ...clientOptions,
      ...over,
    });
  return { sandbox, supplier: client(), clock, client };
}

/** an active product of a type, outside any cut-off window */
export function productOf(
  sandbox: RunningSandbox,
  type: WireProduct["type"],
  code?: string,
): WireProduct {
  const found = sandbox
    .catalogue()
    .find(
      (p) =>
        p.type === type &&
        p.status === "active" &&
        !p.start_cut_off &&
        (code === undefined || p.code === code),
    );
  if (!found) throw new Error(`the sandbox has no active ${type} product ${code ?? ""}`);
  return found;
}

export function accepted(outcome: SubmitOutcome): SupplierTransaction {
  if (outcome.outcome !== "accepted") {
    throw new Error(`expected accepted, got ${JSON.stringify(outcome)}`);
  }
  return outcome.transaction;
}

export function rejectedWith(outcome: SubmitOutcome, code: SupplierErrorCode) {
  expect(outcome.outcome, JSON.stringify(outcome)).toBe("rejected");
  if (outcome.outcome === "rejected") expect(outcome.error.code).toBe(code);
}

export function unknownWith(outcome: SubmitOutcome, code: SupplierErrorCode) {
  expect(outcome.outcome, JSON.stringify(outcome)).toBe("unknown");
  if (outcome.outcome === "unknown") expect(outcome.error?.code).toBe(code);
}

export async function thrown(promise: Promise<unknown>): Promise<SupplierError> {
  try {
    await promise;
  } catch (err) {
    expect(err).toBeInstanceOf(SupplierError);
    return err as SupplierError;
  }
  throw new Error("expected a SupplierError");
}

/** a phone number whose last three digits pick the sandbox outcome */
export const phone = (ending: string) =>
  `0812345${String(Math.floor(Math.random() * 1000)).padStart(3, "0")}${ending}`;

export interface Received {
  raw: string;
  timestamp: string | undefined;
  signature: string | undefined;
}

/** the shop's callback endpoint: records every delivery and answers 200 */
export async function callbackReceiver(): Promise<{ url: string; received: Received[] }> {
  const received: Received[] = [];
  const server = createServer((req, res) => {
    let raw = "";
    req.setEncoding("utf8");
    req.on("data", (c) => {
      raw += c;
    });
    req.on("end", () => {
      received.push({
        raw,
        timestamp: req.headers["x-callback-timestamp"] as string | undefined,
        signature: req.headers["x-callback-signature"] as string | undefined,
      });
      res.writeHead(200).end("ok");
    });
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  cleanups.push(async () => {
    server.closeAllConnections();
    await new Promise<void>((r) => server.close(() => r()));
  });
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/callback`, received };
}

/** the callbacks for one ref_id, verified and parsed, in arrival order */
export function callbacksFor(received: Received[], refId: string, clock: ManualClock) {
  return received
    .filter((r) => r.raw.includes(`"${refId}"`))
    .map((r) => {
      expect(verifyCallback(SECRET, r.raw, r.timestamp, r.signature, clock.now())).toEqual({
        ok: true,
      });
      // a tampered body does not verify
      expect(verifyCallback(SECRET, `${r.raw} `, r.timestamp, r.signature, clock.now()).ok).toBe(
        false,
      );
      return parseSupplierReport(r.raw);
    });
}
