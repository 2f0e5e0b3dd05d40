import { type Clock, systemClock } from "../clock.ts";
import { normaliseSupplierBaseUrl } from "../config.ts";
import type { Logger } from "../logger.ts";
import {
  billStatusOf,
  errorForCode,
  INQUIRY_SUCCESS_CODE,
  orderStatusOf,
  READ_SUCCESS_CODE,
  REFUSAL_CODES,
  TRANSACTION_NOT_FOUND_CODE,
} from "./codes.ts";
import { createWire, type WireReply } from "./http.ts";
import { REF_ID_PATTERN } from "./ref-id.ts";
import {
  type InquiryRequest,
  type OrderRequest,
  type PayBillRequest,
  type ProductCmd,
  type StatusResult,
  type SubmitOutcome,
  type Supplier,
  SupplierError,
  type SupplierErrorCode,
  type SupplierTransaction,
} from "./types.ts";
import {
  failedBillFromRequest,
  type TransactionContext,
  toBalance,
  toBillTransaction,
  toInquiry,
  toOrderTransaction,
  toProducts,
} from "./wire.ts";

// the signature-based interface of supplier-api.md behind kios's Supplier interface.
// Reads (balance, products, status) retry what may pass; money-moving calls (order, payBill)
// are sent exactly once and answer accepted / rejected / unknown.

export interface SignatureSupplierOptions {
  /** the document's {base_url}, ending in /v1 (completed when given without it) */
  baseUrl: string;
  apiId: string;
  apiKey: string;
  secretKey: string;
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

const PRODUCT_CMDS: readonly string[] = ["prepaid", "game", "pasca"];

export function createSignatureSupplier(options: SignatureSupplierOptions): Supplier {
  const clock = options.clock ?? systemClock;
  const readRetries = options.readRetries ?? 3;
  const logger = options.logger?.child({ component: "supplier" });
  const wire = createWire({
    baseUrl: normaliseSupplierBaseUrl(options.baseUrl),
    credentials: { apiId: options.apiId, apiKey: options.apiKey, secretKey: options.secretKey },
    timeoutMs: options.timeoutMs ?? 15_000,
    retryBaseMs: options.retryBaseMs ?? 300,
    clock,
    fetch: options.fetch ?? globalThis.fetch,
    logger,
  });

  /** an answer that is not the success the caller asked for */
  const refusal = (reply: WireReply) =>
    errorForCode(reply.envelope.code, reply.envelope.message, {
      httpStatus: reply.httpStatus,
      ...(reply.fieldErrors ? { errors: reply.fieldErrors } : {}),
    });

  /** the transaction of an ORDER_* or BILL_PAYMENT_* answer (throws BAD_RESPONSE) */
  function transactionOf(reply: WireReply, ctx: TransactionContext): SupplierTransaction {
    const { code, message, data } = reply.envelope;
    const full = { ...ctx, supplierCode: code, message };
    const orderStatus = orderStatusOf(code);
    if (orderStatus) return toOrderTransaction(data, { ...full, status: orderStatus });
    // the document: a failed bill payment answers with data null
    if (code === "BILL_PAYMENT_FAILED" && (data === null || data === undefined)) {
      return failedBillFromRequest(full);
    }
    return toBillTransaction(data, { ...full, status: billStatusOf(code) });
  }

  async function submit(
    kind: "order" | "bill",
    params: Record<string, unknown>,
    request: { refId: string; code: string; customerNo: string },
  ): Promise<SubmitOutcome> {
    const invalid = invalidRequest(request);
    if (invalid) return { outcome: "rejected", error: invalid };
    let reply: WireReply;
    try {
      reply = await wire.post("/order", params, 0);
    } catch (err) {
      const error = asSupplierError(err);
      // 410 Gone is a definite refusal; anything else without an envelope may have gone through
      if (error.code === "GONE") return { outcome: "rejected", error };
      return unknown(error);
    }
    const { code } = reply.envelope;
    const own = kind === "order" ? orderStatusOf : billStatusOf;
    const other = kind === "order" ? billStatusOf : orderStatusOf;
    if (own(code)) {
      let transaction: SupplierTransaction;
      try {
        transaction = transactionOf(reply, request);
      } catch (err) {
        return unknown(asSupplierError(err));
      }
      const mismatch = identityMismatch(transaction, request);
      if (mismatch) return unknown(mismatch);
      return { outcome: "accepted", transaction };
    }
    if (other(code)) {
      return unknown(
        new SupplierError(
          "REF_ID_MISMATCH",
          `ref_id ${request.refId} belongs to ${kind === "order" ? "a bill payment" : "an order"} at the supplier (answer ${code})`,
        ),
      );
    }
    const error = refusal(reply);
    if (REFUSAL_CODES.has(error.code)) return { outcome: "rejected", error };
    return unknown(error);
  }

  /** a read: retried by the wire, the answer's code must be the one expected */
  async function read(
    path: "/balance" | "/products" | "/status",
    params: Record<string, unknown>,
  ): Promise<WireReply> {
    return wire.post(path, params, readRetries);
  }

  return {
    interface: "signature",

    async balance() {
      const reply = await read("/balance", {});
      if (reply.envelope.code !== READ_SUCCESS_CODE) throw refusal(reply);
      return toBalance(reply.envelope.data);
    },

    async products(cmd: ProductCmd) {
      if (!PRODUCT_CMDS.includes(cmd)) {
        throw new SupplierError("VALIDATION_ERROR", `not sent: cmd must be prepaid, game or pasca`);
      }
      const reply = await read("/products", { cmd });
      if (reply.envelope.code !== READ_SUCCESS_CODE) throw refusal(reply);
      const { products, skipped } = toProducts(reply.envelope.data, cmd);
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
      return submit(
        "order",
        {
          cmd: request.cmd,
          code: request.code,
          customer_no: request.customerNo,
          ref_id: request.refId,
          // sent only when true: it is then part of the signed business parameters
          ...(request.testing === true ? { testing: true } : {}),
        },
        request,
      );
    },

    payBill(request: PayBillRequest) {
      return submit(
        "bill",
        {
          cmd: "pay-pasca",
          code: request.code,
          customer_no: request.customerNo,
          ref_id: request.refId,
          ...(request.testing === true ? { testing: true } : {}),
        },
        request,
      );
    },

    async inquiry(request: InquiryRequest) {
      const invalid = invalidRequest(request);
      if (invalid) throw invalid;
      // not money-moving, but not retried either: the caller asks again if it wants
      const reply = await wire.post(
        "/order",
        {
          cmd: "inquiry",
          code: request.code,
          customer_no: request.customerNo,
          ref_id: request.refId,
        },
        0,
      );
      if (reply.envelope.code !== INQUIRY_SUCCESS_CODE) throw refusal(reply);
      const result = toInquiry(reply.envelope.data, request, clock.now());
      const mismatch = identityMismatch(result, request);
      if (mismatch) throw mismatch;
      return result;
    },

    async status(refId: string): Promise<StatusResult> {
      if (!REF_ID_PATTERN.test(refId)) {
        throw new SupplierError("VALIDATION_ERROR", "not sent: ref_id is empty or malformed");
      }
      const reply = await read("/status", { ref_id: refId });
      const { code } = reply.envelope;
      if (code === TRANSACTION_NOT_FOUND_CODE) return { found: false };
      if (!orderStatusOf(code) && !billStatusOf(code)) throw refusal(reply);
      const transaction = transactionOf(reply, { refId });
      if (transaction.refId !== refId) {
        throw new SupplierError(
          "REF_ID_MISMATCH",
          `asked the status of ref_id ${refId}, the supplier answered about ${transaction.refId}`,
        );
      }
      return { found: true, transaction };
    },
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
function invalidRequest(request: {
  refId: string;
  code: string;
  customerNo: string;
}): SupplierError | undefined {
  const errors: Record<string, string[]> = {};
  if (typeof request.refId !== "string" || !REF_ID_PATTERN.test(request.refId)) {
    errors.ref_id = ["must be 1 to 64 characters of A-Z, a-z, 0-9, . _ / -"];
  }
  if (typeof request.code !== "string" || request.code.trim() === "") {
    errors.code = ["is required"];
  }
  if (typeof request.customerNo !== "string" || request.customerNo.trim() === "") {
    errors.customer_no = ["is required"];
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
function identityMismatch(
  got: { refId: string; code: string; customerNo: string },
  sent: { refId: string; code: string; customerNo: string },
): SupplierError | undefined {
  const differs: string[] = [];
  if (got.refId.trim() !== sent.refId.trim()) differs.push(`ref_id ${got.refId}`);
  if (got.code.trim() !== sent.code.trim()) differs.push(`code ${got.code}`);
  if (got.customerNo.trim() !== sent.customerNo.trim())
    differs.push(`customer_no ${got.customerNo}`);
  if (differs.length === 0) return undefined;
  const code: SupplierErrorCode = "REF_ID_MISMATCH";
  return new SupplierError(
    code,
    `the supplier answered ref_id ${sent.refId} with another transaction (${differs.join(", ")})`,
  );
}
