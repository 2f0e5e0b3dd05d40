import type { NotificationOf, RenderEnv } from "../notifications/sender.ts";
import { dailyReportText } from "./daily.ts";

/** the owner's daily report, at 07:00 WIB */
export async function renderDailyReport(n: NotificationOf<"daily_report">, env: RenderEnv) {
  if (!env.forAdmins(n)) return;
  const t = await env.languageOf(n.chatId);
  await env.api.sendMessage(n.chatId, await dailyReportText(env.db, t, new Date(n.payload.at)));
}
