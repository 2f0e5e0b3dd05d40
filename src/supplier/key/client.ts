import { type Clock, systemClock } from "../../clock.ts";
import { normaliseSupplierBaseUrl } from "../../config.ts";
import type { Logger } from "../../logger.ts";
import { REF_ID_PATTERN } from "../ref-id.ts";
import {
  type InquiryRequest,
  type OrderRequest,
  type PayBillRequest,
  type ProductCmd,
  type StatusResult,
  type SubmitOutcome,
  type Supplier,
  SupplierError,
  type SupplierTransaction,
} from "../types.ts";
import { toBalance } from "../wire.ts";
import {
  errorForRc,
  KEY_REFUSALS,
  RC_FAILED,
  RC_SUCCESS,
  RC_TRANSACTION_NOT_FOUND,
  transactionRc,
} from "./codes.ts";
import { createKeyWire, type KeyReply, type KeyRequest } from "./http.ts";
import { createNotices } from "./notices.ts";
import {
  failedFromRequest,
  type KeyTransactionContext,
  recordKind,
  toKeyInquiry,
  toKeyProducts,
  toKeyTransaction,
} from "./wire.ts";

// the key-based alternate interface of supplier-api.md (the newer release: customer_id,
// /v1/inquiry) behind kios's Supplier interface. Same rules as the signature adapter:
// reads retry what may pass; a transaction is sent exactly once and answers accepted /
// rejected / unknown; the key never reaches an error or a log.

export interface KeySupplierOptions {
  /** the document's {base_url}, ending in /v1 (completed when given without it) */
  baseUrl: string;
  apiKey: string;
  /** per request; default 15000 */
  timeoutMs?: number;
  /** further attempts of a read after the first; default 3 */
  readRetries?: number;
  /** first backoff step between read attempts; default 300 */
  retryBaseMs?: number;
  clock?: Clock;
  fetch?: typeof fetch;
  logger?: Logger;
}

export interface KeySupplier extends Supplier {
  readonly interface: "key";
  /** GET /v1/transaction/<trx_id>: a transaction by the supplier's own id */
  transactionById(trxId: string): Promise<StatusResult>;
  notices(): readonly string[];
}

const PRODUCT_KINDS: readonly string[] = ["prepaid", "game", "pasca"];
const REDACTED = "[redacted]";

type Identity = { refId: string; code: string; customerNo: string };

export function createKeySupplier(options: KeySupplierOptions): KeySupplier {
  const clock = options.clock ?? systemClock;
  const readRetries = options.readRetries ?? 3;
  const logger = options.logger?.child({ component: "supplier" });
  const { apiKey } = options;
  // the supplier's text is shown to people; it must not carry back the key it was sent
  const scrub = (s: string) => (apiKey.length >= 4 ? s.split(apiKey).join(REDACTED) : s);
  const notices = createNotices({ logger, scrub });
  const wire = createKeyWire({
    baseUrl: normaliseSupplierBaseUrl(options.baseUrl),
    apiKey,
    timeoutMs: options.timeoutMs ?? 15_000,
    retryBaseMs: options.retryBaseMs ?? 300,
    fetch: options.fetch ?? globalThis.fetch,
    logger,
    notices,
    scrub,
  });

  /** an answer that is not the success the caller asked for */
  const refusal = (reply: KeyReply) =>
    errorForRc(reply.envelope.rc, reply.envelope.message, {
      httpStatus: reply.httpStatus,
      ...(reply.fieldErrors ? { errors: reply.fieldErrors } : {}),
    });

  /** the transaction of an answer whose rc carries one (throws BAD_RESPONSE) */
  function transactionOf(
    reply: KeyReply,
    known: Partial<Identity>,
    kind?: "order" | "bill",
  ): SupplierTransaction {
    const { rc, message, data } = reply.envelope;
    const rcState = transactionRc(rc);
    if (!rcState) throw refusal(reply);
    const ctx: KeyTransactionContext = { rc, rcState, message, ...known };
    // a failed answer may come without its record (as the signature interface's bills do)
    if (rc === RC_FAILED && kind && (data === null || data === undefined)) {
      return failedFromRequest(kind, ctx);
    }
    return toKeyTransaction(data, ctx, kind);
  }

  async function read(request: KeyRequest): Promise<KeyReply> {
    return wire.send(request, readRetries);
  }

  async function submit(kind: "order" | "bill", request: Identity & { testing?: boolean }) {
    const invalid = invalidRequest(request);
    if (invalid) return { outcome: "rejected", error: invalid } satisfies SubmitOutcome;
    let reply: KeyReply;
    try {
      // money moves: exactly one attempt
      reply = await wire.send(
        {
          endpoint: "POST /v1/transaction",
          path: "/transaction",
          body: {
            product_code: request.code,
            customer_id: request.customerNo,
            ref_id: request.refId,
            ...(request.testing === true ? { testing: true } : {}),
          },
        },
        0,
      );
    } catch (err) {
      const error = asSupplierError(err);
      // 410 Gone is a definite refusal; anything else without an envelope may have gone through
      if (error.code === "GONE") return { outcome: "rejected", error } satisfies SubmitOutcome;
      return unknown(error);
    }
    const { rc, data } = reply.envelope;
    if (transactionRc(rc)) {
      const said = recordKind(data);
      if (said !== undefined && said !== kind) {
        return unknown(
          new SupplierError(
            "REF_ID_MISMATCH",
            `ref_id ${request.refId} belongs to ${kind === "order" ? "a bill payment" : "an order"} at the supplier (rc ${rc})`,
          ),
        );
      }
      let transaction: SupplierTransaction;
      try {
        transaction = transactionOf(reply, request, kind);
      } catch (err) {
        return unknown(asSupplierError(err));
      }
      const mismatch = identityMismatch(transaction, request);
      if (mismatch) return unknown(mismatch);
      return { outcome: "accepted", transaction } satisfies SubmitOutcome;
    }
    const error = refusal(reply);
    if (KEY_REFUSALS.has(error.code)) {
      return { outcome: "rejected", error } satisfies SubmitOutcome;
    }
    return unknown(error);
  }

  /** a lookup by ref_id or trx_id: the record, or { found: false } */
  async function lookup(request: KeyRequest, refId?: string): Promise<StatusResult> {
    const reply = await read(request);
    if (reply.envelope.rc === RC_TRANSACTION_NOT_FOUND) return { found: false };
    const transaction = transactionOf(reply, refId ? { refId } : {});
    if (refId !== undefined && transaction.refId !== refId) {
      throw new SupplierError(
        "REF_ID_MISMATCH",
        `asked the status of ref_id ${refId}, the supplier answered about ${transaction.refId}`,
      );
    }
    return { found: true, transaction };
  }

  return {
    interface: "key",

    async balance() {
      const reply = await read({ endpoint: "GET /v1/balance", path: "/balance" });
      if (reply.envelope.rc !== RC_SUCCESS) throw refusal(reply);
      return toBalance(reply.envelope.data);
    },

    async products(cmd: ProductCmd) {
      if (!PRODUCT_KINDS.includes(cmd)) {
        throw new SupplierError(
          "VALIDATION_ERROR",
          "not sent: type must be prepaid, game or pasca",
        );
      }
      const reply = await read({
        endpoint: "GET /v1/products",
        path: "/products",
        query: { type: cmd },
      });
      if (reply.envelope.rc !== RC_SUCCESS) throw refusal(reply);
      const { products, skipped } = toKeyProducts(reply.envelope.data, cmd);
      if (skipped > 0) logger?.warn({ cmd, skipped }, "supplier products skipped as malformed");
      return products;
    },

    order(request: OrderRequest) {
      if (request.cmd !== "prepaid" && request.cmd !== "game") {
        const error = new SupplierError(
          "VALIDATION_ERROR",
          "not sent: cmd must be prepaid or game",
          {
            errors: { cmd: ["must be prepaid or game"] },
          },
        );
        return Promise.resolve<SubmitOutcome>({ outcome: "rejected", error });
      }
      // the key interface has no cmd: the product code says what it is
      return submit("order", request);
    },

    payBill(request: PayBillRequest) {
      // the same endpoint as orders, with the inquiry's ref_id and the pasca product's code
      return submit("bill", request);
    },

    async inquiry(request: InquiryRequest) {
      const invalid = invalidRequest(request);
      if (invalid) throw invalid;
      // not money-moving, but not retried either: the caller asks again if it wants
      const reply = await wire.send(
        {
          endpoint: "POST /v1/inquiry",
          path: "/inquiry",
          body: {
            product_code: request.code,
            customer_id: request.customerNo,
            ref_id: request.refId,
          },
        },
        0,
      );
      if (reply.envelope.rc !== RC_SUCCESS) throw refusal(reply);
      const result = toKeyInquiry(reply.envelope.data, request, clock.now());
      const mismatch = identityMismatch(result, request);
      if (mismatch) throw mismatch;
      return result;
    },

    async status(refId: string): Promise<StatusResult> {
      if (!REF_ID_PATTERN.test(refId)) {
        throw new SupplierError("VALIDATION_ERROR", "not sent: ref_id is empty or malformed");
      }
      return lookup(
        { endpoint: "GET /v1/transaction", path: "/transaction", query: { ref_id: refId } },
        refId,
      );
    },

    async transactionById(trxId: string): Promise<StatusResult> {
      // a path segment: no slashes, and never only dots (fetch would resolve "..")
      if (!/^(?=.*[A-Za-z0-9])[A-Za-z0-9._-]{1,64}$/.test(trxId)) {
        throw new SupplierError("VALIDATION_ERROR", "not sent: trx_id is empty or malformed");
      }
      const result = await lookup({
        endpoint: "GET /v1/transaction/{trx_id}",
        path: `/transaction/${encodeURIComponent(trxId)}`,
      });
      if (result.found && result.transaction.trxId && result.transaction.trxId !== trxId) {
        throw new SupplierError(
          "REF_ID_MISMATCH",
          `asked for trx_id ${trxId}, the supplier answered about ${result.transaction.trxId}`,
        );
      }
      return result;
    },

    notices: () => notices.list(),
  };
}

function unknown(error: SupplierError): SubmitOutcome {
  return { outcome: "unknown", reason: error.message, error };
}

function asSupplierError(err: unknown): SupplierError {
  if (err instanceof SupplierError) return err;
  // a bug or an injected fetch's surprise: its message is not trusted to be secret-free
  return new SupplierError(
    "TRANSPORT_ERROR",
    `supplier call failed unexpectedly (${err instanceof Error ? err.name : typeof err})`,
  );
}

/** what kios checks before sending: a ref_id it can look up later, a product, a destination */
function invalidRequest(request: Identity): SupplierError | undefined {
  const errors: Record<string, string[]> = {};
  if (typeof request.refId !== "string" || !REF_ID_PATTERN.test(request.refId)) {
    errors.ref_id = ["must be 1 to 64 characters of A-Z, a-z, 0-9, . _ / -"];
  }
  if (typeof request.code !== "string" || request.code.trim() === "") {
    errors.product_code = ["is required"];
  }
  if (typeof request.customerNo !== "string" || request.customerNo.trim() === "") {
    errors.customer_id = ["is required"];
  }
  const fields = Object.keys(errors);
  if (fields.length === 0) return undefined;
  return new SupplierError("VALIDATION_ERROR", `not sent: invalid ${fields.join(", ")}`, {
    errors,
  });
}

/**
 * a repeated ref_id answers with the stored transaction: if that is another product or
 * destination, this ref_id belongs to someone else's transaction (kios flags it for an admin).
 */
function identityMismatch(got: Identity, sent: Identity): SupplierError | undefined {
  const differs: string[] = [];
  if (got.refId.trim() !== sent.refId.trim()) differs.push(`ref_id ${got.refId}`);
  if (got.code.trim() !== sent.code.trim()) differs.push(`product_code ${got.code}`);
  if (got.customerNo.trim() !== sent.customerNo.trim()) {
    differs.push(`customer_id ${got.customerNo}`);
  }
  if (differs.length === 0) return undefined;
  return new SupplierError(
    "REF_ID_MISMATCH",
    `the supplier answered ref_id ${sent.refId} with another transaction (${differs.join(", ")})`,
  );
}
