import { execFile } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { KIOS_ENTRY as BIN } from "../helpers/kios-cli.ts";
import { patient } from "../helpers/patience.ts";

// `kios center alias`: the owner's words for the text commands' keywords, in the database

describe("kios center alias", () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), "kios-center-alias-"));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  const kios = (args: string[]) =>
    new Promise<{ status: number | null; stdout: string }>((resolve) => {
      const child = execFile(
        process.execPath,
        [BIN, ...args],
        {
          encoding: "utf8",
          timeout: patient(60_000),
          env: { PATH: process.env.PATH, LOG_LEVEL: "warn", PGLITE_DIR: join(dir, "data") },
        },
        (_err, stdout) => resolve({ status: child.exitCode, stdout }),
      );
    });

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
