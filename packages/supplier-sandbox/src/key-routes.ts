import type { Clock } from "@kios/kit";
import type { Context, Hono } from "hono";
import type { Logger } from "pino";
import type { Accounts } from "./accounts.ts";
import { inquire, payBill } from "./bills.ts";
import type { Catalogue } from "./catalogue.ts";
import type { Delays } from "./delays.ts";
import { authenticateBearer } from "./key-auth.ts";
import {
  KEY_SERVER_ERROR_BODY,
  keyFailure,
  keyFromReply,
  keyInquiryReply,
  keyOk,
  keyTransactionReply,
  keyValidationError,
  trxIdFor,
} from "./key-format.ts";
import { type Caller, placeOrder } from "./orders.ts";
import type { OutcomeRemap } from "./outcomes.ts";
import type { RateLimiter } from "./rate-limit.ts";
import type { Store, StoredTransaction } from "./store.ts";
import { thousands } from "./time.ts";
import type { KeyReply, WireProduct } from "./types.ts";
import {
  keyInquiryParams,
  keyLookupParams,
  keyTransactionParams,
  parseParams,
} from "./validation.ts";

// the key-based alternate interface on the same app and paths: GET /v1/balance,
// GET /v1/products, POST /v1/transaction, GET /v1/transaction?ref_id=…,
// GET /v1/transaction/<trx_id>, POST /v1/inquiry. Bearer auth instead of a signature; the
// same accounts, catalogue, store, outcome table and callbacks, because the work is done by
// the signature interface's handlers and only the wire shapes differ.

export interface KeyRouteDeps {
  accounts: Accounts;
  catalogue: Catalogue;
  store: Store;
  clock: Clock;
  logger: Logger;
  delays: Delays;
  rateLimiter: RateLimiter;
  settleDelayMs: number;
  slowReplyMs: number;
  deprecationWarning: () => string | undefined;
  /** this sandbox's own outcome table over the standard one */
  outcomes?: OutcomeRemap | undefined;
  /** an active product refused as inactive this time (fault productInactiveRate) */
  productOut?: () => boolean;
  /** what a status lookup shows of a transaction (a lagging status answer: pending) */
  statusShows?: (t: StoredTransaction) => StoredTransaction;
}

export const KEY_GONE_MESSAGE =
  "the old release stopped on 1 January 2026: send customer_id instead of phone, and POST /v1/inquiry instead of /v1/check";

const KEY_GETS = /^\/v1\/(balance|products|transaction(\/[^/]+)?)$/;
const KEY_POSTS = /^\/v1\/(transaction|inquiry)$/;

/** the signature interface never uses GET, and has no /transaction or /inquiry */
export function isKeyRequest(method: string, path: string): boolean {
  if (method === "GET" || method === "HEAD") return KEY_GETS.test(path);
  return method === "POST" && KEY_POSTS.test(path);
}

export function hasBearer(c: Context): boolean {
  return /^bearer\s/i.test(c.req.header("authorization") ?? "");
}

/** a Warning header's value: latin-1 only, quotes and backslashes escaped */
export function warningHeader(warning: string): string {
  return `299 - "${warning.replace(/[^\x20-\x7e]/g, "?").replace(/["\\]/g, "\\$&")}"`;
}

/** writes a key reply, with the deprecation warning when one is set */
export function sendKey(c: Context, reply: KeyReply, warning: string | undefined): Response {
  if (!warning) return c.json(reply.body, reply.status);
  c.header("deprecation", "true");
  c.header("warning", warningHeader(warning));
  return c.json({ ...reply.body, warning }, reply.status);
}

interface Input {
  body: Record<string, unknown>;
  query: Record<string, string>;
  trxId: string | undefined;
}

type Handler = (caller: Caller, input: Input) => KeyReply;

const PRODUCT_KINDS = ["prepaid", "game", "pasca"] as const;

/** brand and operator names compared without case, spaces or punctuation ("BY.U" = "byu") */
const fold = (s: string) => s.toLowerCase().replace(/[^a-z0-9]/g, "");

function isObject(v: unknown): v is Record<string, unknown> {
  return v !== null && typeof v === "object" && !Array.isArray(v);
}

export function registerKeyRoutes(app: Hono, deps: KeyRouteDeps): void {
  const log = deps.logger;
  const shows = deps.statusShows ?? ((t: StoredTransaction) => t);
  const handlerDeps = {
    catalogue: deps.catalogue,
    store: deps.store,
    clock: deps.clock,
    settleDelayMs: deps.settleDelayMs,
    outcomes: deps.outcomes,
    productOut: deps.productOut,
  };

  const balance: Handler = (caller) =>
    keyOk(
      {
        balance: caller.account.balance,
        balance_formatted: `Rp${thousands(caller.account.balance)}`,
      },
      "balance",
    );

  const products: Handler = (_caller, { query }) => {
    const type = query.type?.trim().toLowerCase() ?? "";
    let list: readonly WireProduct[];
    if (type === "") list = deps.catalogue.all;
    else if ((PRODUCT_KINDS as readonly string[]).includes(type)) {
      list = deps.catalogue.byType[type as (typeof PRODUCT_KINDS)[number]];
    } else {
      // type is "e.g. a category" (docs/supplier.md#products): Pulsa, Data, PDAM, …
      list = deps.catalogue.all.filter((p) => p.category.toLowerCase() === type);
      if (list.length === 0) {
        return keyValidationError({
          type: ["must be prepaid, game, pasca or a category such as pulsa"],
        });
      }
    }
    const operator = fold(query.operator ?? "");
    if (operator !== "") list = list.filter((p) => fold(p.brand) === operator);
    return keyOk(list, `${list.length} products`, { meta: { total: list.length } });
  };

  const transaction: Handler = (caller, { body }) => {
    const parsed = parseParams(keyTransactionParams, body);
    if (!parsed.ok) return keyFromReply(parsed.reply);
    const { product_code: code, customer_id: customerNo, ref_id: refId, testing } = parsed.value;
    const apiId = caller.account.apiId;
    // a repeat returns the stored transaction, whatever else it says (docs/supplier.md#requests-1)
    const existing = deps.store.transaction(apiId, refId);
    if (existing) {
      deps.store.noteRepeat(existing, deps.clock.now());
      return keyTransactionReply(existing, "later");
    }
    const entry = deps.catalogue.get(code);
    if (!entry) return keyFailure(404, "PRODUCT_NOT_FOUND", `no product with product_code ${code}`);
    // no cmd on this interface: the product's type says whether it is an order or a bill payment
    const type = entry.product.type;
    const params = {
      cmd: type === "pasca" ? "pay-pasca" : type,
      code,
      customer_no: customerNo,
      ref_id: refId,
      testing,
    };
    const reply =
      type === "pasca"
        ? payBill(handlerDeps, caller, params)
        : placeOrder(handlerDeps, caller, params);
    const made = deps.store.transaction(apiId, refId);
    if (!made) return keyFromReply(reply);
    const answer = keyTransactionReply(made, "created");
    return reply.after ? { ...answer, after: reply.after } : answer;
  };

  const byRefId: Handler = (caller, { query }) => {
    const parsed = parseParams(keyLookupParams, query);
    if (!parsed.ok) return keyFromReply(parsed.reply);
    const t = deps.store.transaction(caller.account.apiId, parsed.value.ref_id);
    return t
      ? keyTransactionReply(shows(t), "later")
      : keyFailure(
          404,
          "TRANSACTION_NOT_FOUND",
          `no transaction with ref_id ${parsed.value.ref_id}`,
        );
  };

  const byTrxId: Handler = (caller, { trxId }) => {
    const apiId = caller.account.apiId;
    const t = deps.store
      .all()
      .find((s) => s.apiId === apiId && trxIdFor(s.apiId, s.refId) === trxId);
    return t
      ? keyTransactionReply(shows(t), "later")
      : keyFailure(404, "TRANSACTION_NOT_FOUND", `no transaction with trx_id ${trxId}`);
  };

  const inquiry: Handler = (caller, { body }) => {
    const parsed = parseParams(keyInquiryParams, body);
    if (!parsed.ok) return keyFromReply(parsed.reply);
    const { product_code: code, customer_id: customerNo, ref_id: refId } = parsed.value;
    const reply = inquire(handlerDeps, caller, {
      cmd: "inquiry",
      code,
      customer_no: customerNo,
      ref_id: refId,
    });
    const session = deps.store.inquiry(caller.account.apiId, refId);
    return reply.body.code === "INQUIRY_SUCCESS" && session
      ? keyInquiryReply(session)
      : keyFromReply(reply);
  };

  /** the checks every key request passes, in order, then the handler */
  async function serve(c: Context, name: string, handler: Handler, hasBody: boolean) {
    const warning = deps.deprecationWarning();
    const send = (reply: KeyReply) => sendKey(c, reply, warning);
    const gone = () => send(keyFailure(410, "GONE", KEY_GONE_MESSAGE));
    const query = c.req.query();
    let body: Record<string, unknown> = {};
    if (hasBody) {
      let json: unknown;
      try {
        json = JSON.parse(await c.req.text());
      } catch {
        return send(keyValidationError({ body: ["is not valid JSON"] }));
      }
      if (!isObject(json)) return send(keyValidationError({ body: ["must be a JSON object"] }));
      body = json;
      if (Object.hasOwn(body, "phone")) return gone();
    }
    if (Object.hasOwn(query, "phone")) return gone();

    const auth = authenticateBearer(deps.accounts, c.req.header("authorization"));
    if (!auth.ok) {
      log.debug({ endpoint: name, rc: auth.reply.body.rc }, "key request refused");
      return send(auth.reply);
    }
    if (!deps.rateLimiter.take(auth.caller.account.apiId)) {
      c.header("retry-after", "1");
      return send(keyFailure(429, "RATE_LIMITED", "too many requests; slow down"));
    }

    const reply = handler(auth.caller, { body, query, trxId: c.req.param("trx_id") });
    log.debug({ endpoint: name, rc: reply.body.rc }, "key request");
    if (reply.after === "server-error") {
      return sendKey(c, { status: 500, body: KEY_SERVER_ERROR_BODY }, warning);
    }
    if (reply.after === "slow") await deps.delays.sleep(deps.slowReplyMs);
    return send(reply);
  }

  app.get("/v1/balance", (c) => serve(c, "GET /v1/balance", balance, false));
  app.get("/v1/products", (c) => serve(c, "GET /v1/products", products, false));
  app.get("/v1/transaction", (c) => serve(c, "GET /v1/transaction", byRefId, false));
  app.get("/v1/transaction/:trx_id", (c) =>
    serve(c, "GET /v1/transaction/{trx_id}", byTrxId, false),
  );
  app.post("/v1/transaction", (c) => serve(c, "POST /v1/transaction", transaction, true));
  app.post("/v1/inquiry", (c) => serve(c, "POST /v1/inquiry", inquiry, true));
}
