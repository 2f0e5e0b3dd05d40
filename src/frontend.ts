import type { FrontendFactory, Role } from "./app.ts";
import { telegramFrontend } from "./bot/frontend.ts";
import type { Config } from "./config.ts";
import type { Logger } from "./logger.ts";
import { playgroundAdminIds, playgroundFrontend } from "./playground/mode.ts";
import { freePort } from "./server/listen.ts";

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
        logger,
        ...(options.pollingTimeoutSeconds
          ? { pollingTimeoutSeconds: options.pollingTimeoutSeconds }
          : {}),
      }),
    };
  }
  if ((options.role ?? "all") !== "all") return { config, kind: "none", frontend: undefined };
  // the bot reaches the local Bot API server through kios's own port, so it must be known
  const port = config.port === 0 ? await freePort() : config.port;
  const adminIds = playgroundAdminIds(config.adminIds);
  return {
    config: { ...config, port, adminIds },
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
