import { createHash } from "node:crypto";
import type { UserFromGetMe } from "grammy/types";
import type { Frontend, FrontendFactory } from "../app.ts";
import type { Logger } from "../logger.ts";
import { registerCommands } from "./commands.ts";
import { createI18n } from "./i18n.ts";
import { createBot } from "./index.ts";
import { createNotificationSender } from "./notify/send.ts";
import { type Polling, startPolling } from "./polling.ts";
import { pruneConversations } from "./storage.ts";
import {
  createTelegramWebhookRoute,
  pruneTelegramUpdates,
  setTelegramWebhook,
  UpdateTracker,
} from "./webhook.ts";

export interface TelegramFrontendOptions {
  token: string;
  /** the Bot API server: Telegram's, or kios's local one */
  apiRoot: string;
  mode: "polling" | "webhook";
  /** webhook mode: the public https base of this server, and Telegram's secret token */
  publicUrl?: string | undefined;
  webhookSecret?: string | undefined;
  adminIds: readonly number[];
  supplierTesting: boolean;
  maxAmount?: number;
  logger: Logger;
  /** long-poll timeout; tests use a short one so they stop quickly */
  pollingTimeoutSeconds?: number;
  botInfo?: UserFromGetMe;
}

/** the webhook path: derived from the token, so it is unguessable without revealing it */
function webhookPath(token: string): string {
  return createHash("sha256").update(`kios-webhook:${token}`).digest("hex").slice(0, 32);
}

/**
 * the Telegram bot as the app's chat front end. A web process serves the webhook; a
 * worker polls (in polling mode) and delivers notifications; "all" does what the mode needs.
 */
export function telegramFrontend(o: TelegramFrontendOptions): FrontendFactory {
  return async ({ orders, role }): Promise<Frontend> => {
    const log = o.logger.child({ component: "bot" });
    const bot = createBot({
      token: o.token,
      apiRoot: o.apiRoot,
      logger: o.logger,
      config: {
        adminIds: o.adminIds,
        supplierTesting: o.supplierTesting,
        maxAmount: o.maxAmount,
      },
      orders,
      botInfo: o.botInfo,
    });
    const i18n = createI18n();
    const tracker = new UpdateTracker();
    const serveWebhook = o.mode === "webhook" && role !== "worker";
    const poll = o.mode === "polling" && role !== "web";
    let polling: Polling | undefined;

    const routes = serveWebhook
      ? [
          createTelegramWebhookRoute({
            bot,
            secret: o.webhookSecret!,
            path: webhookPath(o.token),
            db: orders.db,
            logger: o.logger,
            tracker,
          }),
        ]
      : [];

    return {
      routes,
      sendNotification: createNotificationSender({
        api: bot.api,
        db: orders.db,
        i18n,
        adminIds: o.adminIds,
        logger: o.logger,
      }),
      async housekeeping(now) {
        // telegram never redelivers an update after a day; idle flows lapse after an hour
        await pruneTelegramUpdates(orders.db, new Date(now.getTime() - 2 * 86_400_000));
        await pruneConversations(orders.db, new Date(now.getTime() - 86_400_000));
      },
      async start() {
        await bot.init();
        try {
          await registerCommands(bot.api, i18n, o.adminIds, (adminId) =>
            // set again when they first send /start
            log.info({ adminId }, "admin menu waits until this admin opens the bot"),
          );
        } catch (err) {
          log.warn({ err }, "registering the command menus failed");
        }
        if (serveWebhook) {
          const url = `${o.publicUrl}/telegram/${webhookPath(o.token)}`;
          await setTelegramWebhook(bot, { url, secret: o.webhookSecret! });
          log.info({ username: bot.botInfo.username }, "bot: webhook set");
        }
        if (poll) {
          polling = await startPolling(bot, { timeoutSeconds: o.pollingTimeoutSeconds });
          log.info({ username: bot.botInfo.username }, "bot: polling");
        }
      },
      async stop() {
        await polling?.stop();
        await tracker.drain();
      },
    };
  };
}
