import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase, type TestDatabase } from "../helpers/db.ts";
import { patient } from "../helpers/patience.ts";
import { kios as runKios } from "../helpers/run-cli.ts";

// `kios reseller`: the owner moves users in the tree, promotes and demotes resellers, sets
// the limits

describe("kios reseller", () => {
  let db: TestDatabase;
  beforeAll(async () => {
    db = await createTestDatabase();
  });
  afterAll(() => db?.destroy());

  const kios = (...args: string[]) =>
    runKios(["reseller", ...args], { env: { LOG_LEVEL: "warn" }, database: db.handle });

  it("promotes, moves, refuses a loop, and sets the limits", async () => {
    expect((await kios("promote", "11")).stdout).toContain("user 11: upline none");
    expect((await kios("promote", "12", "--under", "11")).stdout).toContain("user 12: upline 11");
    const loop = await kios("move", "11", "12");
    expect(loop.status).toBe(1);
    expect(loop.stderr).toContain("that upline is below this user");
    expect((await kios("move", "12", "none")).stdout).toContain("user 12: upline none");
    const limits = await kios(
      "limits",
      "--max-flat",
      "3000",
      "--max-percent",
      "2.5",
      "--depth",
      "3",
    );
    expect(limits.status).toBe(0);
    expect(limits.stdout).toContain("at most Rp3.000 and 2.5 %; at most 3 levels");
    expect((await kios("move", "x", "1")).status).toBe(2);
  });

  it(
    "refuses an upline kios has never seen, demotes, and counts chains deeper than a lowered depth",
    async () => {
      const unseen = await kios("move", "12", "99999");
      expect(unseen.status).toBe(1);
      expect(unseen.stderr).toContain("kios has never seen user 99999");
      // a chain 21 → 22 → 23 → 24: three levels below its top
      expect((await kios("promote", "21")).status).toBe(0);
      for (const [user, upline] of [
        ["22", "21"],
        ["23", "22"],
        ["24", "23"],
      ]) {
        expect((await kios("promote", user!, "--under", upline!)).stdout).toContain(
          `upline ${upline}`,
        );
      }
      const lowered = await kios("limits", "--depth", "2");
      expect(lowered.stdout).toContain("1 chains are deeper than 2 levels");
      expect((await kios("limits", "--depth", "5")).stdout).not.toContain("deeper than");
      const demoted = await kios("demote", "22");
      expect(demoted.status).toBe(0);
      expect(demoted.stdout).toContain(
        "user 22: customer; their markups, margins and H2H access stop",
      );
      expect(demoted.stdout).toContain("1 direct downlines now pay what the level above charges");
    },
    patient(300_000),
  );
});
