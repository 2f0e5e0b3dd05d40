import { sql } from "drizzle-orm";
import type { Database } from "../../src/db/client.ts";
import { rowsOf } from "../../src/db/sql-rows.ts";

/** every text, json and bytea column of every table: where a secret could rest */
export async function searchableColumns(
  db: Database,
): Promise<{ s: string; t: string; c: string; type: string }[]> {
  return rowsOf<{ s: string; t: string; c: string; type: string }>(
    await db.execute(sql`
      select c.table_schema as s, c.table_name as t, c.column_name as c, c.data_type as type
      from information_schema.columns c
      join information_schema.tables t
        on t.table_schema = c.table_schema and t.table_name = c.table_name
      where c.table_schema not in ('pg_catalog', 'information_schema')
        and t.table_type = 'BASE TABLE'
        and c.data_type in ('text', 'character varying', 'character', 'json', 'jsonb', 'bytea', 'ARRAY')`),
  );
}

/**
 * `needle` only where it stands as a word of its own: a short secret such as a PIN is
 * typed and stored whole, while its digits turn up by chance inside any long id or hash
 */
export function asWord(needle: string): RegExp {
  return new RegExp(`(^|[^0-9A-Za-z])${needle}([^0-9A-Za-z]|$)`);
}

/**
 * "table.column: value" for every value in those columns that contains `needle`, or with
 * `word`, that holds it as a word of its own (see asWord)
 */
export async function findInDatabase(
  db: Database,
  needle: string,
  { word = false }: { word?: boolean } = {},
): Promise<string[]> {
  // the needle goes into the SQL as it is: only characters that need no quoting
  if (!/^[0-9A-Za-z_~.-]+$/.test(needle)) throw new Error(`a needle to quote: ${needle}`);
  const match = word ? `~ '${asWord(needle).source}'` : `like '%${needle}%'`;
  const found: string[] = [];
  for (const col of await searchableColumns(db)) {
    const value = col.type === "bytea" ? `encode("${col.c}", 'escape')` : `"${col.c}"::text`;
    const hits = rowsOf<{ v: string }>(
      await db.execute(
        sql.raw(`select ${value} as v from "${col.s}"."${col.t}" where ${value} ${match}`),
      ),
    );
    for (const hit of hits) found.push(`${col.t}.${col.c}: ${hit.v.slice(0, 200)}`);
  }
  return found;
}
