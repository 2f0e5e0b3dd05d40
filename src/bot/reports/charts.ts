import { Composer, InlineKeyboard, InputFile } from "grammy";
import { dailyFigures } from "../../commerce/orders/daily.ts";
import type { BotContext } from "../context.ts";
import { words } from "../ui/args.ts";
import { CB, cb, cbInt, cbPattern, parseCb } from "../ui/callback-data.ts";
import { rupiah } from "../ui/format.ts";
import type { Translate } from "../ui/i18n.ts";
import { chartPng, chartSpec, chartSvg, dailyCsv } from "./chart.ts";

// /laporan [7|30|90]: the owner's chart (revenue, margin, orders, success rate, top
// products per WIB day) as a picture, with its data as a CSV one tap away.

const PERIODS = [7, 30, 90] as const;

const labels = (t: Translate, days: number) => ({
  title: t("laporan-title", { days: String(days) }),
  revenue: t("laporan-revenue"),
  margin: t("laporan-margin"),
  orders: t("laporan-orders"),
  successRate: t("laporan-success-rate"),
  top: t("laporan-top"),
  day: t("laporan-day"),
  rupiah: "Rp",
  weekdays: t("laporan-weekdays").split(" "),
});

export function chartCommand(): Composer<BotContext> {
  const composer = new Composer<BotContext>();
  composer.command("laporan", async (ctx) => {
    const [arg] = words(ctx.match as string);
    const days = arg === undefined ? 7 : Number(arg);
    if (!PERIODS.includes(days as (typeof PERIODS)[number])) {
      await ctx.reply(ctx.t("laporan-usage"));
      return;
    }
    const now = new Date(ctx.deps.clock.now());
    const { series, top } = await dailyFigures(ctx.deps.db, now, days);
    const sum = (f: (d: (typeof series)[number]) => number) => series.reduce((a, d) => a + f(d), 0);
    const orders = sum((d) => d.orders);
    const success = sum((d) => d.success);
    const svg = await chartSvg(chartSpec(labels(ctx.t, days), series, top));
    await ctx.replyWithPhoto(new InputFile(await chartPng(svg), `laporan-${days}.png`), {
      caption: ctx.t("laporan-caption", {
        days: String(days),
        orders: String(orders),
        rate: orders === 0 ? "-" : `${Math.round((success / orders) * 100)}%`,
        revenue: rupiah(sum((d) => d.revenue)),
        margin: rupiah(sum((d) => d.margin)),
      }),
      reply_markup: new InlineKeyboard().text(ctx.t("btn-laporan-csv"), cb(CB.laporanCsv, days)),
    });
  });
  return composer;
}

/** 📄 CSV under a chart: the same days' figures as a document */
export function chartButtons(): Composer<BotContext> {
  const composer = new Composer<BotContext>();
  composer.callbackQuery(cbPattern(CB.laporanCsv), async (ctx) => {
    const days = cbInt(parseCb(ctx.callbackQuery.data)?.parts[0]);
    if (days === undefined || !PERIODS.includes(days as (typeof PERIODS)[number])) {
      await ctx.answerCallbackQuery({ text: ctx.t("stale-button") });
      return;
    }
    await ctx.answerCallbackQuery();
    const now = new Date(ctx.deps.clock.now());
    const { series } = await dailyFigures(ctx.deps.db, now, days);
    await ctx.replyWithDocument(
      new InputFile(Buffer.from(dailyCsv(series)), `laporan-${days}.csv`),
    );
  });
  return composer;
}
