import { PGlite } from "@electric-sql/pglite";
import { sql } from "drizzle-orm";
import { customType, integer, pgTable } from "drizzle-orm/pg-core";
import { drizzle } from "drizzle-orm/pglite";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDatabase } from "../../src/db/client.ts";
import { drizzleView, PGLITE_OWN_PARSERS } from "../../src/db/pglite-parsers.ts";

// a row of every type drizzle's pglite driver reads as text, arrays and nulls too
const TYPED_SQL = `select
  timestamp '2026-12-07 10:11:12.5' as ts,
  timestamptz '2026-12-07 10:11:12.5+07' as tstz,
  interval '1 day 02:03:04' as iv,
  date '2026-12-07' as d,
  numeric '12345678901234567890.25' as num,
  array[numeric '1.5', null] as nums,
  array[timestamp '2026-12-07 10:11:12'] as tss,
  array[timestamptz '2026-12-07 10:11:12+07', null] as tstzs,
  array[interval '1 hour'] as ivs,
  array[date '2026-12-07'] as ds,
  1::int as n`;
const TYPED_ROW = sql.raw(TYPED_SQL);

const typed = pgTable("typed", {
  n: integer("n").notNull(),
  at: customType<{ data: string }>({ dataType: () => "timestamptz" })("at").notNull(),
  days: customType<{ data: string }>({ dataType: () => "date[]" })("days"),
});

describe("PGlite as drizzle sees it", () => {
  let stock: PGlite;
  let viewed: PGlite;
  const sent: { options: unknown }[] = [];

  beforeAll(async () => {
    stock = new PGlite();
    viewed = new PGlite();
    for (const client of [stock, viewed]) {
      await client.exec(
        "create table typed (n int not null, at timestamptz not null, days date[]); set timezone to 'UTC'",
      );
    }
    // records what reaches PGlite itself, in and out of transactions
    const query = viewed.query.bind(viewed);
    viewed.query = ((text: string, params?: unknown[], options?: unknown) => {
      sent.push({ options });
      return query(text, params, options as never);
    }) as PGlite["query"];
    const transaction = viewed.transaction.bind(viewed);
    viewed.transaction = ((work: Parameters<PGlite["transaction"]>[0]) =>
      transaction((tx) => {
        const txQuery = tx.query.bind(tx);
        tx.query = ((text: string, params?: unknown[], options?: unknown) => {
          sent.push({ options });
          return txQuery(text, params, options as never);
        }) as typeof tx.query;
        return work(tx);
      })) as PGlite["transaction"];
  });
  afterAll(async () => {
    await stock.close();
    await viewed.close();
  });

  it("reads every row as drizzle's own driver does, raw, typed and in a transaction", async () => {
    const before = drizzle(stock);
    const after = drizzle(drizzleView(viewed));
    const rows = { n: 1, at: "2026-12-07T03:04:05.678Z", days: "{2026-12-01,2026-12-07}" };
    await before.insert(typed).values(rows);
    await after.insert(typed).values(rows);

    const raw = (await after.execute(TYPED_ROW)).rows;
    expect(raw).toEqual((await before.execute(TYPED_ROW)).rows);
    expect(raw[0]).toMatchObject({
      ts: "2026-12-07 10:11:12.5",
      d: "2026-12-07",
      iv: "1 day 02:03:04",
    });
    expect(raw[0]?.tss).toBe('{"2026-12-07 10:11:12"}');

    const read = await after.select().from(typed);
    expect(read).toEqual(await before.select().from(typed));
    expect(read[0]?.at).toBe("2026-12-07 03:04:05.678+00");

    const inTx = await after.transaction(async (tx) => (await tx.execute(TYPED_ROW)).rows);
    expect(inTx).toEqual(raw);
  });

  it("hands PGlite no parsers of drizzle's, so PGlite copies no parser map per query", async () => {
    const { db } = await openDatabase({ pglite: viewed });
    sent.length = 0;
    await db.execute(sql`select 1`);
    await db.select().from(typed);
    await db.transaction(async (tx) => {
      await tx.execute(sql`select 1`);
      await tx.select().from(typed);
    });
    expect(sent).toHaveLength(4);
    for (const { options } of sent) expect(options).not.toHaveProperty("parsers");
  });

  it("gives other queries PGlite's own parsers back: dates as Date, arrays of them too", async () => {
    drizzleView(viewed);
    const { rows } = await viewed.query<Record<string, unknown>>(TYPED_SQL, [], PGLITE_OWN_PARSERS);
    expect(rows).toEqual((await stock.query<Record<string, unknown>>(TYPED_SQL)).rows);
    expect(rows[0]?.tstz).toBeInstanceOf(Date);
    expect((rows[0]?.tstzs as unknown[] | undefined)?.[0]).toBeInstanceOf(Date);
  });

  it("reads as drizzle's driver does from the first query of a client still starting", async () => {
    const starting = new PGlite();
    try {
      const db = drizzle(drizzleView(starting));
      const read = async () =>
        (await db.execute(sql.raw("select array[timestamptz '2026-12-07 00:00:00+00'] as a"))).rows;
      const first = await read();
      expect(typeof first[0]?.a).toBe("string");
      expect(await read()).toEqual(first);
    } finally {
      await starting.close();
    }
  });

  it("on a handle: drizzle reads text, executeSql reads Date", async () => {
    const handle = await openDatabase({ pglite: new PGlite() });
    try {
      const result = await handle.db.execute(
        sql`select timestamptz '2026-12-07 00:00:00+00' as at`,
      );
      const viaDrizzle = (result as unknown as { rows: { at: unknown }[] }).rows;
      expect(typeof viaDrizzle[0]?.at).toBe("string");
      const viaSql = await handle.executeSql(
        "select timestamptz '2026-12-07 00:00:00+00' as at, $1::int as n",
        [1],
      );
      expect(viaSql.rows[0]?.at).toEqual(new Date("2026-12-07T00:00:00Z"));
      const script = await handle.executeSql("select 1; select array[date '2026-12-07'] as ds");
      expect(script.rows[0]?.ds).toEqual([new Date("2026-12-07T00:00:00Z")]);
    } finally {
      await handle.close();
    }
  });
});
