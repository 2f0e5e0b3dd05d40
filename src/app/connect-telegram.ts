import { freePort } from "@kios/kit";
import { telegramBotService } from "../bot/service.ts";
import { readLogo } from "../bot/ui/pictures/logo.ts";
import { createSecretBox } from "../commerce/h2h/cipher.ts";
import { type Config, ConfigError, callbackLoopbackAllowed } from "../config.ts";
import type { Logger } from "../logger.ts";
import { TELEGRAM_WEB_APP_SCRIPT, TELEGRAM_WEB_CLIENTS } from "../mini-app/page.ts";
import { playgroundH2hKey } from "../playground/h2h-key.ts";
import { playgroundAdminIds, playgroundBotService } from "../playground/mode.ts";
import type { BotServiceFactory, HttpListen, Role } from "./create-app.ts";

export interface TelegramConnection {
  bot: BotServiceFactory | undefined;
  kind: "telegram" | "playground" | "none";
  /** where HTTP listens: PORT and HOST, except that the playground fixes the port its bot
   * reaches and listens on 127.0.0.1 unless HOST says otherwise */
  http: HttpListen;
  /** the shop's admins: ADMIN_IDS, plus the playground's demo admin */
  adminIds: readonly number[];
  /**
   * the configuration the app runs with: the one given, except that the playground turns
   * the H2H API on with its own key when H2H_ENCRYPTION_KEY is unset
   */
  config: Config;
}

/**
 * the bot service the configuration asks for: the Telegram bot when BOT_TOKEN is set
 * (at TELEGRAM_API_ROOT, which may be any Bot API server); otherwise, in a process that
 * runs everything, the playground: a local Bot API server and a chat page on kios's port.
 */
export async function connectTelegram(
  config: Config,
  logger: Logger,
  options: { role?: Role; pollingTimeoutSeconds?: number } = {},
): Promise<TelegramConnection> {
  // read once at start: a bad file stops the start with a line saying what is wrong
  const shopLogo = config.shopLogo ? readLogo(config.shopLogo) : undefined;
  if (config.botToken) {
    return {
      kind: "telegram",
      http: { port: config.port, host: config.host },
      adminIds: config.adminIds,
      config,
      bot: telegramBotService({
        token: config.botToken,
        apiRoot: config.telegramApiRoot,
        mode: config.botMode,
        publicUrl: config.publicUrl,
        webhookSecret: config.webhookSecret,
        adminIds: config.adminIds,
        supplierTesting: config.supplierTesting,
        maxAmount: config.maxAmount,
        shopName: config.shopName,
        shopLogo,
        inboxConcurrency: config.inboxConcurrency,
        h2h: config.h2h && {
          box: createSecretBox(config.h2h.encryptionKey),
          apiUrl: config.publicUrl ? `${config.publicUrl}/h2h/v1` : undefined,
          allowLoopbackHttp: callbackLoopbackAllowed(config),
        },
        logger,
        pollingTimeoutSeconds: options.pollingTimeoutSeconds,
        miniApp: {
          // Telegram opens Mini Apps over https only: no buttons without such an address
          url: config.publicUrl?.startsWith("https://") ? `${config.publicUrl}/app` : undefined,
          telegramScript: TELEGRAM_WEB_APP_SCRIPT,
          frameAncestors: TELEGRAM_WEB_CLIENTS,
        },
      }),
    };
  }
  if ((options.role ?? "all") !== "all") {
    return {
      kind: "none",
      bot: undefined,
      http: { port: config.port, host: config.host },
      adminIds: config.adminIds,
      config,
    };
  }
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
  // nothing real is sold here, so the H2H API the README shows is on from the first start,
  // sealed with a key kept in the data folder (H2H_ENCRYPTION_KEY, when set, wins)
  const playground: Config = config.h2h
    ? config
    : {
        ...config,
        h2h: { encryptionKey: playgroundH2hKey(config.pgliteDir), callbackAllowLoopback: false },
      };
  const h2h = playground.h2h!;
  return {
    kind: "playground",
    http: { port, host: config.host ?? "127.0.0.1" },
    adminIds,
    config: playground,
    bot: playgroundBotService({
      port,
      adminIds,
      supplierTesting: config.supplierTesting,
      logger,
      pollingTimeoutSeconds: options.pollingTimeoutSeconds,
      shopName: config.shopName,
      shopLogo,
      inboxConcurrency: config.inboxConcurrency,
      h2h: {
        box: createSecretBox(h2h.encryptionKey),
        apiUrl: `http://127.0.0.1:${port}/h2h/v1`,
        allowLoopbackHttp: true,
      },
    }),
  };
}
