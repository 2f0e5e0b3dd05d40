import type { Clock } from "../clock.ts";
import type { Logger } from "../logger.ts";
import { explain } from "./codes.ts";
import { type SigningCredentials, signedBody } from "./signature.ts";
import { SupplierError } from "./types.ts";
import { type Envelope, envelopeSchema, parseFieldErrors } from "./wire.ts";

// one signed POST with a timeout, and the retry loop for reads. Everything that is not a
// usable envelope becomes a SupplierError here: TIMEOUT, TRANSPORT_ERROR, SERVER_ERROR,
// RATE_LIMITED, GONE or BAD_RESPONSE. The caller interprets the envelope's code.

export type SupplierPath = "/balance" | "/products" | "/order" | "/status";

export interface WireReply {
  httpStatus: number;
  /** the envelope, its message scrubbed of secrets */
  envelope: Envelope;
  /** VALIDATION_ERROR's `errors`, scrubbed */
  fieldErrors: Record<string, string[]> | undefined;
}

export interface WireOptions {
  /** ends in /v1 */
  baseUrl: string;
  credentials: SigningCredentials;
  timeoutMs: number;
  retryBaseMs: number;
  clock: Clock;
  fetch: typeof fetch;
  logger?: Logger | undefined;
  /** for tests: waiting between attempts, and the jitter source */
  sleep?: (ms: number) => Promise<void>;
  random?: () => number;
}

export interface Wire {
  /** retries: how many more attempts after the first (0 for anything that moves money) */
  post(path: SupplierPath, params: Record<string, unknown>, retries: number): Promise<WireReply>;
}

/** the longest Retry-After kios waits for inside one read */
const MAX_RETRY_AFTER_MS = 10_000;
const REDACTED = "[redacted]";

type Attempt =
  | { ok: true; reply: WireReply }
  | { ok: false; error: SupplierError; retryAfterMs?: number };

export function createWire(options: WireOptions): Wire {
  const { credentials, timeoutMs, clock, logger } = options;
  const sleep = options.sleep ?? ((ms: number) => new Promise((r) => setTimeout(r, ms)));
  const random = options.random ?? Math.random;

  // the supplier's text is shown to people; it must not carry back a secret it was sent
  const scrubber = (signature: string) => {
    const secrets = [credentials.apiKey, credentials.secretKey, signature].filter(
      (s) => s.length >= 4,
    );
    return (s: string) => secrets.reduce((out, secret) => out.split(secret).join(REDACTED), s);
  };

  async function attempt(
    path: SupplierPath,
    params: Record<string, unknown>,
    n: number,
  ): Promise<Attempt> {
    const started = performance.now();
    const body = signedBody(credentials, params, clock.now());
    const scrub = scrubber(String(body.signature));
    const signal = AbortSignal.timeout(timeoutMs);
    const where = `POST ${path}`;
    const log = (fields: Record<string, unknown>) =>
      logger?.debug(
        {
          path,
          cmd: params.cmd,
          ref_id: params.ref_id,
          attempt: n + 1,
          ms: Math.round(performance.now() - started),
          ...fields,
        },
        "supplier call",
      );

    let response: Response;
    let raw: string;
    try {
      response = await options.fetch(`${options.baseUrl}${path}`, {
        method: "POST",
        headers: {
          "content-type": "application/json; charset=utf-8",
          accept: "application/json",
        },
        body: JSON.stringify(body),
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
    const parsed = envelopeSchema.safeParse(json);
    const code = parsed.success ? parsed.data.code : undefined;
    // shown to people and logged by callers: short, and without our secrets
    const message = parsed.success ? scrub(parsed.data.message).slice(0, 500) : "";
    log({ http: httpStatus, code });

    // the code as sent, only when the body carried one (a proxy's 502 page carries none)
    const fault = (kind: "SERVER_ERROR" | "RATE_LIMITED" | "GONE") =>
      new SupplierError(
        kind,
        `${explain(kind)}${message ? ` (supplier: "${message}")` : ""} (HTTP ${httpStatus}, ${where})`,
        { httpStatus, ...(code ? { supplierCode: code } : {}) },
      );
    // a 5xx is a fault whatever its body says: never a definite answer about money
    if (httpStatus >= 500 || code === "SERVER_ERROR")
      return { ok: false, error: fault("SERVER_ERROR") };
    if (httpStatus === 429 || code === "RATE_LIMITED") {
      const retryAfterMs = retryAfter(response.headers.get("retry-after"));
      return {
        ok: false,
        error: fault("RATE_LIMITED"),
        ...(retryAfterMs !== undefined ? { retryAfterMs } : {}),
      };
    }
    if (httpStatus === 410 || code === "GONE") return { ok: false, error: fault("GONE") };
    if (!parsed.success) {
      return {
        ok: false,
        error: new SupplierError(
          "BAD_RESPONSE",
          `the supplier answered HTTP ${httpStatus} with a body that is not its JSON envelope (${where}; is SUPPLIER_BASE_URL right?)`,
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
    async post(path, params, retries) {
      for (let n = 0; ; n++) {
        const result = await attempt(path, params, n);
        if (result.ok) return result.reply;
        if (!result.error.retryable || n >= retries) throw result.error;
        // exponential backoff with "equal jitter": half fixed, half random
        const base = options.retryBaseMs * 2 ** n;
        let wait = base / 2 + random() * (base / 2);
        if (result.retryAfterMs !== undefined) {
          wait = Math.max(wait, Math.min(result.retryAfterMs, MAX_RETRY_AFTER_MS));
        }
        logger?.debug(
          { path, attempt: n + 1, code: result.error.code, waitMs: Math.round(wait) },
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
