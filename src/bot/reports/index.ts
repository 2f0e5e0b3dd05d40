import { Composer } from "grammy";
import type { BotContext } from "../context.ts";
import { chartButtons, chartCommand } from "./charts.ts";
import { statsText } from "./daily.ts";

// the admins' figures: /stats (today, yesterday, the last 7 days), /laporan (a chart of
// the last days), and the 07:00 WIB daily report the notifications render (daily.ts)

export function reportCommands(): Composer<BotContext> {
  const composer = new Composer<BotContext>();
  composer.command("stats", async (ctx) => {
    const now = new Date(ctx.deps.clock.now());
    await ctx.reply(await statsText(ctx.deps.db, ctx.t, now));
  });
  composer.use(chartCommand());
  return composer;
}

export function reportButtons(): Composer<BotContext> {
  return chartButtons();
}
