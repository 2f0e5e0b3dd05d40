import { createHash } from "node:crypto";
import type { Api } from "grammy";
import type { UserFromGetMe } from "grammy/types";
import type { BotService, BotServiceFactory } from "../app/create-app.ts";
import { findUser } from "../commerce/users.ts";
import { pruneLapsedPads } from "../commerce/wallet/pin-pads.ts";
import { INBOX_CONCURRENCY_DEFAULT } from "../config.ts";
import type { Database } from "../db/client.ts";
import type { Logger } from "../logger.ts";
import type { MiniAppPageOptions } from "../mini-app/page.ts";
import type { HealthReport } from "../server/create-server.ts";
import type { BotH2h } from "./deps.ts";
import { createUpdatePipeline } from "./inbox/pipeline.ts";
import { createTelegramWebhookRoute, setTelegramWebhook } from "./inbox/webhook.ts";
import { createBot } from "./index.ts";
import { createMiniAppChat } from "./mini-app/chat.ts";
import { setMiniAppMenuButton } from "./mini-app/menu-button.ts";
import { createMiniAppWords } from "./mini-app/words.ts";
import { createNotificationSender } from "./notifications/sender.ts";
import { notificationRenderers } from "./renderers.ts";
import { pruneConversations } from "./storage/chat-state.ts";
import { dueMessages, forgetMessage } from "./storage/expiring.ts";
import { adoptUpdates, botIdOfToken, inboxStats, pruneHandledUpdates } from "./storage/updates.ts";
import { registerCommands } from "./ui/commands.ts";
import { createI18n, DEFAULT_LANGUAGE, isLanguage } from "./ui/i18n.ts";
import type { Logo } from "./ui/pictures/logo.ts";

export interface BotServiceOptions {
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
  /** the shop's name on receipts (SHOP_NAME) */
  shopName?: string | undefined;
  /** the shop's logo on receipts and price-list pictures (SHOP_LOGO) */
  shopLogo?: Logo | undefined;
  /** how many chats one worker handles at once */
  inboxConcurrency?: number;
  logger: Logger;
  /** long-poll timeout; tests use a short one so they stop quickly */
  pollingTimeoutSeconds?: number;
  botInfo?: UserFromGetMe;
  /** the Mini App: its address for the buttons (none: no buttons), and how its page is served */
  miniApp?: MiniAppOptions | undefined;
  /** the H2H API's keys in the chat (/api); absent: off */
  h2h?: BotH2h | undefined;
}

/** how often a worker deletes the messages whose time has come (the H2H keys shown once) */
const EXPIRING_TICK_MS = 5_000;

interface MiniAppOptions extends MiniAppPageOptions {
  /** where the 🛍 Katalog and menu buttons open it (https in Telegram); none: no buttons */
  url?: string | undefined;
}

/** the webhook path: derived from the token, so it is unguessable without revealing it */
function webhookPath(token: string): string {
  return createHash("sha256").update(`kios-webhook:${token}`).digest("hex").slice(0, 32);
}

/**
 * the Telegram bot as a service of the app. Every update goes through the inbox: a web
 * process stores webhook deliveries; a worker drains the inbox (and, in polling mode, may be
 * the one process that polls); "all" does both.
 */
export function telegramBotService(o: BotServiceOptions): BotServiceFactory {
  return async ({ orders, role, database, leases, metrics, payments }): Promise<BotService> => {
    const log = o.logger.child({ component: "bot" });
    const bot = createBot({
      token: o.token,
      apiRoot: o.apiRoot,
      logger: o.logger,
      db: orders.db,
      clock: orders.clock,
      config: {
        adminIds: o.adminIds,
        supplierTesting: o.supplierTesting,
        maxAmount: o.maxAmount,
        shopName: o.shopName,
        shopLogo: o.shopLogo,
        miniAppUrl: o.miniApp?.url,
        h2h: o.h2h,
      },
      orders,
      payments,
      botInfo: o.botInfo,
    });
    const i18n = createI18n();
    const serveWebhook = o.mode === "webhook" && role !== "worker";
    const drains = role !== "web";
    const pipeline = drains
      ? createUpdatePipeline({
          bot,
          database,
          leases,
          logger: o.logger,
          concurrency: o.inboxConcurrency ?? INBOX_CONCURRENCY_DEFAULT,
          poll: o.mode === "polling",
          pollingTimeoutSeconds: o.pollingTimeoutSeconds,
          onResult: (result) => metrics.updates.inc({ result }),
        })
      : undefined;
    metrics.watchInbox(() => inboxStats(orders.db));
    let expiring: NodeJS.Timeout | undefined;

    const routes = serveWebhook
      ? [
          createTelegramWebhookRoute({
            secret: o.webhookSecret!,
            path: webhookPath(o.token),
            botId: botIdOfToken(o.token),
            db: orders.db,
            logger: o.logger,
            // role "all": what this process stores it handles at once (webhook.ts)
            inbox: pipeline?.drain,
          }),
        ]
      : [];

    return {
      routes,
      miniApp: o.miniApp && {
        botToken: o.token,
        telegramScript: o.miniApp.telegramScript,
        frameAncestors: o.miniApp.frameAncestors,
        chat: createMiniAppChat({ api: bot.api, db: orders.db, i18n }),
        words: createMiniAppWords(i18n),
      },
      sendNotification: createNotificationSender({
        api: bot.api,
        db: orders.db,
        i18n,
        adminIds: o.adminIds,
        logger: o.logger,
        renderers: notificationRenderers({
          payPageUrl: payments?.payPageUrl,
          depositStep: payments?.engine.depositStep,
          receipts: { shop: () => o.shopName ?? bot.botInfo.first_name, logo: o.shopLogo },
        }),
      }),
      async health(): Promise<HealthReport["checks"]> {
        if (!pipeline) return {};
        const { drain, poller } = pipeline;
        const stats = await inboxStats(orders.db);
        const state = drain.draining ? "draining" : "not draining";
        const polling = poller?.polling ? "; polling Telegram" : "";
        return {
          inbox: {
            ok: drain.draining,
            detail: `${state}; ${stats.depth} waiting, oldest ${Math.round(stats.oldestAgeSeconds)} s${polling}`,
          },
        };
      },
      caughtUp: () => pipeline?.caughtUp() ?? Promise.resolve(),
      async housekeeping(now) {
        // telegram never redelivers an update after a day; idle flows lapse after an hour
        await pruneHandledUpdates(orders.db, new Date(now.getTime() - 2 * 86_400_000));
        await pruneConversations(orders.db, new Date(now.getTime() - 86_400_000));
        // a keypad lapses after minutes; one never answered goes here
        await pruneLapsedPads(orders.db, now);
      },
      async start() {
        const publishMenus = async () => {
          try {
            const admins = await Promise.all(
              o.adminIds.map(async (id) => {
                const user = await findUser(orders.db, id);
                return {
                  id,
                  language: user && isLanguage(user.language) ? user.language : DEFAULT_LANGUAGE,
                  reseller: user?.tier === "reseller",
                };
              }),
            );
            await registerCommands(bot.api, i18n, admins, (adminId) =>
              // set again when they first send /start
              log.info({ adminId }, "admin menu waits until this admin opens the bot"),
            );
          } catch (err) {
            log.warn({ err }, "registering the command menus failed");
          }
          if (o.miniApp?.url) {
            await setMiniAppMenuButton(bot.api, i18n, o.miniApp.url).catch((err: unknown) =>
              log.warn({ err }, "setting the Mini App's menu button failed"),
            );
          }
        };
        // updates stored before the inbox knew bots are this bot's
        const adopted = await adoptUpdates(orders.db, botIdOfToken(o.token));
        if (adopted > 0)
          log.info({ updates: adopted }, "inbox rows from before bots were recorded adopted");
        await bot.init();
        if (serveWebhook) {
          const url = `${o.publicUrl}/telegram/${webhookPath(o.token)}`;
          await setTelegramWebhook(bot, { url, secret: o.webhookSecret! });
          log.info({ username: bot.botInfo.username }, "bot: webhook set");
        }
        await pipeline?.start();
        // the menus after the inbox runs: on Telegram each is a round trip (one per language,
        // per admin, the Mini App's button), and a person who writes during a start is
        // answered without waiting for them
        await publishMenus();
        if (drains) {
          expiring = setInterval(() => {
            void deleteDueMessages(bot.api, orders.db, new Date(orders.clock.now())).catch(
              (err: unknown) => log.warn({ err }, "deleting expired messages failed"),
            );
          }, EXPIRING_TICK_MS);
        }
        if (pipeline?.poller) {
          log.debug({ username: bot.botInfo.username }, "bot: polling (one process at a time)");
        }
      },
      async stop() {
        if (expiring) clearInterval(expiring);
        await pipeline?.stop();
      },
    };
  };
}

/** deletes the messages whose time has come; one already gone counts as deleted */
export async function deleteDueMessages(api: Api, db: Database, now: Date): Promise<number> {
  const due = await dueMessages(db, now);
  for (const m of due) {
    await api.deleteMessage(m.chatId, m.messageId).catch(() => undefined);
    await forgetMessage(db, m.chatId, m.messageId);
  }
  return due.length;
}
