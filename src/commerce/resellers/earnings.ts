import { sql } from "drizzle-orm";
import type { Executor } from "../../db/client.ts";
import { rowsOf, toNumber } from "../../db/sql-rows.ts";

// what a reseller earned from their downlines' orders: the margin transfers credited to
// their wallet (design rule 16), by day in WIB and by the direct downline the order came
// through (the buyer, or the buyer's upline at the level just below the reseller)

export interface Earnings {
  total: number;
  orders: number;
  /** newest day first; "YYYY-MM-DD" in WIB */
  byDay: Array<{ day: string; amount: number; orders: number }>;
  /** most earned first */
  byDownline: Array<{ telegramId: number; firstName: string; amount: number; orders: number }>;
}

export async function earningsOf(
  db: Executor,
  resellerId: number,
  period: { since: Date },
): Promise<Earnings> {
  const margins = sql`
    select o.user_id as buyer, e.amount, t.created_at
      from entries e
      join transfers t on t.id = e.transfer_id and t.kind = 'margin'
      join orders o on o.id = split_part(t.key, ':', 2)::bigint
     where e.account_id = (select id from accounts where key = ${`user:${resellerId}`})
       and t.created_at >= ${period.since.toISOString()}::timestamptz`;
  const days = rowsOf(
    await db.execute(sql`
      select to_char(created_at at time zone 'Asia/Jakarta', 'YYYY-MM-DD') as day,
             sum(amount) as amount, count(*) as n
        from (${margins}) m group by 1 order by 1 desc`),
  );
  const downlines = rowsOf(
    await db.execute(sql`
      with recursive m as (${margins}),
      walk(buyer, id, parent, depth) as (
        select b.buyer, u.telegram_id, u.parent_id, 0
          from (select distinct buyer from m) b join users u on u.telegram_id = b.buyer
        union all
        select w.buyer, u.telegram_id, u.parent_id, w.depth + 1
          from walk w join users u on u.telegram_id = w.parent
         where w.parent <> ${resellerId} and w.depth < 32
      ),
      direct as (select buyer, id from walk where parent = ${resellerId})
      select d.id, coalesce(u.first_name, '') as first_name, sum(m.amount) as amount,
             count(*) as n
        from m join direct d on d.buyer = m.buyer join users u on u.telegram_id = d.id
       group by d.id, u.first_name order by amount desc, d.id`),
  );
  const byDay = days.map((r) => ({
    day: String(r.day),
    amount: toNumber(r.amount),
    orders: toNumber(r.n),
  }));
  return {
    total: byDay.reduce((s, d) => s + d.amount, 0),
    orders: byDay.reduce((s, d) => s + d.orders, 0),
    byDay,
    byDownline: downlines.map((r) => ({
      telegramId: toNumber(r.id),
      firstName: String(r.first_name),
      amount: toNumber(r.amount),
      orders: toNumber(r.n),
    })),
  };
}
