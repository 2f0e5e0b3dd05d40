import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase, type TestDatabase } from "../helpers/db.ts";
import { patient } from "../helpers/patience.ts";
import { kios as runKios } from "../helpers/run-cli.ts";

// `kios center alias`: the owner's words for the text commands' keywords, in the database

describe("kios center alias", () => {
  let db: TestDatabase;
  beforeAll(async () => {
    db = await createTestDatabase();
  });
  afterAll(() => db?.destroy());

  const kios = (args: string[]) =>
    runKios(args, { env: { LOG_LEVEL: "warn" }, database: db.handle });

  it("sets, lists and removes an alias; refuses what is not a keyword", {
    timeout: patient(240_000),
  }, async () => {
    const set = await kios(["center", "alias", "SAL", "saldo"]);
    expect(set.status).toBe(0);
    expect(JSON.parse(set.stdout)).toEqual({ alias: "SALDO", keyword: "SAL" });
    const listed = await kios(["center", "alias"]);
    expect(JSON.parse(listed.stdout)).toEqual({ aliases: { SALDO: "SAL" } });
    const unknown = await kios(["center", "alias", "BELI", "B"]);
    expect(unknown.status).toBe(1);
    expect(JSON.parse(unknown.stdout).error).toMatch(/the keywords are/);
    const keyword = await kios(["center", "alias", "SAL", "S"]);
    expect(keyword.status).toBe(1);
    const removed = await kios(["center", "alias", "--remove", "saldo"]);
    expect(JSON.parse(removed.stdout)).toEqual({ removed: "SALDO" });
    expect(JSON.parse((await kios(["center", "alias"])).stdout)).toEqual({ aliases: {} });
  });
});
