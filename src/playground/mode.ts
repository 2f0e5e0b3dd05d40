import type { PlaygroundUser } from "@kios/bot-api-server";
import type { Hono } from "hono";
import type { BotService, BotServiceFactory } from "../app/create-app.ts";
import type { BotH2h } from "../bot/deps.ts";
import { telegramBotService } from "../bot/service.ts";
import { lastUpdateId } from "../bot/storage/updates.ts";
import type { Logo } from "../bot/ui/pictures/logo.ts";
import { seedMarkupRules } from "../commerce/catalogue/markup-rules.ts";
import type { Tier } from "../commerce/catalogue/pricing.ts";
import { findUser, upsertUser } from "../commerce/users.ts";
import { creditWallet } from "../commerce/wallet/ledger.ts";
import type { Logger } from "../logger.ts";
import type { AppEnv } from "../server/create-server.ts";
import { PLAYGROUND_RESELLER, seedDemoReseller } from "./demo-reseller.ts";
import { H2H_TRY_PATH, h2hTryRoutes } from "./h2h-try.ts";

// `npm start` with no BOT_TOKEN: kios serves its own Bot API server and a chat page on its
// HTTP port, and the real bot talks to that server. Everything runs on this machine.

export const PLAYGROUND_CUSTOMER: PlaygroundUser = {
  id: 100_001,
  // the role is the switcher's label, from the bot's own record: never in the name, which is
  // also the user's first_name (the greeting says it)
  name: "Sari",
  persona: "customer",
};
export const PLAYGROUND_ADMIN: PlaygroundUser = {
  id: 100_002,
  name: "Owner",
  persona: "admin",
};
/**
 * the demo shop's starting markups (scope all), so its prices, margins, /stats and /laporan
 * look like a shop's: customers pay cost + 3 %, resellers cost + 1 %, both rounded up to the
 * shop's step. A real shop starts at 0 % (its owner sets /markup).
 */
const PLAYGROUND_MARKUPS = [
  { tier: "customer", percentBp: 300 },
  { tier: "reseller", percentBp: 100 },
] as const satisfies readonly { tier: Tier; percentBp: number }[];

/** test money the demo customer starts with, so a purchase works at once */
export const DEMO_BALANCE = 500_000;

export interface PlaygroundOptions {
  /** the HTTP port kios listens on: the bot reaches the Bot API server through it */
  port: number;
  adminIds: readonly number[];
  supplierTesting: boolean;
  logger: Logger;
  pollingTimeoutSeconds?: number;
  /** the shop's name on receipts (SHOP_NAME) */
  shopName?: string | undefined;
  /** the shop's logo on receipts and price-list pictures (SHOP_LOGO) */
  shopLogo?: Logo | undefined;
  /** the H2H API's keys in the chat (/api), when H2H_ENCRYPTION_KEY is set */
  h2h?: BotH2h | undefined;
  inboxConcurrency?: number;
}

/** the admin ids the playground runs with: the configured ones plus the demo admin */
export function playgroundAdminIds(configured: readonly number[]): number[] {
  return [...new Set([...configured, PLAYGROUND_ADMIN.id])];
}

export function playgroundBotService(o: PlaygroundOptions): BotServiceFactory {
  return async (core): Promise<BotService> => {
    // loaded only here, so a process that sells for real never loads the simulator
    const {
      BOT_API_PATH,
      createBotApiServer,
      createPlaygroundRoutes,
      DEFAULT_BOT,
      maxRequestBytes,
      TELEGRAM_UPLOAD_LIMITS,
    } = await import("@kios/bot-api-server");
    // update_ids carry on from the last one the inbox stored: a restart on the same data
    // must not hand out ids the inbox has seen (it would ignore them as redeliveries)
    const botApi = createBotApiServer({
      bots: [{ ...DEFAULT_BOT, lastUpdateId: await lastUpdateId(core.orders.db, DEFAULT_BOT.id) }],
      logger: o.logger.child({ component: "bot-api" }),
    });
    const adminIds = playgroundAdminIds(o.adminIds);
    const page = createPlaygroundRoutes<AppEnv>({
      botApi,
      users: [PLAYGROUND_CUSTOMER, PLAYGROUND_RESELLER, PLAYGROUND_ADMIN],
      title: "kios playground",
      // the H2H API tried from the browser, as the demo reseller
      links: o.h2h ? [{ label: "Try H2H", href: H2H_TRY_PATH }] : [],
      personaOf: async (userId) => {
        if (adminIds.includes(userId)) return "admin";
        return (await findUser(core.orders.db, userId))?.tier;
      },
    });
    const bot = await telegramBotService({
      token: DEFAULT_BOT.token,
      apiRoot: `http://127.0.0.1:${o.port}`,
      mode: "polling",
      adminIds,
      supplierTesting: o.supplierTesting,
      logger: o.logger,
      pollingTimeoutSeconds: o.pollingTimeoutSeconds,
      shopName: o.shopName,
      shopLogo: o.shopLogo,
      inboxConcurrency: o.inboxConcurrency,
      h2h: o.h2h,
      // the Mini App beside the chat page, on kios's own port: the page frames it from
      // either name of this machine, and it includes the playground's Telegram script
      miniApp: {
        url: `http://127.0.0.1:${o.port}/app`,
        telegramScript: "/telegram-web-app.js",
        frameAncestors: [`http://localhost:${o.port}`, `http://127.0.0.1:${o.port}`],
      },
    })(core);
    return {
      // the Bot API server's handlers read nothing of the app's env, so it joins as is
      routes: [
        page,
        botApi.app as unknown as Hono<AppEnv>,
        ...(o.h2h
          ? [
              h2hTryRoutes({
                db: core.orders.db,
                box: o.h2h.box,
                apiUrl: o.h2h.apiUrl ?? `http://127.0.0.1:${o.port}/h2h/v1`,
                now: () => core.orders.clock.now(),
              }),
            ]
          : []),
        ...(bot.routes ?? []),
      ],
      // the Bot API server takes uploads as Telegram does (a 300 KB price-list picture, a
      // 50 MB document), past the app's own limit; it refuses a larger body itself
      bodyLimits: [{ path: BOT_API_PATH, maxBytes: maxRequestBytes(TELEGRAM_UPLOAD_LIMITS) }],
      sendNotification: bot.sendNotification,
      housekeeping: bot.housekeeping,
      health: bot.health,
      miniApp: bot.miniApp,
      caughtUp: bot.caughtUp,
      async start() {
        const db = core.orders.db;
        for (const u of [PLAYGROUND_CUSTOMER, PLAYGROUND_ADMIN]) {
          await upsertUser(db, { telegramId: u.id, firstName: u.name });
        }
        // once per data folder: the key makes a restart add nothing
        await creditWallet(db, {
          userId: PLAYGROUND_CUSTOMER.id,
          amount: DEMO_BALANCE,
          key: "playground:demo-balance",
          memo: "playground test balance",
        });
        // only into a shop with no rule yet: an admin's own /markup survives every restart
        await seedMarkupRules(db, PLAYGROUND_MARKUPS);
        // someone to try the H2H API as, with a key: made once per data folder
        if (o.h2h) await seedDemoReseller(db, o.h2h.box);
        await bot.start();
      },
      async stop() {
        await bot.stop();
        botApi.dispose();
      },
    };
  };
}
