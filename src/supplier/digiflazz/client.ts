import { type Clock, systemClock } from "@kios/kit";
import { DIGIFLAZZ_DEFAULT_BASE_URL } from "../../config.ts";
import type { Logger } from "../../logger.ts";
import { identityMismatch, invalidOrderCmd, invalidProductKind, invalidRefId } from "../checks.ts";
import { bad } from "../records.ts";
import { redactor } from "../redact.ts";
import { inquireOnce, rejected, submitOnce } from "../send-once.ts";
import {
  type DepositTicket,
  type InquiryRequest,
  type OrderRequest,
  type PayBillRequest,
  type ProductCmd,
  type SentRequest,
  type StatusResult,
  type Supplier,
  SupplierError,
  type SupplierTransaction,
} from "../types.ts";
import { errorForRc, meaningOfRc, RC_SUCCESS } from "./codes.ts";
import { createDigiflazzWire, type DigiflazzReply, type DigiflazzRequest } from "./http.ts";
import {
  balanceOf,
  DIGIFLAZZ_FIELDS,
  toDigiflazzInquiry,
  toDigiflazzTransaction,
  toPascaProducts,
  toPrepaidProducts,
} from "./wire.ts";

// Digiflazz's buyer API (docs/suppliers.md#digiflazz) behind kios's Supplier interface.
// Its status check of a prepaid order is the order itself sent again: a ref_id it does not
// hold forms a new transaction. So status() never sends without the body kios stored for
// the attempt, sends it exactly, and is never retried; who may call it, and when, is
// decided by src/commerce/orders/resend.ts.

/** the documentation's limit on fetching a whole price list */
const FULL_LIST_WINDOW_MS = 5 * 60_000;

export interface DigiflazzSupplierOptions {
  /** default https://api.digiflazz.com/v1 */
  baseUrl?: string | undefined;
  username: string;
  apiKey: string;
  /** per request; default 15000 */
  timeoutMs?: number | undefined;
  /** further attempts of a read after the first (never of a whole price list); default 3 */
  readRetries?: number;
  retryBaseMs?: number;
  clock?: Clock | undefined;
  fetch?: typeof fetch | undefined;
  logger?: Logger | undefined;
}

export interface DigiflazzSupplier extends Supplier {
  readonly interface: "digiflazz";
  readonly statusResends: true;
  depositTicket(request: {
    amount: number;
    bank: string;
    ownerName: string;
  }): Promise<DepositTicket>;
}

/** the prepaid body, the same for the first send and every re-send of it */
function prepaidBody(r: {
  code: string;
  customerNo: string;
  refId: string;
  testing?: boolean | undefined;
  maxCost?: number | undefined;
}): Record<string, unknown> {
  return {
    buyer_sku_code: r.code,
    customer_no: r.customerNo,
    ref_id: r.refId,
    ...(r.maxCost === undefined ? {} : { max_price: r.maxCost }),
    ...(r.testing === true ? { testing: true } : {}),
  };
}

export function createDigiflazzSupplier(options: DigiflazzSupplierOptions): DigiflazzSupplier {
  const clock = options.clock ?? systemClock;
  const readRetries = options.readRetries ?? 3;
  const logger = options.logger?.child({ component: "supplier" });
  const { username, apiKey } = options;
  const scrub = redactor([apiKey]);
  const wire = createDigiflazzWire({
    baseUrl: (options.baseUrl ?? DIGIFLAZZ_DEFAULT_BASE_URL).replace(/\/+$/, ""),
    username,
    apiKey,
    timeoutMs: options.timeoutMs ?? 15_000,
    retryBaseMs: options.retryBaseMs ?? 300,
    fetch: options.fetch,
    logger,
    scrub,
  });

  const refusal = (reply: DigiflazzReply) => {
    // a refusal carries the account's balance too (a reading: answer-reading.ts)
    const data = reply.envelope.data;
    const balanceAfter =
      data !== null && typeof data === "object" && !Array.isArray(data)
        ? balanceOf((data as Record<string, unknown>).buyer_last_saldo)
        : undefined;
    return errorForRc(reply.envelope.rc, reply.envelope.message, {
      httpStatus: reply.httpStatus,
      ...(balanceAfter === undefined ? {} : { balanceAfter }),
    });
  };

  /** the transaction of an answer, or what it is instead (send-once.ts's reading) */
  function readSubmit(
    reply: DigiflazzReply,
    kind: "order" | "bill",
    request: SentRequest | OrderRequest | PayBillRequest,
  ) {
    const { rc, data } = reply.envelope;
    const meaning = meaningOfRc(rc);
    if (rc === "49") return { otherKind: "rc 49 (ref_id not unique)" };
    if (meaning.kind === "refused" || meaning.kind === "unknown")
      return { refusal: refusal(reply) };
    return { transaction: () => toDigiflazzTransaction(data, kind, request) };
  }

  function transactionRequest(body: Record<string, unknown>, refId: string): DigiflazzRequest {
    return { endpoint: "POST /transaction", signs: refId, body };
  }

  // ---- price lists: fetched whole at most once per window, shared by prepaid and games ----
  const lists = new Map<"prepaid" | "pasca", { at: number; data: unknown[] }>();
  const fetching = new Map<"prepaid" | "pasca", Promise<unknown[]>>();
  /** when a whole list's request ended without its answer (Digiflazz may have served it) */
  const lost = new Map<"prepaid" | "pasca", number>();

  function fullList(cmd: "prepaid" | "pasca"): Promise<unknown[]> {
    const cached = lists.get(cmd);
    if (cached && clock.now() - cached.at < FULL_LIST_WINDOW_MS)
      return Promise.resolve(cached.data);
    const lostAt = lost.get(cmd);
    if (lostAt !== undefined && clock.now() - lostAt < FULL_LIST_WINDOW_MS) {
      // asking now would be refused (rc 83) if that request was served: the sync stops
      // with the catalogue as it was, and a later one asks once the window is over
      const from = new Date(lostAt + FULL_LIST_WINDOW_MS).toISOString();
      return Promise.reject(
        new SupplierError(
          "RATE_LIMITED",
          `not asked: the whole ${cmd} list's last request got no answer and may have been served at ${new Date(lostAt).toISOString()}; Digiflazz gives one per 5 minutes, so it is asked again from ${from}`,
        ),
      );
    }
    const running = fetching.get(cmd);
    if (running) return running;
    const fetched = (async () => {
      // one request, never retried: one that timed out (or lost its answer to a reset or a
      // 5xx) may have been served, opening Digiflazz's window, and a retry would be refused
      const reply = await wire
        .send({ endpoint: "POST /price-list", signs: "pricelist", body: { cmd } }, 0)
        .catch((err: unknown) => {
          lost.set(cmd, clock.now());
          throw err;
        });
      lost.delete(cmd);
      const { data } = reply.envelope;
      // a refusal (83: fetched within the window) keeps the catalogue: the sync stops and is retried
      if (!Array.isArray(data)) {
        throw reply.envelope.rc
          ? refusal(reply)
          : bad("malformed price list from Digiflazz: data is not a list");
      }
      // an empty list is not cached: the sync keeps its products and the next fetch asks again
      if (data.length > 0) lists.set(cmd, { at: clock.now(), data });
      return data;
    })().finally(() => fetching.delete(cmd));
    fetching.set(cmd, fetched);
    return fetched;
  }

  async function resendOrder(sent: SentRequest): Promise<StatusResult> {
    // exactly the first send's body, never retried: an unheld ref_id forms a transaction
    const reply = await wire.send(transactionRequest(prepaidBody(sent), sent.refId), 0);
    const { rc, data } = reply.envelope;
    const meaning = meaningOfRc(rc);
    if (rc === "49") {
      throw new SupplierError(
        "REF_ID_MISMATCH",
        `Digiflazz holds ref_id ${sent.refId} for another transaction (rc 49)`,
        { supplierCode: rc },
      );
    }
    if (meaning.kind === "refused") {
      const error = refusal(reply);
      // the account's refusals say nothing of the transaction; the product's and the
      // balance's say Digiflazz does not hold it (it would have answered with it)
      const aboutAccount = [
        "INVALID_SIGNATURE",
        "UNAUTHORIZED",
        "RATE_LIMITED",
        "SUPPLIER_REFUSED",
      ];
      if (aboutAccount.includes(error.code)) throw error;
      return { found: false };
    }
    if (meaning.kind === "unknown") throw refusal(reply);
    return found(toDigiflazzTransaction(data, "order", sent), sent);
  }

  async function billStatus(sent: SentRequest): Promise<StatusResult> {
    // status-pasca only reads: it may be retried like any read
    const reply = await wire.send(
      transactionRequest(
        {
          commands: "status-pasca",
          buyer_sku_code: sent.code,
          customer_no: sent.customerNo,
          ref_id: sent.refId,
        },
        sent.refId,
      ),
      readRetries,
    );
    const meaning = meaningOfRc(reply.envelope.rc);
    // "Gagal" for a ref_id not paid (yet) is "no data", not a failed payment: kios never
    // refunds a bill on status-pasca's word alone
    if (meaning.kind === "failed") return { found: false };
    if (meaning.kind === "refused" || meaning.kind === "unknown") throw refusal(reply);
    return found(toDigiflazzTransaction(reply.envelope.data, "bill", sent), sent);
  }

  function found(transaction: SupplierTransaction, sent: SentRequest): StatusResult {
    const mismatch = identityMismatch(transaction, sent, DIGIFLAZZ_FIELDS);
    if (mismatch) throw mismatch;
    return { found: true, transaction };
  }

  return {
    interface: "digiflazz",
    statusResends: true,

    async balance() {
      const reply = await wire.send(
        { endpoint: "POST /cek-saldo", signs: "depo", body: { cmd: "deposit" } },
        readRetries,
      );
      const { rc, data } = reply.envelope;
      if (rc && rc !== RC_SUCCESS) throw refusal(reply);
      const deposit = (data as { deposit?: unknown } | null)?.deposit;
      if (typeof deposit !== "number" || !Number.isFinite(deposit) || deposit < 0) {
        throw bad("malformed balance from Digiflazz: data.deposit is not rupiah");
      }
      const balance = Math.floor(deposit);
      return { balance, balanceFormatted: String(balance) };
    },

    async products(cmd: ProductCmd) {
      const invalid = invalidProductKind(cmd, "cmd");
      if (invalid) throw invalid;
      const { products, skipped } =
        cmd === "pasca"
          ? toPascaProducts(await fullList("pasca"))
          : toPrepaidProducts(await fullList("prepaid"), cmd);
      if (skipped > 0) logger?.warn({ cmd, skipped }, "supplier products skipped as malformed");
      return products;
    },

    order(request: OrderRequest) {
      const invalid = invalidOrderCmd(request.cmd);
      if (invalid) return Promise.resolve(rejected(invalid));
      return submitOnce({
        kind: "order",
        request,
        fields: DIGIFLAZZ_FIELDS,
        send: () => wire.send(transactionRequest(prepaidBody(request), request.refId), 0),
        read: (reply) => readSubmit(reply, "order", request),
      });
    },

    payBill(request: PayBillRequest) {
      return submitOnce({
        kind: "bill",
        request,
        fields: DIGIFLAZZ_FIELDS,
        send: () =>
          wire.send(
            transactionRequest(
              {
                commands: "pay-pasca",
                buyer_sku_code: request.code,
                customer_no: request.customerNo,
                ref_id: request.refId,
                ...(request.testing === true ? { testing: true } : {}),
              },
              request.refId,
            ),
            0,
          ),
        read: (reply) => readSubmit(reply, "bill", request),
      });
    },

    inquiry(request: InquiryRequest) {
      return inquireOnce({
        request,
        fields: DIGIFLAZZ_FIELDS,
        send: () =>
          wire.send(
            transactionRequest(
              {
                commands: "inq-pasca",
                buyer_sku_code: request.code,
                customer_no: request.customerNo,
                ref_id: request.refId,
              },
              request.refId,
            ),
            0,
          ),
        read: (reply) => {
          const { rc, message, data } = reply.envelope;
          if (rc === RC_SUCCESS) return toDigiflazzInquiry(data, request, clock.now());
          // a formed failure of an inquiry (no bill due, a wrong number): no bill to pay
          if (meaningOfRc(rc).kind === "failed") {
            throw new SupplierError(
              "INQUIRY_FAILED",
              `the bill inquiry failed (rc ${rc}${message ? `: ${message}` : ""})`,
              { supplierCode: rc },
            );
          }
          throw refusal(reply);
        },
      });
    },

    async status(refId: string, sent?: SentRequest): Promise<StatusResult> {
      const invalid = invalidRefId(refId);
      if (invalid) throw invalid;
      if (!sent || sent.refId !== refId) {
        // without the body of its first send a status check would form a new transaction
        throw new SupplierError(
          "VALIDATION_ERROR",
          `not sent: a Digiflazz status check re-sends the first request, and none is stored for ref_id ${refId}`,
        );
      }
      return sent.kind === "bill" ? billStatus(sent) : resendOrder(sent);
    },

    async depositTicket(request) {
      if (!Number.isSafeInteger(request.amount) || request.amount <= 0) {
        throw new SupplierError("VALIDATION_ERROR", "not sent: the amount must be whole rupiah");
      }
      const reply = await wire.send(
        {
          endpoint: "POST /deposit",
          signs: "deposit",
          body: { amount: request.amount, bank: request.bank, owner_name: request.ownerName },
        },
        0,
      );
      const { rc, data } = reply.envelope;
      if (rc && rc !== RC_SUCCESS) throw refusal(reply);
      const d = (data ?? {}) as Record<string, unknown>;
      if (
        typeof d.amount !== "number" ||
        !Number.isSafeInteger(d.amount) ||
        typeof d.notes !== "string"
      ) {
        throw bad("malformed deposit ticket from Digiflazz: no amount or notes");
      }
      return {
        amount: d.amount,
        bank: typeof d.bank === "string" ? d.bank : request.bank,
        notes: scrub(d.notes),
        accountNo: typeof d.account_no === "string" ? d.account_no : undefined,
        accountName: typeof d.account_name === "string" ? d.account_name : undefined,
      };
    },
  };
}
