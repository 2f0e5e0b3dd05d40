import type { RunningGatewaySandbox } from "@kios/gateway-sandbox";
import type { Clock } from "@kios/kit";
import type { Config } from "../config.ts";
import { createMidtransGateway } from "../gateway/midtrans.ts";
import type { PaymentGateway } from "../gateway/types.ts";
import type { Logger } from "../logger.ts";

export interface GatewayConnection {
  gateway: PaymentGateway;
  /** set when kios runs its own gateway sandbox (the playground, no supplier configured) */
  sandbox: RunningGatewaySandbox | undefined;
  /** the sandbox's page that pays a QR, for the playground's "pay" button */
  payPageUrl: ((gatewayOrderId: string) => string) | undefined;
  /** tells the sandbox where kios takes notifications, once kios listens */
  reportTo(url: string): void;
  /** for the start-up log, without secrets */
  description: string;
  close(): Promise<void>;
}

/**
 * the payment gateway the configuration names: Midtrans with the shop's server key, or, with
 * neither a supplier nor a gateway configured, the embedded gateway sandbox (design rule 8: never
 * beside a real supplier). undefined: no gateway; deposits are manual transfers.
 */
export async function connectGateway(deps: {
  config: Config;
  clock?: Clock;
  logger: Logger;
}): Promise<GatewayConnection | undefined> {
  const { payments } = deps.config;
  if (!payments) return undefined;
  if (payments.gateway === "midtrans") {
    if (payments.testing) {
      // a staging shop: said at every start, where the owner reads what runs
      deps.logger.warn(
        { testGateway: payments.testing },
        "PAYMENT_GATEWAY_TESTING=true: a test gateway beside a real supplier; QRs paid in the " +
          "gateway's simulator credit real wallets that buy real products. A staging shop only",
      );
    }
    const host = new URL(payments.baseUrl).host;
    return {
      gateway: createMidtransGateway({ serverKey: payments.serverKey, baseUrl: payments.baseUrl }),
      sandbox: undefined,
      payPageUrl: undefined,
      reportTo: () => {},
      description: payments.testing
        ? `midtrans at ${host} (a test gateway: PAYMENT_GATEWAY_TESTING=true)`
        : `midtrans at ${host}`,
      close: async () => {},
    };
  }
  // loaded only here, so a process that sells for real never loads the simulator
  const { DEFAULT_GATEWAY_CREDENTIALS, startGatewaySandbox } = await import(
    "@kios/gateway-sandbox"
  );
  const sandbox = await startGatewaySandbox({
    port: 0,
    hostname: "127.0.0.1",
    logger: deps.logger.child({ component: "gateway-sandbox" }),
    ...(deps.clock ? { clock: deps.clock } : {}),
  });
  return {
    gateway: createMidtransGateway({
      serverKey: DEFAULT_GATEWAY_CREDENTIALS.serverKey,
      baseUrl: sandbox.url,
    }),
    sandbox,
    payPageUrl: (id) => `${sandbox.url}/pay/${encodeURIComponent(id)}`,
    reportTo: (url) => sandbox.setNotificationUrl(url),
    description: `embedded gateway sandbox at ${sandbox.url}`,
    close: () => sandbox.close(),
  };
}
