import { type Clock, systemClock } from "@kios/kit";
import { normaliseSupplierBaseUrl } from "../../config.ts";
import type { Logger } from "../../logger.ts";
import { answeredAbout, invalidOrderCmd, invalidProductKind, invalidRefId } from "../checks.ts";
import { createNotices } from "../notices.ts";
import { failedFromRequest, toBalance } from "../records.ts";
import { inquireOnce, rejected, submitOnce } from "../send-once.ts";
import { replyDetails } from "../transport.ts";
import type {
  Identity,
  InquiryRequest,
  OrderRequest,
  PayBillRequest,
  ProductCmd,
  StatusResult,
  SubmitOutcome,
  Supplier,
  SupplierTransaction,
} from "../types.ts";
import {
  billStatusOf,
  errorForCode,
  INQUIRY_SUCCESS_CODE,
  orderStatusOf,
  READ_SUCCESS_CODE,
  TRANSACTION_NOT_FOUND_CODE,
} from "./codes.ts";
import { createWire, type WireReply } from "./http.ts";
import {
  SIGNATURE_FIELDS,
  type TransactionContext,
  toBillTransaction,
  toInquiry,
  toOrderTransaction,
  toProducts,
} from "./wire.ts";

// the signature-based interface of the supplier's API (docs/supplier.md) behind kios's Supplier interface.
// Reads (balance, products, status) retry what may pass; money-moving calls (order, payBill)
// are sent exactly once and answer accepted / rejected / unknown.

export interface SignatureSupplierOptions {
  /** the supplier's {base_url} (docs/supplier.md#configuration), ending in /v1 (completed when given without it) */
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

export interface SignatureSupplier extends Supplier {
  readonly interface: "signature";
  notices(): readonly string[];
}

export function createSignatureSupplier(options: SignatureSupplierOptions): SignatureSupplier {
  const clock = options.clock ?? systemClock;
  const readRetries = options.readRetries ?? 3;
  const logger = options.logger?.child({ component: "supplier" });
  const notices = createNotices({ logger });
  const wire = createWire({
    baseUrl: normaliseSupplierBaseUrl(options.baseUrl),
    credentials: { apiId: options.apiId, apiKey: options.apiKey, secretKey: options.secretKey },
    timeoutMs: options.timeoutMs ?? 15_000,
    retryBaseMs: options.retryBaseMs ?? 300,
    clock,
    fetch: options.fetch,
    logger,
    notices,
  });

  /** an answer that is not the success the caller asked for */
  const refusal = (reply: WireReply) =>
    errorForCode(reply.envelope.code, reply.envelope.message, replyDetails(reply));

  /** the transaction of an ORDER_* or BILL_PAYMENT_* answer (throws BAD_RESPONSE) */
  function transactionOf(reply: WireReply, ctx: TransactionContext): SupplierTransaction {
    const { code, message, data } = reply.envelope;
    const full = { ...ctx, supplierCode: code, message };
    const orderStatus = orderStatusOf(code);
    if (orderStatus) return toOrderTransaction(data, { ...full, status: orderStatus });
    // a failed bill payment answers with data null (docs/supplier.md#replies)
    if (code === "BILL_PAYMENT_FAILED" && (data === null || data === undefined)) {
      return failedFromRequest("bill", full);
    }
    return toBillTransaction(data, { ...full, status: billStatusOf(code) });
  }

  function submit(
    kind: "order" | "bill",
    params: Record<string, unknown>,
    request: Identity & { signedAt?: number | undefined },
  ): Promise<SubmitOutcome> {
    const own = kind === "order" ? orderStatusOf : billStatusOf;
    const other = kind === "order" ? billStatusOf : orderStatusOf;
    return submitOnce({
      kind,
      request,
      fields: SIGNATURE_FIELDS,
      send: () => wire.post("/order", params, 0, request.signedAt),
      read: (reply) => {
        const { code } = reply.envelope;
        if (own(code)) return { transaction: () => transactionOf(reply, request) };
        if (other(code)) return { otherKind: `answer ${code}` };
        return { refusal: refusal(reply) };
      },
    });
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
      const invalid = invalidProductKind(cmd, "cmd");
      if (invalid) throw invalid;
      const reply = await read("/products", { cmd });
      if (reply.envelope.code !== READ_SUCCESS_CODE) throw refusal(reply);
      const { products, skipped } = toProducts(reply.envelope.data, cmd);
      if (skipped > 0) logger?.warn({ cmd, skipped }, "supplier products skipped as malformed");
      return products;
    },

    order(request: OrderRequest) {
      const invalid = invalidOrderCmd(request.cmd);
      if (invalid) return Promise.resolve(rejected(invalid));
      return submit(
        "order",
        {
          cmd: request.cmd,
          code: request.code,
          customer_no: request.customerNo,
          ref_id: request.refId,
          // sent only when true: it is then part of the signed business parameters (a spread:
          // the signature reads the keys present, so an explicit undefined would be signed too)
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
          // the signature covers the keys present: an explicit undefined would be signed too
          ...(request.testing === true ? { testing: true } : {}),
        },
        request,
      );
    },

    inquiry(request: InquiryRequest) {
      return inquireOnce({
        request,
        fields: SIGNATURE_FIELDS,
        send: () =>
          wire.post(
            "/order",
            {
              cmd: "inquiry",
              code: request.code,
              customer_no: request.customerNo,
              ref_id: request.refId,
            },
            0,
          ),
        read: (reply) => {
          if (reply.envelope.code !== INQUIRY_SUCCESS_CODE) throw refusal(reply);
          return toInquiry(reply.envelope.data, request, clock.now());
        },
      });
    },

    async status(refId: string): Promise<StatusResult> {
      const invalid = invalidRefId(refId);
      if (invalid) throw invalid;
      const reply = await read("/status", { ref_id: refId });
      const { code } = reply.envelope;
      if (code === TRANSACTION_NOT_FOUND_CODE) return { found: false };
      if (!orderStatusOf(code) && !billStatusOf(code)) throw refusal(reply);
      const transaction = transactionOf(reply, { refId });
      const mismatch = answeredAbout(refId, transaction);
      if (mismatch) throw mismatch;
      return { found: true, transaction };
    },

    notices: () => notices.list(),
  };
}
