import { type Clock, systemClock } from "@kios/kit";
import { normaliseSupplierBaseUrl } from "../../config.ts";
import type { Logger } from "../../logger.ts";
import { answeredAbout, invalidOrderCmd, invalidProductKind, invalidRefId } from "../checks.ts";
import { createNotices } from "../notices.ts";
import { failedFromRequest, toBalance } from "../records.ts";
import { redactor } from "../redact.ts";
import { inquireOnce, rejected, submitOnce } from "../send-once.ts";
import { replyDetails } from "../transport.ts";
import type { Identity } from "../types.ts";
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
import {
  errorForRc,
  RC_FAILED,
  RC_SUCCESS,
  RC_TRANSACTION_NOT_FOUND,
  transactionRc,
} from "./codes.ts";
import { createKeyWire, type KeyReply, type KeyRequest } from "./http.ts";
import {
  KEY_FIELDS,
  type KeyTransactionContext,
  recordKind,
  toKeyInquiry,
  toKeyProducts,
  toKeyTransaction,
} from "./wire.ts";

// the key-based alternate interface of the supplier's API (docs/supplier.md; the newer release: customer_id,
// /v1/inquiry) behind kios's Supplier interface. Same rules as the signature adapter:
// reads retry what may pass; a transaction is sent exactly once and answers accepted /
// rejected / unknown; the key never reaches an error or a log.

export interface KeySupplierOptions {
  /** the supplier's {base_url} (docs/supplier.md#configuration-1), ending in /v1 (completed when given without it) */
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

export function createKeySupplier(options: KeySupplierOptions): KeySupplier {
  const clock = options.clock ?? systemClock;
  const readRetries = options.readRetries ?? 3;
  const logger = options.logger?.child({ component: "supplier" });
  const { apiKey } = options;
  // the supplier's text is shown to people; it must not carry back the key it was sent
  const scrub = redactor([apiKey]);
  const notices = createNotices({ logger });
  const wire = createKeyWire({
    baseUrl: normaliseSupplierBaseUrl(options.baseUrl),
    apiKey,
    timeoutMs: options.timeoutMs ?? 15_000,
    retryBaseMs: options.retryBaseMs ?? 300,
    fetch: options.fetch,
    logger,
    notices,
    scrub,
  });

  /** an answer that is not the success the caller asked for */
  const refusal = (reply: KeyReply) =>
    errorForRc(reply.envelope.rc, reply.envelope.message, replyDetails(reply));

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
      return failedFromRequest(kind, { ...known, supplierCode: rc, message });
    }
    return toKeyTransaction(data, ctx, kind);
  }

  async function read(request: KeyRequest): Promise<KeyReply> {
    return wire.send(request, readRetries);
  }

  function submit(
    kind: "order" | "bill",
    request: Identity & { testing?: boolean },
  ): Promise<SubmitOutcome> {
    return submitOnce({
      kind,
      request,
      fields: KEY_FIELDS,
      send: () =>
        wire.send(
          {
            endpoint: "POST /v1/transaction",
            path: "/transaction",
            body: {
              product_code: request.code,
              customer_id: request.customerNo,
              ref_id: request.refId,
              // sent only when true, as on the signature interface (where the key would be signed)
              ...(request.testing === true ? { testing: true } : {}),
            },
          },
          0,
        ),
      read: (reply) => {
        const { rc, data } = reply.envelope;
        if (!transactionRc(rc)) return { refusal: refusal(reply) };
        const said = recordKind(data);
        if (said !== undefined && said !== kind) return { otherKind: `rc ${rc}` };
        return { transaction: () => transactionOf(reply, request, kind) };
      },
    });
  }

  /** a lookup by ref_id or trx_id: the record, or { found: false } */
  async function lookup(request: KeyRequest, refId?: string): Promise<StatusResult> {
    const reply = await read(request);
    if (reply.envelope.rc === RC_TRANSACTION_NOT_FOUND) return { found: false };
    const transaction = transactionOf(reply, refId ? { refId } : {});
    const mismatch = refId === undefined ? undefined : answeredAbout(refId, transaction);
    if (mismatch) throw mismatch;
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
      const invalid = invalidProductKind(cmd, "type");
      if (invalid) throw invalid;
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
      const invalid = invalidOrderCmd(request.cmd);
      if (invalid) return Promise.resolve(rejected(invalid));
      // the key interface has no cmd: the product code says what it is
      return submit("order", request);
    },

    payBill(request: PayBillRequest) {
      // the same endpoint as orders, with the inquiry's ref_id and the pasca product's code
      return submit("bill", request);
    },

    inquiry(request: InquiryRequest) {
      return inquireOnce({
        request,
        fields: KEY_FIELDS,
        send: () =>
          wire.send(
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
          ),
        read: (reply) => {
          if (reply.envelope.rc !== RC_SUCCESS) throw refusal(reply);
          return toKeyInquiry(reply.envelope.data, request, clock.now());
        },
      });
    },

    async status(refId: string): Promise<StatusResult> {
      const invalid = invalidRefId(refId);
      if (invalid) throw invalid;
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
