import type { FrontendFactory } from "./app.ts";
import { telegramFrontend } from "./bot/frontend.ts";
import type { Config } from "./config.ts";
import type { Logger } from "./logger.ts";

/** the chat front end the configuration asks for: the Telegram bot when BOT_TOKEN is set. */
export function frontendFor(
  config: Config,
  logger: Logger,
  options: { pollingTimeoutSeconds?: number } = {},
): FrontendFactory | undefined {
  if (!config.botToken) return undefined;
  return telegramFrontend({
    token: config.botToken,
    apiRoot: config.telegramApiRoot,
    mode: config.botMode,
    publicUrl: config.publicUrl,
    webhookSecret: config.webhookSecret,
    adminIds: config.adminIds,
    supplierTesting: config.supplierTesting,
    logger,
    ...options,
  });
}
