import { timingSafeEqual } from "node:crypto";
import { midtransSignature } from "@kios/kit";
import { z } from "zod";
import { fetchQrImage, QR_IMAGE_TIMEOUT_MS } from "./qr-image.ts";
import type {
  CreatedPayment,
  CreatePaymentRequest,
  GatewayPaymentStatus,
  PaymentGateway,
  PaymentState,
  VerifiedGatewayReport,
} from "./types.ts";
import { GatewayError } from "./types.ts";

// Midtrans Core API, QRIS (https://docs.midtrans.com/reference/qris, /docs/https-notification-webhooks).
// A thin client on the documented HTTP API rather than the `midtrans-client` package: that
// package fixes its base URLs (api.midtrans.com, api.sandbox.midtrans.com), so it can't talk
// to the local gateway sandbox that tests and the playground use, and it brings axios.

export const MIDTRANS_BASE_URLS = {
  production: "https://api.midtrans.com",
  sandbox: "https://api.sandbox.midtrans.com",
} as const;

export interface MidtransOptions {
  serverKey: string;
  /** api.midtrans.com, api.sandbox.midtrans.com, or the local gateway sandbox */
  baseUrl: string;
  /** QRIS acquirer; Midtrans's default is gopay */
  acquirer?: string;
  timeoutMs?: number;
  /** fetching the QR picture when a charge's answer has no qr_string (default 5 s) */
  qrImageTimeoutMs?: number;
  fetch?: typeof fetch;
}

const stateOf: Record<string, PaymentState> = {
  pending: "pending",
  settlement: "paid",
  capture: "paid",
  expire: "expired",
  cancel: "cancelled",
  deny: "denied",
  failure: "failed",
  refund: "refunded",
  partial_refund: "refunded",
  chargeback: "refunded",
  partial_chargeback: "refunded",
};

/** "50000.00" → 50000; undefined for anything that isn't a whole rupiah amount */
function rupiahOf(gross: unknown): number | undefined {
  if (typeof gross !== "string" && typeof gross !== "number") return undefined;
  const match = /^(\d{1,12})(?:\.0{1,2})?$/.exec(String(gross));
  return match ? Number(match[1]) : undefined;
}

const statusBody = z.looseObject({
  status_code: z.string(),
  status_message: z.string().optional(),
  order_id: z.string().optional(),
  transaction_id: z.string().optional(),
  transaction_status: z.string().optional(),
  gross_amount: z.union([z.string(), z.number()]).optional(),
  fraud_status: z.string().optional(),
});

const chargeBody = statusBody.extend({
  qr_string: z.string().optional(),
  expiry_time: z.string().optional(),
  actions: z.array(z.looseObject({ name: z.string(), url: z.string() })).optional(),
});

const reportBody = z.looseObject({
  order_id: z.string().min(1).max(64),
  status_code: z.string().max(8),
  gross_amount: z.string().max(24),
  signature_key: z.string().regex(/^[0-9a-f]{128}$/i),
  transaction_status: z.string().max(32),
  fraud_status: z.string().optional(),
});

/** Midtrans's times are Jakarta's (UTC+7), written "2026-11-24 10:15:00" */
function jakartaTime(text: string | undefined): Date | undefined {
  const m = text && /^(\d{4}-\d{2}-\d{2}) (\d{2}:\d{2}:\d{2})$/.exec(text);
  return m ? new Date(`${m[1]}T${m[2]}+07:00`) : undefined;
}

function statusOf(orderId: string, body: z.infer<typeof statusBody>): GatewayPaymentStatus {
  if (body.status_code === "404") return { orderId, state: "not_found", raw: "404" };
  const raw = body.transaction_status ?? "";
  let state = stateOf[raw];
  if (!state) throw new GatewayError(`midtrans: unknown transaction_status "${raw}"`, true);
  // a card capture held by the fraud check is not money yet
  if (raw === "capture" && body.fraud_status && body.fraud_status !== "accept") state = "pending";
  return {
    orderId,
    state,
    amount: rupiahOf(body.gross_amount),
    transactionId: body.transaction_id,
    raw,
  };
}

export function createMidtransGateway(options: MidtransOptions): PaymentGateway {
  const base = options.baseUrl.replace(/\/+$/, "");
  const doFetch = options.fetch ?? fetch;
  const timeoutMs = options.timeoutMs ?? 15_000;
  const qrImageTimeoutMs = options.qrImageTimeoutMs ?? QR_IMAGE_TIMEOUT_MS;
  const authorization = `Basic ${Buffer.from(`${options.serverKey}:`).toString("base64")}`;

  async function call(method: "GET" | "POST", path: string, body?: unknown): Promise<unknown> {
    let res: Response;
    try {
      res = await doFetch(`${base}${path}`, {
        method,
        headers: {
          accept: "application/json",
          "content-type": "application/json",
          authorization,
        },
        body: body === undefined ? undefined : JSON.stringify(body),
        signal: AbortSignal.timeout(timeoutMs),
      });
    } catch (err) {
      throw new GatewayError(`midtrans: ${(err as Error).message}`, true);
    }
    const text = await res.text().catch(() => "");
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      throw new GatewayError(
        `midtrans: HTTP ${res.status}, not JSON`,
        res.status >= 500,
        res.status,
      );
    }
    if (res.status >= 500) throw new GatewayError(`midtrans: HTTP ${res.status}`, true, res.status);
    if (res.status === 401) {
      throw new GatewayError(
        "midtrans: the server key was refused (MIDTRANS_SERVER_KEY)",
        false,
        401,
      );
    }
    return json;
  }

  async function status(orderId: string): Promise<GatewayPaymentStatus> {
    const json = await call("GET", `/v2/${encodeURIComponent(orderId)}/status`);
    const parsed = statusBody.safeParse(json);
    if (!parsed.success) throw new GatewayError("midtrans: a status answer kios can't read", true);
    if (parsed.data.status_code.startsWith("5")) {
      throw new GatewayError(`midtrans: status ${parsed.data.status_code}`, true);
    }
    return statusOf(orderId, parsed.data);
  }

  return {
    name: "midtrans",
    chargeTimeoutMs: timeoutMs + qrImageTimeoutMs,
    status,

    async createPayment(r: CreatePaymentRequest): Promise<CreatedPayment> {
      const json = await call("POST", "/v2/charge", {
        payment_type: "qris",
        transaction_details: { order_id: r.orderId, gross_amount: r.amount },
        qris: { acquirer: options.acquirer ?? "gopay" },
        custom_expiry: { expiry_duration: r.expiresInMinutes, unit: "minute" },
      });
      const parsed = chargeBody.safeParse(json);
      if (!parsed.success)
        throw new GatewayError("midtrans: a charge answer kios can't read", true);
      const body = parsed.data;
      if (body.status_code !== "201") {
        // 5xx-like codes may have created it; a 4xx refusal did not
        const uncertain = body.status_code.startsWith("5");
        throw new GatewayError(
          `midtrans: charge refused (${body.status_code} ${body.status_message ?? ""})`.trim(),
          uncertain,
          Number(body.status_code),
        );
      }
      // created, so from here on an answer kios can't use leaves a payable charge behind:
      // uncertain, so the caller finds it and cancels it
      if (!body.transaction_id) {
        throw new GatewayError("midtrans: a created charge without transaction_id", true, 201);
      }
      const base = {
        orderId: r.orderId,
        transactionId: body.transaction_id,
        expiresAt:
          jakartaTime(body.expiry_time) ?? new Date(Date.now() + r.expiresInMinutes * 60_000),
      };
      if (body.qr_string) return { ...base, qrString: body.qr_string };
      // Midtrans's QRIS reference answers with the picture's link only
      const link = body.actions?.find((a) => a.name === "generate-qr-code")?.url;
      if (!link) {
        throw new GatewayError(
          "midtrans: a created charge without a QR (qr_string, actions)",
          true,
          201,
        );
      }
      const png = await fetchQrImage(link, {
        baseUrl: options.baseUrl,
        timeoutMs: qrImageTimeoutMs,
        fetch: doFetch,
      });
      return { ...base, png };
    },

    async cancel(orderId: string): Promise<GatewayPaymentStatus> {
      const json = await call("POST", `/v2/${encodeURIComponent(orderId)}/cancel`);
      const parsed = statusBody.safeParse(json);
      if (!parsed.success)
        throw new GatewayError("midtrans: a cancel answer kios can't read", true);
      // a payment that can't be cancelled any more (paid, expired) answers 412: ask its state
      if (parsed.data.status_code !== "200") return status(orderId);
      return statusOf(orderId, parsed.data);
    },

    verifyReport(body: unknown): VerifiedGatewayReport | undefined {
      const parsed = reportBody.safeParse(body);
      if (!parsed.success) return undefined;
      const n = parsed.data;
      const expected = Buffer.from(
        midtransSignature(n.order_id, n.status_code, n.gross_amount, options.serverKey),
        "hex",
      );
      const given = Buffer.from(n.signature_key.toLowerCase(), "hex");
      if (given.length !== expected.length || !timingSafeEqual(given, expected)) return undefined;
      return {
        orderId: n.order_id,
        state: stateOf[n.transaction_status] ?? "pending",
        amount: rupiahOf(n.gross_amount),
      };
    },
  };
}
