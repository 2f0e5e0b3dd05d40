import { freePort } from "@kios/kit";
import type { FrontendFactory, Role } from "./app.ts";
import { telegramFrontend } from "./bot/frontend.ts";
import { type Config, ConfigError } from "./config.ts";
import type { Logger } from "./logger.ts";
import { playgroundAdminIds, playgroundFrontend } from "./playground/mode.ts";

export interface FrontendChoice {
  /** the configuration to run with (the playground fixes the port and adds its admin) */
  config: Config;
  frontend: FrontendFactory | undefined;
  kind: "telegram" | "playground" | "none";
}

/**
 * the chat front end the configuration asks for: the Telegram bot when BOT_TOKEN is set
 * (at TELEGRAM_API_ROOT, which may be any Bot API server); otherwise, in a process that
 * runs everything, the playground: a local Bot API server and a chat page on kios's port.
 */
export async function chooseFrontend(
  config: Config,
  logger: Logger,
  options: { role?: Role; pollingTimeoutSeconds?: number } = {},
): Promise<FrontendChoice> {
  if (config.botToken) {
    return {
      config,
      kind: "telegram",
      frontend: telegramFrontend({
        token: config.botToken,
        apiRoot: config.telegramApiRoot,
        mode: config.botMode,
        publicUrl: config.publicUrl,
        webhookSecret: config.webhookSecret,
        adminIds: config.adminIds,
        supplierTesting: config.supplierTesting,
        maxAmount: config.maxAmount,
        logger,
        ...(options.pollingTimeoutSeconds
          ? { pollingTimeoutSeconds: options.pollingTimeoutSeconds }
          : {}),
      }),
    };
  }
  if ((options.role ?? "all") !== "all") return { config, kind: "none", frontend: undefined };
  if (config.supplier) {
    // the playground's demo admin, test balance and unauthenticated control API must never
    // stand in front of a supplier that charges real money
    throw new ConfigError([
      "BOT_TOKEN is missing: with SUPPLIER_* set kios sells for real and needs your bot's token " +
        "(the playground runs only on the embedded sandbox; unset SUPPLIER_* to try it); " +
        "for example BOT_TOKEN=123456789:AAH-your-token-from-BotFather",
    ]);
  }
  // the bot reaches the local Bot API server through kios's own port, so it must be known
  const port = config.port === 0 ? await freePort() : config.port;
  const adminIds = playgroundAdminIds(config.adminIds);
  return {
    config: { ...config, port, adminIds, host: config.host ?? "127.0.0.1" },
    kind: "playground",
    frontend: playgroundFrontend({
      port,
      adminIds,
      supplierTesting: config.supplierTesting,
      logger,
      ...(options.pollingTimeoutSeconds
        ? { pollingTimeoutSeconds: options.pollingTimeoutSeconds }
        : {}),
    }),
  };
}
