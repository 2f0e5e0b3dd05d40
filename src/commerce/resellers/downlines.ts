import { sql } from "drizzle-orm";
import type { Executor } from "../../db/client.ts";
import { rowsOf, toNumber } from "../../db/sql-rows.ts";

// what a reseller sees of their direct downlines: who, what they spent this month (WIB)
// and what is in their wallet

export interface Downline {
  telegramId: number;
  firstName: string;
  username: string | null;
  joinedAt: Date | null;
  /** successful orders' prices since the start of this month in WIB */
  spentThisMonth: number;
  balance: number;
  /** their own direct downlines */
  downlines: number;
}

const WIB_OFFSET_MS = 7 * 3600_000;

/** the first instant of the month in WIB that holds `now` */
function wibMonthStart(now: number): Date {
  const wib = new Date(now + WIB_OFFSET_MS);
  return new Date(Date.UTC(wib.getUTCFullYear(), wib.getUTCMonth(), 1) - WIB_OFFSET_MS);
}

export async function downlinesOf(
  db: Executor,
  resellerId: number,
  page: { limit: number; offset: number; now: number },
): Promise<{ items: Downline[]; total: number }> {
  const since = wibMonthStart(page.now).toISOString();
  const rows = rowsOf(
    await db.execute(sql`
      select u.telegram_id, u.first_name, u.username, u.joined_at,
        coalesce((select sum(o.price) from orders o
                   where o.user_id = u.telegram_id and o.status = 'success' and not o.testing
                     and o.created_at >= ${since}::timestamptz), 0) as spent,
        coalesce((select a.balance from accounts a where a.key = 'user:' || u.telegram_id), 0)
          as balance,
        (select count(*) from users d where d.parent_id = u.telegram_id) as downlines,
        count(*) over () as total
      from users u
      where u.parent_id = ${resellerId}
      order by u.joined_at desc nulls last, u.telegram_id
      limit ${page.limit} offset ${page.offset}`),
  );
  return {
    total: toNumber(rows[0]?.total),
    items: rows.map((r) => ({
      telegramId: toNumber(r.telegram_id),
      firstName: String(r.first_name ?? ""),
      username: r.username === null || r.username === undefined ? null : String(r.username),
      joinedAt: r.joined_at ? new Date(String(r.joined_at)) : null,
      spentThisMonth: toNumber(r.spent),
      balance: toNumber(r.balance),
      downlines: toNumber(r.downlines),
    })),
  };
}
