import type { Clock } from "@kios/kit";
import { type Context, Hono } from "hono";
import type { SecretBox } from "../commerce/h2h/cipher.ts";
import {
  type Caller,
  findH2h,
  type H2hRefusal,
  h2hInquiry,
  h2hPayBill,
  placeH2hOrder,
} from "../commerce/h2h/orders.ts";
import {
  productForReseller,
  productsForReseller,
  resellerBalance,
} from "../commerce/h2h/products.ts";
import { billOfOrder } from "../commerce/h2h/records.ts";
import type { OrderEngine } from "../commerce/orders/engine.ts";
import type { Order } from "../commerce/orders/types.ts";
import { unstorableField } from "../db/storable-text.ts";
import type { Logger } from "../logger.ts";
import { bodyWithin, jsonBody } from "../server/body.ts";
import type { AppEnv } from "../server/create-server.ts";
import { authenticate } from "./auth.ts";
import { type ClientAddress, createClientAddress } from "./client-address.ts";
import { failure, ok, REFUSAL_STATUS, type Reply, validationError } from "./envelope.ts";
import {
  inquiryParams,
  MAX_BODY_DEPTH,
  nestedTooDeep,
  orderCmd,
  orderParams,
  parseParams,
  payParams,
  productsParams,
  statusParams,
} from "./params.ts";
import type { RateLimiter } from "./rate-limit.ts";
import { inFlightReply, inquiryReply, transactionReply } from "./replies.ts";

// kios as a supplier: POST /h2h/v1/balance, /products, /order, /status, speaking exactly
// the signature interface of docs/supplier.md (the protocol kios itself buys with), so
// another kios, or any reseller software that speaks it, can buy from this shop
// (docs/h2h.md). Orders go through the order engine like the chat's.

export const H2H_PREFIX = "/h2h/v1";

export interface H2hRouteDeps {
  orders: OrderEngine;
  box: SecretBox;
  clock: Clock;
  logger: Logger;
  limiter: RateLimiter;
  /** the caller's address for the allowlists (default: the socket's, forwarding headers ignored) */
  clientAddress?: ClientAddress;
  /** an H2H order was answered (its callback, if final, is due): the callbacks' port */
  onOrderAnswered?(h2hOrderId: number): Promise<void>;
  /** counts each request by endpoint and code (metrics) */
  onAnswered?(endpoint: string, code: string): void;
}

type Handler = (caller: Caller, body: Record<string, unknown>) => Promise<Reply>;

function thousands(n: number): string {
  return Math.abs(n)
    .toString()
    .replace(/\B(?=(\d{3})+(?!\d))/g, ".");
}

function refusalReply(r: H2hRefusal): Reply {
  if (r.code === "VALIDATION_ERROR") return validationError({ [r.field]: [r.message] });
  return failure(REFUSAL_STATUS[r.code] ?? 400, r.code, r.message);
}

/** the connection's address (node-server puts the socket in c.env) */
function socketAddress(c: Context<AppEnv>): string | undefined {
  const env = c.env as { incoming?: { socket?: { remoteAddress?: string } } } | undefined;
  return env?.incoming?.socket?.remoteAddress;
}

/**
 * on a SUPPLIER_TESTING shop every answer says it was a test (design rule 12): its orders
 * are simulated, and a simulated success must never pass for a real one
 */
function markTest(reply: Reply): Reply {
  return {
    ...reply,
    body: {
      ...reply.body,
      message: `TEST (SUPPLIER_TESTING, nothing real happened): ${reply.body.message}`,
      meta: { ...reply.body.meta, testing: true },
    },
  };
}

export function createH2hRoutes(deps: H2hRouteDeps): Hono<AppEnv> {
  const log = deps.logger.child({ component: "h2h" });
  const db = deps.orders.db;
  const clientAddress = deps.clientAddress ?? createClientAddress([]);

  const billOf = (order: Order) => billOfOrder(db, order);

  const handlers: Record<string, Handler> = {
    async balance(caller) {
      const balance = await resellerBalance(db, caller.userId);
      return ok("SUCCESS", "balance", {
        balance,
        balance_formatted: `${balance < 0 ? "-" : ""}Rp${thousands(balance)}`,
      });
    },
    async products(caller, body) {
      const parsed = parseParams(productsParams, body);
      if (!parsed.ok) return parsed.reply;
      const list = await productsForReseller(db, caller.userId, parsed.value.cmd, deps.clock.now());
      return ok(
        "SUCCESS",
        `${list.length} ${parsed.value.cmd} products`,
        list.map((p) => ({
          code: p.code,
          name: p.name,
          category: p.category,
          brand: p.brand,
          type: p.type,
          price: p.price,
          status: p.active ? "active" : "inactive",
          desc: p.desc,
          ...(p.startCutOff ? { start_cut_off: p.startCutOff } : {}),
          ...(p.endCutOff ? { end_cut_off: p.endCutOff } : {}),
        })),
        { total: list.length },
      );
    },
    async order(caller, body) {
      const cmd = parseParams(orderCmd, body);
      if (!cmd.ok) return cmd.reply;
      if (cmd.value.cmd === "inquiry") {
        const p = parseParams(inquiryParams, body);
        if (!p.ok) return p.reply;
        const answer = await h2hInquiry(deps.orders, caller, {
          code: p.value.code,
          customerNo: p.value.customer_no,
          refId: p.value.ref_id,
        });
        return answer.ok
          ? inquiryReply(answer.quote, answer.row.refId)
          : refusalReply(answer.refusal);
      }
      const p =
        cmd.value.cmd === "pay-pasca"
          ? parseParams(payParams, body)
          : parseParams(orderParams, body);
      if (!p.ok) return p.reply;
      // design rule 12: testing is an admin's tool; a reseller's test would be a real order
      if (p.value.testing && !deps.orders.testing) {
        return validationError({ testing: ["is not offered on this account"] });
      }
      const request = {
        code: p.value.code,
        customerNo: p.value.customer_no,
        refId: p.value.ref_id,
      };
      const answer =
        p.value.cmd === "pay-pasca"
          ? await h2hPayBill(deps.orders, caller, request)
          : await placeH2hOrder(deps.orders, caller, { ...request, cmd: p.value.cmd });
      if (!answer.ok) return refusalReply(answer.refusal);
      if (answer.order === null) {
        // another request with this ref_id is still before its order: being processed
        const listed = await productForReseller(
          db,
          caller.userId,
          answer.row.productCode,
          deps.clock.now(),
        );
        return inFlightReply(answer.row, listed);
      }
      await deps.onOrderAnswered?.(answer.row.id);
      return transactionReply(answer.order, answer.row.refId, await billOf(answer.order), "submit");
    },
    async status(caller, body) {
      const p = parseParams(statusParams, body);
      if (!p.ok) return p.reply;
      const stored = await findH2h(db, caller.userId, p.value.ref_id);
      if (!stored?.order)
        return failure(404, "TRANSACTION_NOT_FOUND", "no transaction with this ref_id");
      return transactionReply(stored.order, stored.row.refId, await billOf(stored.order), "status");
    },
  };

  const app = new Hono<AppEnv>();
  const limit = bodyWithin<AppEnv>(16 * 1024, (c) =>
    c.json(failure(400, "VALIDATION_ERROR", "body too large").body, 413),
  );
  const send = (c: Context<AppEnv>, endpoint: string, reply: Reply) => {
    const told = deps.orders.testing ? markTest(reply) : reply;
    deps.onAnswered?.(endpoint, told.body.code);
    return c.json(told.body, told.status, told.headers);
  };
  for (const [endpoint, handle] of Object.entries(handlers)) {
    app.post(`${H2H_PREFIX}/${endpoint}`, limit, async (c) =>
      send(c, endpoint, await answer(c, endpoint, handle)),
    );
  }
  // anything else under the prefix is answered in the envelope too: a reseller's client
  // decides on `code`, whatever it got wrong
  app.all(`${H2H_PREFIX}/*`, (c) => {
    const endpoint = c.req.path.slice(H2H_PREFIX.length + 1);
    if (Object.hasOwn(handlers, endpoint)) {
      return send(c, "other", {
        ...failure(405, "METHOD_NOT_ALLOWED", `use POST for ${H2H_PREFIX}/${endpoint}`),
        headers: { Allow: "POST" },
      });
    }
    return send(
      c,
      "other",
      failure(404, "NOT_FOUND", `no such endpoint; use POST ${Object.keys(handlers).join(", ")}`),
    );
  });

  async function answer(c: Context<AppEnv>, endpoint: string, handle: Handler): Promise<Reply> {
    let body: unknown;
    try {
      body = await jsonBody(c);
    } catch {
      return validationError({ body: ["must be a JSON object"] });
    }
    if (body === null || typeof body !== "object" || Array.isArray(body)) {
      return validationError({ body: ["must be a JSON object"] });
    }
    const record = body as Record<string, unknown>;
    if (nestedTooDeep(record)) {
      return validationError({ body: [`must not nest deeper than ${MAX_BODY_DEPTH} levels`] });
    }
    // before anything reads the database with it (the api_id first): PostgreSQL refuses it
    const unstorable = unstorableField(record);
    if (unstorable !== undefined) {
      return validationError({
        [unstorable]: ["must not hold a NUL character or a lone UTF-16 surrogate"],
      });
    }
    let auth: Awaited<ReturnType<typeof authenticate>>;
    try {
      auth = await authenticate(
        {
          db,
          box: deps.box,
          nowMs: deps.clock.now(),
          limiter: deps.limiter,
          ip: clientAddress(socketAddress(c), c.req.header("x-forwarded-for")),
        },
        record,
      );
    } catch (err) {
      // a key that can't be opened (H2H_ENCRYPTION_KEY changed) or a database failure
      log.error({ err, endpoint, requestId: c.get("requestId") }, "h2h authentication failed");
      return failure(500, "SERVER_ERROR", "internal server error");
    }
    if (!auth.ok) {
      log.info(
        { endpoint, code: auth.reply.body.code, requestId: c.get("requestId") },
        "h2h request refused",
      );
      return auth.reply;
    }
    const caller: Caller = { userId: auth.key.userId, keyId: auth.key.id };
    try {
      const reply = await handle(caller, record);
      log.debug(
        { endpoint, userId: caller.userId, refId: record.ref_id, code: reply.body.code },
        "h2h request",
      );
      return reply;
    } catch (err) {
      log.error(
        { err, endpoint, userId: caller.userId, requestId: c.get("requestId") },
        "h2h request failed",
      );
      return failure(500, "SERVER_ERROR", "internal server error");
    }
  }

  return app;
}
