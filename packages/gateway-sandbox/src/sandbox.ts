import { listen, seededRng, systemClock } from "@kios/kit";
import { pino } from "pino";
import { createGatewayApp } from "./app.ts";
import { createChargeBook } from "./charges.ts";
import { createNotificationSender } from "./notifications.ts";
import type { Charge, GatewayFaults, GatewaySandboxOptions, SentNotification } from "./types.ts";

// the composition root of the gateway sandbox.

/** sandbox credentials: not secret */
export const DEFAULT_GATEWAY_CREDENTIALS = {
  serverKey: "SB-Mid-server-kios-sandbox",
  clientKey: "SB-Mid-client-kios-sandbox",
  merchantId: "G-KIOS-SANDBOX",
} as const;

export const NO_GATEWAY_FAULTS: GatewayFaults = {
  dropNotifications: false,
  duplicateNotifications: false,
  lateNotificationMs: 0,
  forgeNotifications: false,
  statusErrorRate: 0,
  chargeErrorRate: 0,
  chargeLostAnswerRate: 0,
  latencyMs: 0,
  chargeQr: "both",
  chargeAnswerDelayMs: 0,
};

export interface GatewaySandbox {
  app: ReturnType<typeof createGatewayApp>;
  /** the buyer paid (another amount: the notification and status carry it, a mismatch) */
  pay(orderId: string, options?: { amount?: number }): Charge | undefined;
  deny(orderId: string): Charge | undefined;
  expire(orderId: string): Charge | undefined;
  charges(): Charge[];
  /** every notification POST made, with the answer it got */
  notifications(): SentNotification[];
  setFaults(faults: Partial<GatewayFaults>): void;
  /** sends a charge's last notification again (a replay) */
  resend(orderId: string): void;
  setNotificationUrl(url: string | undefined): void;
  /** expires charges whose time is up now (the clock may be a test's) */
  expireDue(): void;
  /** resolves when every notification under way was delivered or given up */
  idle(): Promise<void>;
  stop(): void;
}

export interface RunningGatewaySandbox extends Omit<GatewaySandbox, "app" | "stop"> {
  /** e.g. http://127.0.0.1:40123: MIDTRANS_BASE_URL */
  url: string;
  port: number;
  close(): Promise<void>;
}

export function createGatewaySandbox(
  options: GatewaySandboxOptions = {},
  baseUrl: () => string = () => "",
): GatewaySandbox {
  const clock = options.clock ?? systemClock;
  const logger = options.logger ?? pino({ level: "silent" });
  const serverKey = options.serverKey ?? DEFAULT_GATEWAY_CREDENTIALS.serverKey;
  const merchantId = DEFAULT_GATEWAY_CREDENTIALS.merchantId;
  let faults: GatewayFaults = { ...NO_GATEWAY_FAULTS, ...options.faults };
  const sender = createNotificationSender({
    serverKey,
    merchantId,
    url: options.notificationUrl,
    clock,
    logger,
    faults: () => faults,
    retryDelaysMs: options.notificationRetryDelaysMs ?? [500, 2_000, 5_000],
  });
  const charges = createChargeBook({
    clock,
    defaultExpiryMinutes: options.defaultExpiryMinutes ?? 15,
    onMove: (charge) => {
      logger.info({ orderId: charge.orderId, status: charge.status }, "charge moved");
      sender.notify(charge);
    },
  });
  const controls = {
    setFaults(f: Partial<GatewayFaults>) {
      faults = { ...faults, ...f };
    },
    resend: (orderId: string) => sender.resend(orderId),
    notifications: () => sender.sent,
  };
  const app = createGatewayApp({
    serverKey,
    merchantId,
    charges,
    faults: () => faults,
    // seeded, so a seed replays the same faults
    roll: seededRng(options.seed ?? 1),
    logger,
    baseUrl,
    controls,
  });
  // pending charges expire on their own, as Midtrans's do
  const ticker = setInterval(() => charges.expireDue(), 1_000);
  ticker.unref();
  return {
    app,
    pay: (orderId, o) => charges.move(orderId, "settlement", o?.amount),
    deny: (orderId) => charges.move(orderId, "deny"),
    expire: (orderId) => charges.move(orderId, "expire"),
    charges: () => charges.list(),
    notifications: () => sender.sent,
    setFaults: controls.setFaults,
    resend: controls.resend,
    setNotificationUrl: (url) => sender.setUrl(url),
    expireDue: () => charges.expireDue(),
    idle: () => sender.idle(),
    stop() {
      clearInterval(ticker);
      sender.close();
    },
  };
}

/** the sandbox on a port (0: a free one), on 127.0.0.1 unless told otherwise */
export async function startGatewaySandbox(
  options: GatewaySandboxOptions & { port?: number; hostname?: string } = {},
): Promise<RunningGatewaySandbox> {
  let url = "";
  const sandbox = createGatewaySandbox(options, () => url);
  const hostname = options.hostname ?? "127.0.0.1";
  const server = await listen(sandbox.app, options.port ?? 0, hostname, {
    keepIdleConnections: true,
  });
  url = `http://${hostname.includes(":") ? `[${hostname}]` : hostname}:${server.port}`;
  const { app: _app, stop, ...controls } = sandbox;
  return {
    ...controls,
    url,
    port: server.port,
    async close() {
      stop();
      await server.close();
    },
  };
}
