import { describe, expect, it } from "vitest";
import type { DatabaseHandle } from "../../../src/db/client.ts";
import { bootCommerce, type CommerceHarness } from "../../helpers/commerce.ts";
import { patient } from "../../helpers/patience.ts";
import { bootTwoSuppliers } from "../../helpers/two-suppliers.ts";

// the harness's boots clone a synced template (test/helpers/synced-catalogue.ts) instead of
// syncing and linking the sandboxes' catalogues themselves: what the clone holds must be
// what a fresh sync and link write, row for row, but for the times they were written at.

/** every row of every table but pg-boss's, as text, with the write times left out */
async function contents(handle: DatabaseHandle): Promise<Record<string, string[]>> {
  const { rows: tables } = await handle.executeSql(
    "select table_name as name from information_schema.tables where table_schema = 'public' and table_type = 'BASE TABLE' order by 1",
  );
  const out: Record<string, string[]> = {};
  for (const { name } of tables) {
    const { rows } = await handle.executeSql(`select * from "${String(name)}"`);
    out[String(name)] = rows
      .map((row) => JSON.stringify(row, (key, value) => (isWriteTime(key) ? undefined : value)))
      .sort();
  }
  return out;
}

/** when a row was written (a column, or the last sync's summary in settings) */
function isWriteTime(key: string): boolean {
  return key.endsWith("_at") || key === "at" || key === "ms";
}

async function compare(fresh: CommerceHarness, cloned: CommerceHarness): Promise<void> {
  try {
    expect(fresh.catalogueFrom).toBeUndefined();
    const expected = await contents(fresh.database.handle);
    const actual = await contents(cloned.database.handle);
    expect(Object.keys(actual)).toEqual(Object.keys(expected));
    expect(expected.products?.length ?? 0).toBeGreaterThan(5_000);
    for (const table of Object.keys(expected)) {
      expect({ table, rows: actual[table] }).toEqual({ table, rows: expected[table] });
    }
  } finally {
    await cloned.stop();
    await fresh.stop();
  }
}

describe("the synced template", { timeout: patient(180_000) }, () => {
  it("holds what the harness's own sync writes (one supplier)", async () => {
    const cloned = await bootCommerce();
    expect(cloned.catalogueFrom).toBe("main");
    await compare(await bootCommerce({ catalogue: "fresh" }), cloned);
  });

  it("holds what the harness's own sync and link write (two suppliers)", async () => {
    const cloned = await bootTwoSuppliers();
    expect(cloned.catalogueFrom).toBe("main+backup");
    await compare(await bootTwoSuppliers({ freshCatalogue: true }), cloned);
  });

  it("is not used where the boot's options change what the sync reads", async () => {
    const h = await bootCommerce({ sandbox: { seed: 3 } });
    try {
      expect(h.catalogueFrom).toBeUndefined();
    } finally {
      await h.stop();
    }
  });
});
