import { sql } from "drizzle-orm";
import type { Executor } from "../../db/client.ts";
import { rowsOf } from "../../db/sql-rows.ts";
import { startOfDayWib } from "./queries.ts";

// the owner's numbers per WIB day, for /laporan's chart and its CSV: orders, successes,
// revenue and margin (of successful orders), and the products that earned most.

export interface DailyFigures {
  /** "2026-11-24" (WIB) */
  day: string;
  orders: number;
  success: number;
  revenue: number;
  margin: number;
}

export interface TopProduct {
  name: string;
  orders: number;
  revenue: number;
}

const DAY_MS = 86_400_000;
const wibDate = (ms: number) => new Date(ms + 7 * 3_600_000).toISOString().slice(0, 10);

/** the last `days` WIB days up to and including today's, every day present (zeros too) */
export async function dailyFigures(
  db: Executor,
  now: Date,
  days: number,
): Promise<{ series: DailyFigures[]; top: TopProduct[] }> {
  const to = new Date(startOfDayWib(now).getTime() + DAY_MS);
  const from = new Date(to.getTime() - days * DAY_MS);
  const rows = rowsOf<{
    day: string;
    orders: number;
    success: number;
    revenue: number;
    margin: number;
  }>(
    await db.execute(sql`
      select to_char(created_at at time zone 'UTC' + interval '7 hours', 'YYYY-MM-DD') as day,
             count(*)::int as orders,
             (count(*) filter (where status = 'success'))::int as success,
             coalesce(sum(price) filter (where status = 'success'), 0)::bigint as revenue,
             coalesce(sum(price - coalesce(supplier_price, cost)) filter (where status = 'success'), 0)::bigint as margin
        from orders
       where testing = false and created_at >= ${from.toISOString()}::timestamptz and created_at < ${to.toISOString()}::timestamptz
       group by 1`),
  );
  const byDay = new Map(rows.map((r) => [r.day, r]));
  const series: DailyFigures[] = [];
  for (let t = from.getTime(); t < to.getTime(); t += DAY_MS) {
    const day = wibDate(t);
    const r = byDay.get(day);
    series.push({
      day,
      orders: Number(r?.orders ?? 0),
      success: Number(r?.success ?? 0),
      revenue: Number(r?.revenue ?? 0),
      margin: Number(r?.margin ?? 0),
    });
  }
  const top = rowsOf<{ name: string; orders: number; revenue: number }>(
    await db.execute(sql`
      select product_name as name, count(*)::int as orders, sum(price)::bigint as revenue
        from orders
       where testing = false and status = 'success' and created_at >= ${from.toISOString()}::timestamptz and created_at < ${to.toISOString()}::timestamptz
       group by product_name
       order by sum(price) desc, product_name
       limit 5`),
  ).map((r) => ({ name: r.name, orders: Number(r.orders), revenue: Number(r.revenue) }));
  return { series, top };
}
