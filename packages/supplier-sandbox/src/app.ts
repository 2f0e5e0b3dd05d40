import type { Clock } from "@kios/kit";
import { type Context, Hono } from "hono";
import { bodyLimit } from "hono/body-limit";
import type { Logger } from "pino";
import type { Accounts } from "./accounts.ts";
import { authenticate } from "./auth.ts";
import { inquire, payBill } from "./bills.ts";
import type { Catalogue } from "./catalogue.ts";
import type { Delays } from "./delays.ts";
import { failure, ok, SERVER_ERROR_BODY, validationError } from "./envelope.ts";
import type { FaultRoll } from "./faults.ts";
import { KEY_SERVER_ERROR_BODY, keyFailure, keyValidationError } from "./key-format.ts";
import {
  hasBearer,
  isKeyRequest,
  KEY_GONE_MESSAGE,
  registerKeyRoutes,
  sendKey,
  warningHeader,
} from "./key-routes.ts";
import { type Caller, placeOrder } from "./orders.ts";
import type { OutcomeRemap } from "./outcomes.ts";
import type { RateLimiter } from "./rate-limit.ts";
import { isStatusQuery, resetConnection } from "./reset.ts";
import { transactionReply } from "./results.ts";
import { statusShows } from "./status-lag.ts";
import type { Store } from "./store.ts";
import { thousands } from "./time.ts";
import type { Envelope, Reply, SandboxFaults } from "./types.ts";
import { orderCmd, parseParams, productsParams, statusParams } from "./validation.ts";

// the HTTP face: routes, body parsing, the old release's forms, auth, rate limit, then the
// handlers; outcome 906/907 and injected faults act on the reply after the work is done.

const MAX_BODY_BYTES = 64 * 1024;

export interface AppDeps {
  accounts: Accounts;
  catalogue: Catalogue;
  store: Store;
  clock: Clock;
  logger: Logger;
  delays: Delays;
  rateLimiter: RateLimiter;
  faults: () => SandboxFaults;
  rollFaults: (faults: SandboxFaults) => FaultRoll;
  /** productInactiveRate's dice, thrown once per new order of an active product */
  rollProductOut: (faults: SandboxFaults) => boolean;
  settleDelayMs: number;
  slowReplyMs: number;
  /** the key interface's deprecation warning, read per request */
  deprecationWarning?: () => string | undefined;
  /** this sandbox's own outcome table over the standard one */
  outcomes?: OutcomeRemap | undefined;
}

const GONE_MESSAGE =
  "the old release stopped on 1 January 2026: send customer_no instead of phone, and cmd=inquiry on /v1/order instead of /v1/check";

function send(c: Context, status: Reply["status"], body: Envelope): Response {
  return c.json(body, status);
}

function isObject(v: unknown): v is Record<string, unknown> {
  return v !== null && typeof v === "object" && !Array.isArray(v);
}

export function createSandboxApp(deps: AppDeps): Hono {
  // the caller names the component (kios passes logger.child({ component: "sandbox" }))
  const log = deps.logger;
  const app = new Hono();
  const deprecationWarning = deps.deprecationWarning ?? (() => undefined);
  const handlerDeps = {
    catalogue: deps.catalogue,
    store: deps.store,
    clock: deps.clock,
    settleDelayMs: deps.settleDelayMs,
    keepFailedCharges: () => deps.faults().keepFailedCharges,
    outcomes: deps.outcomes,
    productOut: () => deps.rollProductOut(deps.faults()),
  };

  const endpoints: Record<string, (caller: Caller, body: Record<string, unknown>) => Reply> = {
    balance: (caller) =>
      ok("SUCCESS", "balance", {
        balance: caller.account.balance,
        balance_formatted: `Rp${thousands(caller.account.balance)}`,
      }),
    products(_caller, body) {
      const parsed = parseParams(productsParams, body);
      if (!parsed.ok) return parsed.reply;
      const list = deps.catalogue.byType[parsed.value.cmd];
      return ok("SUCCESS", `${list.length} ${parsed.value.cmd} products`, list, {
        total: list.length,
      });
    },
    order(caller, body) {
      const parsed = parseParams(orderCmd, body);
      if (!parsed.ok) return parsed.reply;
      switch (parsed.value.cmd) {
        case "inquiry":
          return inquire(handlerDeps, caller, body);
        case "pay-pasca":
          return payBill(handlerDeps, caller, body);
        default:
          return placeOrder(handlerDeps, caller, body);
      }
    },
    status(caller, body) {
      const parsed = parseParams(statusParams, body);
      if (!parsed.ok) return parsed.reply;
      const t = deps.store.transaction(caller.account.apiId, parsed.value.ref_id);
      return t
        ? transactionReply(statusShows(t, deps.clock.now(), deps.faults().statusLagMs), "status")
        : failure(
            404,
            "TRANSACTION_NOT_FOUND",
            `no transaction with ref_id ${parsed.value.ref_id}`,
          );
    },
  };

  app.get("/healthz", (c) => c.json({ ok: true, sandbox: true }));

  // in the form of the interface the request spoke
  const serverError = (c: Context) =>
    new Response(
      JSON.stringify(
        isKeyRequest(c.req.method, c.req.path) ? KEY_SERVER_ERROR_BODY : SERVER_ERROR_BODY,
      ),
      { status: 500, headers: { "content-type": "application/json" } },
    );

  // injected faults wrap everything under /v1. Most act after the request was handled, as a
  // real server that falls over after committing would; "before" faults do no work at all.
  app.use("/v1/*", async (c, next) => {
    const faults = deps.faults();
    const roll = deps.rollFaults(faults);
    if (roll.resetBefore) return resetConnection(c);
    if (roll.errorBefore || (roll.statusError && isStatusQuery(c.req.method, c.req.path))) {
      return serverError(c);
    }
    await next();
    if (roll.resetAfter) return resetConnection(c);
    if (roll.error) c.res = serverError(c);
    // the key interface puts its warning in its own envelope; the signed one says it in a
    // Warning header, as an HTTP API being retired would
    const warning = deprecationWarning();
    if (warning && !isKeyRequest(c.req.method, c.req.path)) {
      c.res.headers.set("deprecation", "true");
      c.res.headers.set("warning", warningHeader(warning));
    }
    if (roll.slow) await deps.delays.sleep(deps.slowReplyMs);
    if (faults.latencyMs > 0) await deps.delays.sleep(faults.latencyMs);
  });

  app.use(
    "/v1/*",
    bodyLimit({
      maxSize: MAX_BODY_BYTES,
      onError: (c) => {
        const errors = { body: [`must be at most ${MAX_BODY_BYTES} bytes`] };
        if (isKeyRequest(c.req.method, c.req.path)) {
          return sendKey(c, keyValidationError(errors), deprecationWarning());
        }
        const reply = validationError(errors);
        return send(c, reply.status, reply.body);
      },
    }),
  );

  // the old release's inquiry path; a key-interface caller (Bearer) gets the key's envelope
  app.post("/v1/check", (c) =>
    hasBearer(c)
      ? sendKey(c, keyFailure(410, "GONE", KEY_GONE_MESSAGE), deprecationWarning())
      : send(c, 410, failure(410, "GONE", GONE_MESSAGE).body),
  );

  registerKeyRoutes(app, {
    accounts: deps.accounts,
    catalogue: deps.catalogue,
    store: deps.store,
    clock: deps.clock,
    logger: log,
    delays: deps.delays,
    rateLimiter: deps.rateLimiter,
    settleDelayMs: deps.settleDelayMs,
    slowReplyMs: deps.slowReplyMs,
    deprecationWarning,
    outcomes: deps.outcomes,
    productOut: handlerDeps.productOut,
    statusShows: (t) => statusShows(t, deps.clock.now(), deps.faults().statusLagMs),
  });

  app.post("/v1/:endpoint", async (c) => {
    const name = c.req.param("endpoint");
    const handler = Object.hasOwn(endpoints, name) ? endpoints[name] : undefined;
    if (!handler) return send(c, 404, failure(404, "NOT_FOUND", `no endpoint /v1/${name}`).body);

    let body: unknown;
    try {
      body = JSON.parse(await c.req.text());
    } catch {
      const reply = validationError({ body: ["is not valid JSON"] });
      return send(c, reply.status, reply.body);
    }
    if (!isObject(body)) {
      const reply = validationError({ body: ["must be a JSON object"] });
      return send(c, reply.status, reply.body);
    }
    if (Object.hasOwn(body, "phone")) return send(c, 410, failure(410, "GONE", GONE_MESSAGE).body);

    const auth = authenticate(deps.accounts, deps.clock, body);
    if (!auth.ok) {
      log.debug({ endpoint: name, code: auth.reply.body.code }, "request refused");
      return send(c, auth.reply.status, auth.reply.body);
    }
    if (!deps.rateLimiter.take(auth.account.apiId)) {
      const reply = failure(429, "RATE_LIMITED", "too many requests; slow down");
      c.header("retry-after", "1");
      return send(c, reply.status, reply.body);
    }

    const reply = handler({ account: auth.account, key: auth.key }, body);
    log.debug({ endpoint: name, cmd: body.cmd, code: reply.body.code }, "request");
    if (reply.after === "server-error") return send(c, 500, SERVER_ERROR_BODY);
    if (reply.after === "slow") await deps.delays.sleep(deps.slowReplyMs);
    return send(c, reply.status, reply.body);
  });

  app.all("/v1/*", (c) =>
    c.req.method === "POST"
      ? send(c, 404, failure(404, "NOT_FOUND", `no endpoint ${c.req.path}`).body)
      : send(c, 405, failure(405, "METHOD_NOT_ALLOWED", "every operation is a POST").body),
  );
  app.notFound((c) => send(c, 404, failure(404, "NOT_FOUND", `no endpoint ${c.req.path}`).body));

  return app;
}
