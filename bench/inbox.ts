import type postgres from "postgres";

// the update inbox seen from a benchmark: a reply reaches the Bot API before its update is
// marked handled, so a count of a run's statements waits for the finish too.

/** resolves once every stored update is handled; rejects after `ms` */
export async function inboxDrained(sql: postgres.Sql, ms: number): Promise<void> {
  const end = Date.now() + ms;
  for (;;) {
    const [row] = await sql<{ n: number }[]>`
      select count(*)::int as n from telegram_updates where handled_at is null`;
    if ((row?.n ?? 0) === 0) return;
    if (Date.now() > end) throw new Error(`the inbox still holds ${row?.n} updates after ${ms} ms`);
    await new Promise((r) => setTimeout(r, 20));
  }
}
