import type { Clock } from "@kios/kit";
import type { UserFromGetMe } from "grammy/types";
import type { SecretBox } from "../commerce/h2h/cipher.ts";
import type { OrderEngine } from "../commerce/orders/engine.ts";
import type { PaymentEngine } from "../commerce/payments/engine.ts";
import type { Sealer } from "../commerce/secrets/box.ts";
import type { Database } from "../db/client.ts";
import type { Logger } from "../logger.ts";
import type { Logo } from "./ui/pictures/logo.ts";

interface BotConfig {
  adminIds: readonly number[];
  supplierTesting: boolean;
  /** the most one admin credit/debit or deposit may move (default MAX_OPERATION_AMOUNT) */
  maxAmount?: number;
  /** the shop's name on receipts (SHOP_NAME); default the bot's name */
  shopName?: string | undefined;
  /** the shop's logo on receipts and price-list pictures (SHOP_LOGO) */
  shopLogo?: Logo | undefined;
  /** the Mini App's address (🛍 Katalog); none: the button is not shown */
  miniAppUrl?: string | undefined;
  /** the H2H API for resellers (/api); absent: off */
  h2h?: BotH2h | undefined;
}

/** what /api needs: the box that seals keys, and the address resellers are given */
export interface BotH2h {
  box: SecretBox;
  /** PUBLIC_URL + /h2h/v1; undefined: the shop has no public address yet */
  apiUrl: string | undefined;
  /** a callback URL may be plain http to this machine (tests, the playground) */
  allowLoopbackHttp: boolean;
}

/** deposits by QR through a payment gateway */
export interface BotPayments {
  engine: PaymentEngine;
  /** the manual transfer (an admin confirms it) is offered too */
  manual: boolean;
  /** the gateway sandbox's page that pays a QR (the playground's "pay" button) */
  payPageUrl?: (gatewayOrderId: string) => string;
}

/** everything the bot needs, handed in once by the composition root */
export interface BotDeps {
  token: string;
  /** the Bot API server (TELEGRAM_API_ROOT) */
  apiRoot: string;
  logger: Logger;
  config: BotConfig;
  /** the shop's database: the bot passes it to the commerce core's query functions */
  db: Database;
  clock: Clock;
  /** the order engine: quotes, Pay, re-checks */
  orders: OrderEngine;
  /** QR deposits; absent: deposits are manual transfers only */
  payments?: BotPayments | undefined;
  /**
   * seals the chat's secrets at rest (a keypad's layout and presses); default: a box keyed
   * by the bot token, the one secret every bot process holds and the database never does
   */
  secrets?: Sealer | undefined;
  /** skips getMe at start (tests) */
  botInfo?: UserFromGetMe;
}
