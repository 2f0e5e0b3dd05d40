import type { Logger } from "../../logger.ts";
import { SupplierError } from "../types.ts";
import { errorCodeOfRc, explainKey } from "./codes.ts";
import type { Notices } from "./notices.ts";
import { type KeyEnvelope, keyEnvelopeSchema, parseFieldErrors } from "./wire.ts";

// one request of the key-based interface (Authorization: Bearer, no body signature) with a
// timeout, and the retry loop for reads. Everything that is not a usable envelope becomes
// a SupplierError here: TIMEOUT, TRANSPORT_ERROR, SERVER_ERROR, RATE_LIMITED, GONE or
// BAD_RESPONSE. The caller interprets the envelope's rc.

/** the endpoints, as logged and as named in deprecation notices */
export type KeyEndpoint =
  | "GET /v1/balance"
  | "GET /v1/products"
  | "POST /v1/transaction"
  | "GET /v1/transaction"
  | "GET /v1/transaction/{trx_id}"
  | "POST /v1/inquiry";

export interface KeyRequest {
  endpoint: KeyEndpoint;
  /** under the base URL, e.g. "/transaction/T123" */
  path: string;
  query?: Record<string, string>;
  /** POST only */
  body?: Record<string, unknown>;
}

export interface KeyReply {
  httpStatus: number;
  /** the envelope, its message scrubbed of the key */
  envelope: KeyEnvelope;
  /** VALIDATION_ERROR's `errors`, scrubbed */
  fieldErrors: Record<string, string[]> | undefined;
}

export interface KeyWireOptions {
  /** ends in /v1 */
  baseUrl: string;
  apiKey: string;
  timeoutMs: number;
  retryBaseMs: number;
  fetch: typeof fetch;
  logger?: Logger | undefined;
  notices: Notices;
  /** removes the key from text the supplier sent */
  scrub: (text: string) => string;
  /** for tests: waiting between attempts, and the jitter source */
  sleep?: (ms: number) => Promise<void>;
  random?: () => number;
}

export interface KeyWire {
  /** retries: how many more attempts after the first (0 for anything that moves money) */
  send(request: KeyRequest, retries: number): Promise<KeyReply>;
}

/** the longest Retry-After kios waits for inside one read */
const MAX_RETRY_AFTER_MS = 10_000;

type Attempt =
  | { ok: true; reply: KeyReply }
  | { ok: false; error: SupplierError; retryAfterMs?: number };

export function createKeyWire(options: KeyWireOptions): KeyWire {
  const { timeoutMs, logger, scrub } = options;
  const sleep = options.sleep ?? ((ms: number) => new Promise((r) => setTimeout(r, ms)));
  const random = options.random ?? Math.random;

  async function attempt(request: KeyRequest, n: number): Promise<Attempt> {
    const started = performance.now();
    const signal = AbortSignal.timeout(timeoutMs);
    const where = request.endpoint;
    const method = request.body ? "POST" : "GET";
    const query = request.query ? `?${new URLSearchParams(request.query).toString()}` : "";
    const log = (fields: Record<string, unknown>) =>
      logger?.debug(
        {
          endpoint: where,
          ref_id: request.body?.ref_id ?? request.query?.ref_id,
          attempt: n + 1,
          ms: Math.round(performance.now() - started),
          ...fields,
        },
        "supplier call",
      );

    let response: Response;
    let raw: string;
    try {
      response = await options.fetch(`${options.baseUrl}${request.path}${query}`, {
        method,
        headers: {
          authorization: `Bearer ${options.apiKey}`,
          accept: "application/json",
          ...(request.body ? { "content-type": "application/json; charset=utf-8" } : {}),
        },
        ...(request.body ? { body: JSON.stringify(request.body) } : {}),
        signal,
      });
      // the timeout covers reading the body too
      raw = await response.text();
    } catch (err) {
      if (signal.aborted) {
        log({ code: "TIMEOUT" });
        return {
          ok: false,
          error: new SupplierError(
            "TIMEOUT",
            `no answer from the supplier within ${timeoutMs} ms (${where})`,
          ),
        };
      }
      // only the error's code: a message could in theory quote what was sent
      const reason = transportReason(err);
      log({ code: "TRANSPORT_ERROR", reason });
      return {
        ok: false,
        error: new SupplierError(
          "TRANSPORT_ERROR",
          `could not reach the supplier (${where}): ${reason}`,
        ),
      };
    }

    const httpStatus = response.status;
    let json: unknown;
    try {
      json = JSON.parse(raw);
    } catch {
      json = undefined;
    }
    options.notices.observe(where, response.headers, json);
    const parsed = keyEnvelopeSchema.safeParse(json);
    const rc = parsed.success ? parsed.data.rc : undefined;
    const known = rc === undefined ? undefined : errorCodeOfRc(rc);
    // shown to people and logged by callers: short, and without the key
    const message = parsed.success ? scrub(parsed.data.message).slice(0, 500) : "";
    log({ http: httpStatus, rc });

    // the rc as sent, only when the body carried one (a proxy's 502 page carries none)
    const fault = (kind: "SERVER_ERROR" | "RATE_LIMITED" | "GONE") =>
      new SupplierError(
        kind,
        `${explainKey(kind)}${message ? ` (supplier: "${message}")` : ""} (HTTP ${httpStatus}${rc ? `, rc ${rc}` : ""}, ${where})`,
        { httpStatus, ...(rc ? { supplierCode: rc } : {}) },
      );
    // a 5xx is a fault whatever its body says: never a definite answer about money
    if (httpStatus >= 500 || known === "SERVER_ERROR") {
      return { ok: false, error: fault("SERVER_ERROR") };
    }
    if (httpStatus === 429 || known === "RATE_LIMITED") {
      const retryAfterMs = retryAfter(response.headers.get("retry-after"));
      return {
        ok: false,
        error: fault("RATE_LIMITED"),
        ...(retryAfterMs !== undefined ? { retryAfterMs } : {}),
      };
    }
    if (httpStatus === 410 || known === "GONE") return { ok: false, error: fault("GONE") };
    if (!parsed.success) {
      return {
        ok: false,
        error: new SupplierError(
          "BAD_RESPONSE",
          `the supplier answered HTTP ${httpStatus} with a body that is not its JSON envelope (${where}; is SUPPLIER_BASE_URL right, and does the account speak SUPPLIER_INTERFACE=key?)`,
          { httpStatus },
        ),
      };
    }
    const fieldErrors = parseFieldErrors(parsed.data.errors);
    if (fieldErrors) {
      for (const [field, list] of Object.entries(fieldErrors)) fieldErrors[field] = list.map(scrub);
    }
    return {
      ok: true,
      reply: { httpStatus, envelope: { ...parsed.data, message }, fieldErrors },
    };
  }

  return {
    async send(request, retries) {
      for (let n = 0; ; n++) {
        const result = await attempt(request, n);
        if (result.ok) return result.reply;
        if (!result.error.retryable || n >= retries) throw result.error;
        // exponential backoff with "equal jitter": half fixed, half random
        const base = options.retryBaseMs * 2 ** n;
        let wait = base / 2 + random() * (base / 2);
        if (result.retryAfterMs !== undefined) {
          wait = Math.max(wait, Math.min(result.retryAfterMs, MAX_RETRY_AFTER_MS));
        }
        logger?.debug(
          {
            endpoint: request.endpoint,
            attempt: n + 1,
            code: result.error.code,
            waitMs: Math.round(wait),
          },
          "supplier read failed; retrying",
        );
        await sleep(wait);
      }
    },
  };
}

function transportReason(err: unknown): string {
  const cause = (err as { cause?: { code?: unknown } } | undefined)?.cause;
  if (cause && typeof cause.code === "string") return cause.code;
  const own = (err as { code?: unknown } | undefined)?.code;
  if (typeof own === "string") return own;
  return err instanceof Error ? err.name : "fetch failed";
}

/** Retry-After in seconds (the HTTP-date form is rare for APIs and is ignored) */
function retryAfter(header: string | null): number | undefined {
  if (!header || !/^\s*\d+\s*$/.test(header)) return undefined;
  return Number(header) * 1000;
}
