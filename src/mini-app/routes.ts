import { Hono } from "hono";
import type { OrderEngine } from "../commerce/orders/engine.ts";
import type { AppEnv } from "../server/create-server.ts";
import { createMiniAppApi, MINI_APP_API } from "./api.ts";
import type { MiniAppChat } from "./chat.ts";
import { createMiniAppPage, type MiniAppPageOptions } from "./page.ts";
import type { CatalogueWords } from "./words.ts";

/** what the bot service hands the app for the Mini App (BotService.miniApp) */
export interface MiniAppHost extends MiniAppPageOptions {
  /** the bot's token: Telegram signs initData with it */
  botToken: string;
  chat?: MiniAppChat | undefined;
  /** the shop's words for categories and brands (the chat's) */
  words?: CatalogueWords | undefined;
}

/** the Mini App on the web role: its page at /app and its JSON API under /app/api/ */
export function createMiniAppRoutes(host: MiniAppHost & { orders: OrderEngine }): Hono<AppEnv> {
  // the app's env; the API's own (with the buyer its middleware sets) stays inside it
  const app = new Hono<AppEnv>();
  // answers about one buyer's wallet and orders: never kept by a cache
  app.use(`${MINI_APP_API}/*`, async (c, next) => {
    await next();
    c.header("cache-control", "no-store");
    c.header("x-content-type-options", "nosniff");
  });
  app.route("/", createMiniAppPage(host));
  app.route(
    "/",
    createMiniAppApi({
      orders: host.orders,
      botToken: host.botToken,
      chat: host.chat,
      words: host.words,
    }),
  );
  return app;
}
