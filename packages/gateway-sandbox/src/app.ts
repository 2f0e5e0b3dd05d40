import { timingSafeEqual } from "node:crypto";
import { Hono } from "hono";
import type { Logger } from "pino";
import type { ChargeBook } from "./charges.ts";
import { errorBody, grossOf, jakartaTime, statusBody } from "./midtrans-wire.ts";
import { payPage } from "./pay-page.ts";
import { qrPng } from "./qris.ts";
import type { GatewayFaults } from "./types.ts";

// Midtrans's Core API routes for QRIS (charge, status, cancel, the QR image), behind HTTP
// Basic auth with the server key, plus the buyer's pay page and a control API for tests.

export interface GatewayAppDeps {
  serverKey: string;
  merchantId: string;
  charges: ChargeBook;
  faults: () => GatewayFaults;
  /** a number in [0, 1) from the seeded dice */
  roll: () => number;
  logger: Logger;
  /** the base URL the sandbox is reached at (the QR image's address) */
  baseUrl: () => string;
  controls: {
    setFaults(f: Partial<GatewayFaults>): void;
    resend(orderId: string): void;
    notifications(): unknown[];
  };
}

const ORDER_ID = /^[A-Za-z0-9\-_.~]{1,50}$/;

function authorised(header: string | undefined, serverKey: string): boolean {
  const m = header && /^Basic\s+(.+)$/i.exec(header);
  if (!m) return false;
  const given = Buffer.from(Buffer.from(m[1]!, "base64").toString("utf8"));
  const expected = Buffer.from(`${serverKey}:`);
  return given.length === expected.length && timingSafeEqual(given, expected);
}

export function createGatewayApp(d: GatewayAppDeps): Hono {
  const app = new Hono();
  const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

  app.use("/v2/*", async (c, next) => {
    const latency = d.faults().latencyMs;
    if (latency > 0) await sleep(latency);
    // the QR image is fetched by a browser or a bot: Midtrans serves it without auth
    if (c.req.path.endsWith("/qr-code")) return next();
    if (!authorised(c.req.header("authorization"), d.serverKey)) {
      return c.json(
        errorBody("401", "Unknown Merchant server_key/id", { id: crypto.randomUUID() }),
        401,
      );
    }
    return next();
  });

  app.post("/v2/charge", async (c) => {
    let body: Record<string, unknown>;
    try {
      body = (await c.req.json()) as Record<string, unknown>;
    } catch {
      return c.json(errorBody("400", "Invalid JSON"), 400);
    }
    const details = (body.transaction_details ?? {}) as Record<string, unknown>;
    const orderId = details.order_id;
    const amount = details.gross_amount;
    const problems: string[] = [];
    if (body.payment_type !== "qris") problems.push("payment_type must be qris");
    if (typeof orderId !== "string" || !ORDER_ID.test(orderId)) {
      problems.push("transaction_details.order_id is required (at most 50 of A-Z a-z 0-9 - _ . ~)");
    }
    if (typeof amount !== "number" || !Number.isSafeInteger(amount) || amount < 1) {
      problems.push("transaction_details.gross_amount must be a whole number of at least 1");
    }
    const expiry = body.custom_expiry as { expiry_duration?: unknown; unit?: unknown } | undefined;
    let expiryMinutes: number | undefined;
    if (expiry) {
      const unit = { minute: 1, hour: 60, day: 1440 }[String(expiry.unit)];
      const n = expiry.expiry_duration;
      if (!unit || typeof n !== "number" || !Number.isSafeInteger(n) || n < 1) {
        problems.push("custom_expiry needs expiry_duration (whole) and unit minute|hour|day");
      } else {
        expiryMinutes = n * unit;
      }
    }
    if (problems.length > 0) {
      return c.json(
        errorBody("400", "One or more parameters in the payload is invalid.", {
          validation_messages: problems,
        }),
        400,
      );
    }
    const f = d.faults();
    if (d.roll() < f.chargeErrorRate) {
      return c.json(errorBody("500", "Sorry, we encountered internal server error."), 500);
    }
    const acquirer = String((body.qris as { acquirer?: unknown } | undefined)?.acquirer ?? "gopay");
    const created = d.charges.create({
      orderId: orderId as string,
      amount: amount as number,
      expiryMinutes,
      acquirer,
    });
    if (!created) {
      return c.json(
        errorBody(
          "406",
          "The request could not be completed due to a conflict with the current state of the target resource, please try again",
          { id: crypto.randomUUID() },
        ),
        406,
      );
    }
    if (d.roll() < f.chargeLostAnswerRate) {
      return c.json(errorBody("504", "Gateway timeout"), 504);
    }
    if (f.chargeAnswerDelayMs > 0) await sleep(f.chargeAnswerDelayMs);
    const answer: Record<string, unknown> = {
      status_code: "201",
      status_message: "QRIS transaction is created",
      transaction_id: created.transactionId,
      order_id: created.orderId,
      merchant_id: d.merchantId,
      gross_amount: grossOf(created.grossAmount),
      currency: "IDR",
      payment_type: "qris",
      transaction_time: jakartaTime(created.createdAt),
      transaction_status: "pending",
      fraud_status: "accept",
      actions: [
        {
          name: "generate-qr-code",
          method: "GET",
          url: `${d.baseUrl()}/v2/qris/${created.transactionId}/qr-code`,
        },
      ],
      qr_string: created.qrString,
      acquirer: created.acquirer,
      expiry_time: jakartaTime(created.expiresAt),
    };
    if (f.chargeQr !== "both") delete answer.qr_string;
    if (f.chargeQr === "none") delete answer.actions;
    return c.json(answer);
  });

  app.get("/v2/qris/:transactionId/qr-code", async (c) => {
    const charge = d.charges.byTransaction(c.req.param("transactionId"));
    if (!charge) return c.json(errorBody("404", "Transaction doesn't exist."), 404);
    const png = await qrPng(charge.qrString);
    return c.body(new Uint8Array(png), 200, { "content-type": "image/png" });
  });

  app.get("/v2/:orderId/status", (c) => {
    if (d.roll() < d.faults().statusErrorRate) {
      return c.json(errorBody("500", "Sorry, we encountered internal server error."), 500);
    }
    const charge = d.charges.get(c.req.param("orderId"));
    if (!charge) return c.json(errorBody("404", "Transaction doesn't exist."), 404);
    return c.json(statusBody(charge, d.merchantId));
  });

  app.post("/v2/:orderId/cancel", (c) => {
    const orderId = c.req.param("orderId");
    const charge = d.charges.get(orderId);
    if (!charge) return c.json(errorBody("404", "Transaction doesn't exist."), 404);
    if (charge.status !== "pending") {
      return c.json(errorBody("412", "Merchant cannot modify the status of the transaction"), 412);
    }
    const after = d.charges.move(orderId, "cancel");
    return c.json({
      ...statusBody(after!, d.merchantId),
      status_message: "Success, transaction is canceled",
    });
  });

  // the buyer's page, and its buttons
  app.get("/pay/:orderId", (c) => {
    const orderId = c.req.param("orderId");
    return c.html(payPage(d.charges.get(orderId), orderId), d.charges.get(orderId) ? 200 : 404);
  });
  app.post("/pay/:orderId/:action", (c) => {
    const orderId = c.req.param("orderId");
    const action = c.req.param("action");
    const status = ({ pay: "settlement", deny: "deny", expire: "expire" } as const)[
      action as "pay" | "deny" | "expire"
    ];
    if (!status) return c.text("unknown action", 400);
    if (!d.charges.get(orderId)) return c.text("unknown payment", 404);
    d.charges.move(orderId, status);
    return c.redirect(`/pay/${encodeURIComponent(orderId)}`, 303);
  });

  // the control API (tests, scripts): JSON in, JSON out
  app.post("/_control/charges/:orderId/:action", async (c) => {
    const orderId = c.req.param("orderId");
    const action = c.req.param("action");
    const body = (await c.req.json().catch(() => ({}))) as { amount?: unknown };
    if (!d.charges.get(orderId)) return c.json({ error: "unknown_payment" }, 404);
    if (action === "resend") {
      d.controls.resend(orderId);
      return c.json({ ok: true });
    }
    const status = ({ pay: "settlement", deny: "deny", expire: "expire" } as const)[
      action as "pay" | "deny" | "expire"
    ];
    if (!status) return c.json({ error: "unknown_action" }, 400);
    const paid = typeof body.amount === "number" ? body.amount : undefined;
    const after = d.charges.move(orderId, status, paid);
    return c.json({ ok: true, status: after?.status });
  });
  app.get("/_control/charges", (c) => c.json({ charges: d.charges.list() }));
  app.get("/_control/notifications", (c) => c.json({ notifications: d.controls.notifications() }));
  app.post("/_control/faults", async (c) => {
    const body = (await c.req.json().catch(() => undefined)) as Partial<GatewayFaults> | undefined;
    if (!body || typeof body !== "object")
      return c.json({ error: "faults must be an object" }, 400);
    d.controls.setFaults(body);
    return c.json({ ok: true });
  });
  return app;
}
