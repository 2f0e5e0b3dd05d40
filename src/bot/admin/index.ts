import { Composer } from "grammy";
import type { BotContext } from "../context.ts";
import { adminBroadcast } from "./broadcast.ts";
import { adminCatalogue } from "./catalogue.ts";
import { adminExport } from "./export.ts";
import { adminMinMargin } from "./min-margin.ts";
import { adminOrderButtons, adminOrders } from "./orders.ts";
import { adminPauseButtons, adminPauses } from "./pauses.ts";
import { adminResellers } from "./resellers.ts";
import { adminRouteOrder } from "./route-order.ts";
import { adminRouteButtons, adminRoutes } from "./routes.ts";
import { adminTestOrder } from "./test-order.ts";
import { adminWallet } from "./wallet.ts";

// the shop's own admin commands: catalogue and markup, pauses, wallets and roles, open
// orders, broadcasts, test orders, exports. The root (src/bot/index.ts) lets only ADMIN_IDS
// reach them: for anyone else they fall through to the unknown-command answer.

export function adminCommands(): Composer<BotContext> {
  const composer = new Composer<BotContext>();
  composer.use(
    adminCatalogue(),
    adminPauses(),
    adminRoutes(),
    adminMinMargin(),
    adminRouteOrder(),
    adminWallet(),
    adminOrders(),
    adminBroadcast(),
    adminTestOrder(),
    adminExport(),
    adminResellers(),
  );
  return composer;
}

/** the admin buttons of these commands (re-check, decide, resume) */
export function adminButtons(): Composer<BotContext> {
  const composer = new Composer<BotContext>();
  composer.use(adminOrderButtons(), adminPauseButtons(), adminRouteButtons());
  return composer;
}
