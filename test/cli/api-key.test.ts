import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase, type TestDatabase } from "../helpers/db.ts";
import { patient } from "../helpers/patience.ts";
import { kios as runKios } from "../helpers/run-cli.ts";

const SECRET = "cli-test-h2h-encryption-key-0123456789";

// `kios api-key`: the owner issues, rotates, revokes and sets a reseller's H2H key; the
// secrets are printed once, as JSON, by create and rotate only.

describe("kios api-key", () => {
  let db: TestDatabase;
  beforeAll(async () => {
    db = await createTestDatabase();
  });
  afterAll(() => db?.destroy());

  const kios = (args: string[], env: Record<string, string> = { H2H_ENCRYPTION_KEY: SECRET }) =>
    runKios(["api-key", ...args], { env: { LOG_LEVEL: "warn", ...env }, database: db.handle });

  it("create, rotate, set, show, revoke", { timeout: patient(180_000) }, async () => {
    const created = await kios(["create", "777001"]);
    expect(created.status, created.stderr).toBe(0);
    const key = JSON.parse(created.stdout);
    expect(key).toMatchObject({
      user_id: 777001,
      api_id: expect.stringMatching(/^KH[A-Z0-9]{12}$/),
    });
    expect(key.api_key.length).toBeGreaterThanOrEqual(32);
    expect(key.secret_key).toMatch(/^[0-9a-f]{64}$/);

    const again = await kios(["create", "777001"]);
    expect(again.status).toBe(1);
    expect(JSON.parse(again.stdout).error).toMatch(/rotate/);

    const rotated = JSON.parse((await kios(["rotate", "777001"])).stdout);
    expect(rotated.api_id).toBe(key.api_id);
    expect(rotated.secret_key).not.toBe(key.secret_key);

    const badUrl = await kios(["set", "777001", "--callback-url", "http://reseller.example/cb"]);
    expect(badUrl.status).toBe(2);
    expect(badUrl.stderr).toMatch(/must be https/);

    const set = await kios([
      "set",
      "777001",
      "--callback-url",
      "https://reseller.example/cb",
      "--rate",
      "120",
      "--ips",
      "203.0.113.7",
    ]);
    expect(set.status, set.stderr).toBe(0);
    expect(JSON.parse(set.stdout)).toMatchObject({
      callback_url: "https://reseller.example/cb",
      rate_per_minute: 120,
      ip_allowlist: ["203.0.113.7"],
      enabled: true,
      chat_results: false,
    });

    const revoked = await kios(["revoke", "777001"]);
    expect(JSON.parse(revoked.stdout)).toMatchObject({ api_id: key.api_id, revoked: true });
    const shown = await kios(["show", "777001"]);
    expect(JSON.parse(shown.stdout).revoked_at).not.toBeNull();
    // the secrets appear only where they were issued
    for (const out of [set.stdout, revoked.stdout, shown.stdout]) {
      expect(out).not.toContain(rotated.secret_key);
      expect(out).not.toContain(rotated.api_key);
    }
  });

  it("without H2H_ENCRYPTION_KEY the API is off and says so", async () => {
    const off = await kios(["create", "777002"], {});
    expect(off.status).toBe(2);
    expect(off.stderr).toMatch(/H2H_ENCRYPTION_KEY/);
  });
});
