import { failoverSaves, supplierFigures } from "../../commerce/orders/attempt-stats.ts";
import {
  failuresByReason,
  orderStats,
  type PeriodStats,
  startOfDayWib,
} from "../../commerce/orders/queries.ts";
import { paymentStats } from "../../commerce/payments/payments.ts";
import { latestBalanceCheck } from "../../commerce/reconciliation/balance-check.ts";
import type { Database } from "../../db/client.ts";
import { escapeHtml, rupiah, wibDateTime } from "../ui/format.ts";
import type { Translate } from "../ui/i18n.ts";
import { failureReasonText } from "./failure-reasons.ts";

// the owner's figures: /stats on demand, and the daily report at 07:00 WIB (yesterday's
// orders, revenue, margin, failures by reason, the supplier balance and its reconciliation)

const DAY_MS = 86_400_000;

function period(t: Translate, key: string, s: PeriodStats): string {
  const text = t(key, {
    orders: s.orders,
    success: s.success,
    failed: s.failed,
    open: s.open,
    revenue: rupiah(s.revenue),
    margin: rupiah(s.margin),
  });
  if (s.overcharged === 0) return text;
  return `${text}\n${t("admin-stats-overcharge", { count: s.overcharged, loss: rupiah(s.overcharge) })}`;
}

async function failuresText(db: Database, t: Translate, since: Date, until: Date) {
  const failures = await failuresByReason(db, since, until);
  if (failures.length === 0) return undefined;
  return [
    t("report-failures"),
    ...failures.slice(0, 8).map((f) => `• ${failureReasonText(t, f.reason)}: ${f.count}`),
  ].join("\n");
}

async function supplierText(db: Database, t: Translate): Promise<string> {
  const check = await latestBalanceCheck(db);
  if (!check) return t("report-supplier-none");
  const verdict =
    check.status === "drift"
      ? t("report-recon-drift", { drift: rupiah(check.drift ?? 0) })
      : t(`report-recon-${check.status}`);
  return t("report-supplier", {
    balance: rupiah(check.balance),
    at: wibDateTime(check.readAt.getTime()),
    verdict,
  });
}

/** /stats: today, yesterday and the last 7 days, failures since yesterday, the supplier */
export async function statsText(db: Database, t: Translate, now: Date): Promise<string> {
  const s = await orderStats(db, now);
  const yesterday = new Date(startOfDayWib(now).getTime() - DAY_MS);
  const parts = [
    t("admin-stats-title"),
    period(t, "admin-stats-today", s.today),
    period(t, "admin-stats-yesterday", s.yesterday),
    period(t, "admin-stats-week", s.week),
  ];
  const failures = await failuresText(db, t, yesterday, now);
  if (failures) parts.push(failures);
  parts.push(await paymentsText(db, t, now));
  parts.push(await supplierText(db, t));
  const routing = await routingText(db, t, now);
  if (routing) parts.push(routing);
  return parts.join("\n\n");
}

/**
 * per supplier over 7 days: success rate and median time to final; and the sales a
 * re-route saved. Shown once orders went to more than one supplier.
 */
async function routingText(db: Database, t: Translate, now: Date): Promise<string | undefined> {
  const week = new Date(startOfDayWib(now).getTime() - 6 * DAY_MS);
  const figures = await supplierFigures(db, week);
  if (figures.length < 2) return undefined;
  const lines = [
    t("admin-stats-failover", {
      today: await failoverSaves(db, startOfDayWib(now)),
      week: await failoverSaves(db, week),
    }),
    ...figures.map((f) =>
      t("admin-stats-supplier-line", {
        supplier: escapeHtml(f.supplier),
        rate: f.ended === 0 ? "–" : `${Math.round((100 * f.succeeded) / f.ended)}%`,
        ended: f.ended,
        median: f.medianSeconds === null ? "–" : `${Math.round(f.medianSeconds)} s`,
      }),
    ),
  ];
  return lines.join("\n");
}

/** gateway deposits (QRIS) today and in the last 7 days */
async function paymentsText(db: Database, t: Translate, now: Date): Promise<string> {
  const today = await paymentStats(db, startOfDayWib(now));
  const week = await paymentStats(db, new Date(startOfDayWib(now).getTime() - 6 * DAY_MS));
  const lines = [
    t("admin-stats-payments", {
      today: today.paid,
      todaysum: rupiah(today.paidAmount),
      week: week.paid,
      weeksum: rupiah(week.paidAmount),
      open: today.open,
    }),
  ];
  if (week.mismatch > 0)
    lines.push(t("admin-stats-payments-mismatch", { mismatch: week.mismatch }));
  return lines.join("\n");
}

/** the daily report for the WIB day before `now` */
export async function dailyReportText(db: Database, t: Translate, now: Date): Promise<string> {
  const today = startOfDayWib(now);
  const yesterday = new Date(today.getTime() - DAY_MS);
  const s = await orderStats(db, now);
  const parts = [
    t("report-title", { day: wibDateTime(yesterday.getTime()).split(" ")[0] ?? "" }),
    period(t, "admin-stats-yesterday", s.yesterday),
  ];
  const failures = await failuresText(db, t, yesterday, today);
  if (failures) parts.push(failures);
  parts.push(await supplierText(db, t));
  return parts.join("\n\n");
}
