import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase, type TestDatabase } from "../helpers/db.ts";
import { patient } from "../helpers/patience.ts";
import { kios as runKios } from "../helpers/run-cli.ts";

const SECRET = "cli-test-h2h-encryption-key-0123456789";

// `kios center-key`: the owner issues a reseller's OtomaX-door credentials; memberID, pin
// and password are printed once, by create and rotate only.

describe("kios center-key", () => {
  let db: TestDatabase;
  beforeAll(async () => {
    db = await createTestDatabase();
  });
  afterAll(() => db?.destroy());

  const kios = (args: string[]) =>
    runKios(args, {
      env: { LOG_LEVEL: "warn", H2H_ENCRYPTION_KEY: SECRET },
      database: db.handle,
    });

  it("only for a reseller: create, rotate, set, show, revoke", {
    timeout: patient(240_000),
  }, async () => {
    const refused = await kios(["center-key", "create", "778001"]);
    expect(refused.status).toBe(1);
    expect(JSON.parse(refused.stdout).error).toMatch(/only a reseller/);
    const promoted = await kios(["reseller", "promote", "778001"]);
    expect(promoted.status, promoted.stderr + promoted.stdout).toBe(0);

    const created = await kios(["center-key", "create", "778001"]);
    expect(created.status, created.stderr).toBe(0);
    const key = JSON.parse(created.stdout);
    expect(key).toMatchObject({
      memberID: expect.stringMatching(/^KC[A-Z0-9]{10}$/),
      pin: expect.stringMatching(/^\d{6}$/),
    });
    expect(key.password.length).toBeGreaterThanOrEqual(22);

    const rotated = JSON.parse((await kios(["center-key", "rotate", "778001"])).stdout);
    expect(rotated.memberID).toBe(key.memberID);
    expect(rotated.password).not.toBe(key.password);

    const badUrl = await kios([
      "center-key",
      "set",
      "778001",
      "--report-url",
      "http://a.example/r",
    ]);
    expect(badUrl.status).toBe(2);
    const set = await kios([
      "center-key",
      "set",
      "778001",
      "--report-url",
      "https://reseller.example/report",
      "--ips",
      "203.0.113.5,203.0.113.6",
    ]);
    expect(set.status, set.stderr).toBe(0);
    const shown = JSON.parse((await kios(["center-key", "show", "778001"])).stdout);
    expect(shown).toMatchObject({
      memberID: key.memberID,
      report_url: "https://reseller.example/report",
      ip_allowlist: ["203.0.113.5", "203.0.113.6"],
    });
    // show never prints the secrets
    expect(JSON.stringify(shown)).not.toContain(rotated.password);
    expect(shown.pin).toBeUndefined();

    const revoked = JSON.parse((await kios(["center-key", "revoke", "778001"])).stdout);
    expect(revoked).toEqual({ user_id: 778001, memberID: key.memberID, revoked: true });
  });
});
