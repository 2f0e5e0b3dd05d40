import { Composer } from "grammy";
import { enqueueNotification } from "../../commerce/notifications/outbox.ts";
import { reachableUserIds } from "../../commerce/users.ts";
import type { BotContext } from "../context.ts";
import { kick } from "../ui/kick.ts";

/** the longest broadcast text (Telegram's message limit) */
const BROADCAST_MAX = 4096;

/**
 * /broadcast <text>: one outbox row per user, delivered by the notifier at Telegram's
 * pace; the message id in the key makes a repeated update queue nothing new.
 */
export function adminBroadcast(): Composer<BotContext> {
  const composer = new Composer<BotContext>();
  composer.command("broadcast", async (ctx) => {
    const text = ctx.match.trim();
    if (text === "" || text.length > BROADCAST_MAX) {
      await ctx.reply(ctx.t("admin-broadcast-usage"));
      return;
    }
    const ids = await reachableUserIds(ctx.deps.db);
    const origin = `${ctx.chat.id}:${ctx.msg.message_id}`;
    let queued = 0;
    await ctx.deps.db.transaction(async (tx) => {
      for (const userId of ids) {
        const added = await enqueueNotification(tx, {
          key: `broadcast:${origin}:${userId}`,
          chatId: userId,
          payload: { type: "broadcast", text },
        });
        if (added) queued++;
      }
    });
    await kick(ctx.deps);
    await ctx.reply(ctx.t("admin-broadcast-queued", { count: queued }));
  });
  return composer;
}
