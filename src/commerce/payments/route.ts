import { Hono } from "hono";
import type { Database } from "../../db/client.ts";
import { isStorableText, unstorableField } from "../../db/storable-text.ts";
import type { PaymentGateway } from "../../gateway/types.ts";
import type { Logger } from "../../logger.ts";
import { bodyText, bodyWithin } from "../../server/body.ts";
import type { AppEnv } from "../../server/create-server.ts";
import { storeGatewayReport } from "./gateway-reports.ts";
import { getPaymentByOrderId } from "./payments.ts";

export const GATEWAY_REPORT_PATH = "/payments/midtrans/notification";

export interface GatewayReportRouteDeps {
  db: Database;
  gateway: PaymentGateway;
  logger: Logger;
  /** a notification for this payment was stored: ask the gateway about it (a job) */
  onStored(paymentId: number): Promise<void>;
}

/**
 * POST /payments/midtrans/notification, the gateway's HTTP notification (design rule 14: evidence,
 * not truth): its signature is checked in constant time, it is stored once, and the payment
 * is then asked about with the gateway's status API; only that answer moves money.
 */
export function createGatewayReportRoute(d: GatewayReportRouteDeps): Hono<AppEnv> {
  const log = d.logger.child({ component: "payment-notifications" });
  return new Hono<AppEnv>().post(
    GATEWAY_REPORT_PATH,
    bodyWithin<AppEnv>(64 * 1024, (c) => c.json({ error: "payload_too_large" }, 413)),
    async (c) => {
      const raw = await bodyText(c);
      let body: unknown;
      try {
        body = JSON.parse(raw);
      } catch {
        return c.json({ error: "malformed_notification" }, 400);
      }
      const verified = d.gateway.verifyReport(body);
      if (!verified) {
        log.warn({ requestId: c.get("requestId") }, "payment notification refused: bad signature");
        return c.json({ error: "unauthorized" }, 401);
      }
      // signed, but what PostgreSQL can't store (a NUL, a lone surrogate): a 400 the gateway
      // can see, not a 500 it would send again
      if (!isStorableText(raw) || unstorableField(body) !== undefined) {
        log.warn({ requestId: c.get("requestId") }, "payment notification holds unstorable text");
        return c.json({ error: "malformed_notification" }, 400);
      }
      const payment = await getPaymentByOrderId(d.db, verified.orderId);
      if (!payment) {
        log.warn({ orderId: verified.orderId }, "payment notification for an unknown order");
        return c.json({ error: "unknown_order" }, 404);
      }
      const { duplicate } = await storeGatewayReport(d.db, {
        gateway: d.gateway.name,
        gatewayOrderId: verified.orderId,
        rawBody: raw,
      });
      log.info({ paymentId: payment.id, says: verified.state, duplicate }, "payment notification");
      await d.onStored(payment.id);
      return c.json({ ok: true, duplicate });
    },
  );
}
