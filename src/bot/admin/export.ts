import { Readable } from "node:stream";
import { Composer, InputFile } from "grammy";
import {
  exportedOrderCount,
  exportedOrders,
  exportFile,
  wibMonth,
} from "../../commerce/orders/export.ts";
import type { BotContext } from "../context.ts";
import { words } from "../ui/args.ts";

/** /export <YYYY-MM>: that month's orders (WIB) as a CSV document, streamed as it is read */
export function adminExport(): Composer<BotContext> {
  const composer = new Composer<BotContext>();
  composer.command("export", async (ctx) => {
    const [month] = words(ctx.match as string);
    const period = month ? wibMonth(month) : undefined;
    if (!month || !period) {
      await ctx.reply(ctx.t("admin-export-usage"));
      return;
    }
    const db = ctx.deps.db;
    const n = await exportedOrderCount(db, period);
    if (n === 0) {
      await ctx.reply(ctx.t("admin-export-empty", { month }));
      return;
    }
    const file = Readable.from(exportFile(exportedOrders(db, period), "csv"));
    await ctx.replyWithDocument(new InputFile(file, `orders-${month}.csv`), {
      caption: ctx.t("admin-export-caption", { month, orders: String(n) }),
    });
  });
  return composer;
}
