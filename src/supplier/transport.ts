import type { z } from "zod";
import type { Logger } from "../logger.ts";
import { type CodeNaming, supplierSaid } from "./answers.ts";
import { createHttpCall, type HttpCallInit, type HttpReply, httpCallOf } from "./http-call.ts";
import type { Notices } from "./notices.ts";
import { SupplierError } from "./types.ts";

// one request to the supplier with a timeout, and the retry loop for reads, for both wire
// interfaces. Each builds its own request (a signed body, a Bearer header) and names its own
// envelope (a dialect); everything that is not a usable envelope becomes a SupplierError
// here: TIMEOUT, TRANSPORT_ERROR, SERVER_ERROR, RATE_LIMITED, GONE or BAD_RESPONSE. The
// caller interprets the envelope's code.

/** what the transport reads of every envelope */
export interface EnvelopeBase {
  message: string;
  errors?: unknown;
}

/** how one wire interface's envelope is read */
export interface Dialect<E extends EnvelopeBase> extends CodeNaming {
  schema: z.ZodType<E>;
  /** the answer code as sent (the signature interface's `code`, the key interface's `rc`) */
  codeOf(envelope: E): string;
  /** the kios code a sent code stands for, so a fault sent with HTTP 200 is still one */
  meaning(code: string): string | undefined;
  /** what to check when a body is not the envelope */
  hint: string;
}

/** one attempt's request, built afresh each time (a signature carries the time) */
interface BuiltRequest {
  url: string;
  init: Omit<HttpCallInit, "signal">;
  /** removes what this attempt sent that is secret from the supplier's text */
  scrub: (text: string) => string;
}

interface TransportRequest {
  /** names the call in errors and notices, e.g. "POST /balance", "GET /v1/balance" */
  where: string;
  /** fields of every log line about the call */
  logFields: Record<string, unknown>;
  /** further fields of each attempt's log line */
  attemptFields: Record<string, unknown>;
  build(): BuiltRequest;
}

export interface TransportReply<E> {
  httpStatus: number;
  /** the envelope, its message scrubbed of secrets */
  envelope: E;
  /** VALIDATION_ERROR's `errors`, scrubbed */
  fieldErrors: Record<string, string[]> | undefined;
}

export interface TransportSettings {
  timeoutMs: number;
  retryBaseMs: number;
  /** tests script the supplier with one; else node:http (http-call.ts) */
  fetch?: typeof fetch | undefined;
  logger?: Logger | undefined;
  /** deprecation warnings are looked for in every reply */
  notices?: Notices | undefined;
  /** for tests: waiting between attempts, and the jitter source */
  sleep?: (ms: number) => Promise<void>;
  random?: () => number;
}

export interface Transport<E> {
  /** retries: how many more attempts after the first (0 for anything that moves money) */
  send(request: TransportRequest, retries: number): Promise<TransportReply<E>>;
}

/** the longest Retry-After kios waits for inside one read */
const MAX_RETRY_AFTER_MS = 10_000;

type Attempt<E> =
  | { ok: true; reply: TransportReply<E> }
  | { ok: false; error: SupplierError; retryAfterMs?: number };

export function createTransport<E extends EnvelopeBase>(
  dialect: Dialect<E>,
  settings: TransportSettings,
): Transport<E> {
  const { timeoutMs, logger, notices } = settings;
  const sleep = settings.sleep ?? ((ms: number) => new Promise((r) => setTimeout(r, ms)));
  const random = settings.random ?? Math.random;
  const call = settings.fetch ? httpCallOf(settings.fetch) : createHttpCall();

  async function attempt(request: TransportRequest, n: number): Promise<Attempt<E>> {
    const started = performance.now();
    const { url, init, scrub } = request.build();
    const signal = AbortSignal.timeout(timeoutMs);
    const { where } = request;
    const log = (fields: Record<string, unknown>) =>
      logger?.debug(
        {
          ...request.logFields,
          ...request.attemptFields,
          attempt: n + 1,
          ms: Math.round(performance.now() - started),
          ...fields,
        },
        "supplier call",
      );

    let response: HttpReply;
    try {
      // the timeout covers reading the body too
      response = await call(url, { ...init, signal });
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
    const json = parseJson(response.text);
    notices?.observe(where, response.headers, json, scrub);
    const parsed = dialect.schema.safeParse(json);
    const code = parsed.success ? dialect.codeOf(parsed.data) : undefined;
    const known = code === undefined ? undefined : dialect.meaning(code);
    // shown to people and logged by callers: short, and without our secrets
    const message = parsed.success ? scrub(parsed.data.message).slice(0, 500) : "";
    log({ http: httpStatus, [dialect.noun]: code });

    // the code as sent, only when the body carried one (a proxy's 502 page carries none)
    const fault = (kind: "SERVER_ERROR" | "RATE_LIMITED" | "GONE") => {
      const note = code ? dialect.noteCode(code) : undefined;
      return new SupplierError(
        kind,
        `${dialect.explain(kind)}${supplierSaid(message)} (HTTP ${httpStatus}${note ? `, ${note}` : ""}, ${where})`,
        { httpStatus, supplierCode: code || undefined },
      );
    };
    // a 5xx is a fault whatever its body says: never a definite answer about money
    if (httpStatus >= 500 || known === "SERVER_ERROR") {
      return { ok: false, error: fault("SERVER_ERROR") };
    }
    if (httpStatus === 429 || known === "RATE_LIMITED") {
      const retryAfterMs = retryAfter(response.headers.get("retry-after"));
      return {
        ok: false,
        error: fault("RATE_LIMITED"),
        retryAfterMs,
      };
    }
    if (httpStatus === 410 || known === "GONE") return { ok: false, error: fault("GONE") };
    if (!parsed.success) {
      return {
        ok: false,
        error: new SupplierError(
          "BAD_RESPONSE",
          `the supplier answered HTTP ${httpStatus} with a body that is not its JSON envelope (${where}; ${dialect.hint})`,
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
        const base = settings.retryBaseMs * 2 ** n;
        let wait = base / 2 + random() * (base / 2);
        if (result.retryAfterMs !== undefined) {
          wait = Math.max(wait, Math.min(result.retryAfterMs, MAX_RETRY_AFTER_MS));
        }
        logger?.debug(
          {
            ...request.logFields,
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

/** the SupplierError details of a reply that is not the answer the caller asked for */
export function replyDetails(reply: TransportReply<unknown>): {
  httpStatus: number;
  errors?: Record<string, string[]>;
} {
  return {
    httpStatus: reply.httpStatus,
    errors: reply.fieldErrors,
  };
}

/** VALIDATION_ERROR's `errors: { field: [messages] }`, tolerating a bare string per field */
function parseFieldErrors(value: unknown): Record<string, string[]> | undefined {
  if (value === null || typeof value !== "object" || Array.isArray(value)) return undefined;
  const out: Record<string, string[]> = {};
  for (const [field, messages] of Object.entries(value)) {
    const list = Array.isArray(messages) ? messages : [messages];
    out[field] = list.filter((m): m is string => typeof m === "string");
  }
  return out;
}

function parseJson(raw: string): unknown {
  try {
    return JSON.parse(raw);
  } catch {
    return undefined;
  }
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
