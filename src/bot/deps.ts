import type { UserFromGetMe } from "grammy/types";
import type { OrderDeps } from "../commerce/orders/deps.ts";
import type { Logger } from "../logger.ts";

interface BotConfig {
  adminIds: readonly number[];
  supplierTesting: boolean;
  /** the most one admin credit/debit or deposit may move (default MAX_OPERATION_AMOUNT) */
  maxAmount?: number;
}

/** everything the bot needs, handed in once by the composition root */
export interface BotDeps {
  token: string;
  /** the Bot API server (TELEGRAM_API_ROOT) */
  apiRoot: string;
  logger: Logger;
  config: BotConfig;
  /** the order engine; also the one place the bot takes the database, clock and supplier from */
  orders: OrderDeps;
  /** skips getMe at start (tests) */
  botInfo?: UserFromGetMe;
}
