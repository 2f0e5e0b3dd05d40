import { execFile } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createSecretBox } from "../../src/commerce/h2h/cipher.ts";
import { createKey, keyOfUser, openKey } from "../../src/commerce/h2h/keys.ts";
import { DEMO_RESELLER_BALANCE, PLAYGROUND_RESELLER } from "../../src/playground/demo-reseller.ts";
import { playgroundH2hKey, playgroundH2hKeyPath } from "../../src/playground/h2h-key.ts";
import { PLAYGROUND_ADMIN } from "../../src/playground/mode.ts";
import { testDriver } from "../helpers/db.ts";
import { type PlaygroundData, playgroundData, sayAs } from "../helpers/playground.ts";

const exec = promisify(execFile);

// the playground shows the H2H API it advertises: on with a key of its own, made once in
// the data folder and used again by the next start, so API keys made before a restart open

describe("the playground's H2H key file", () => {
  let folder = "";
  beforeAll(() => {
    folder = mkdtempSync(join(tmpdir(), "kios-h2h-key-"));
  });
  afterAll(() => rmSync(folder, { recursive: true, force: true }));

  it("is made once, readable by its owner only, and read again after", () => {
    const dir = join(folder, "data", "pglite");
    const path = playgroundH2hKeyPath(dir);
    expect(path).toBe(join(folder, "data", "h2h-encryption-key"));
    const key = playgroundH2hKey(dir);
    expect(key).toMatch(/^[0-9a-f]{64}$/);
    expect(readFileSync(path, "utf8").trim()).toBe(key);
    expect(statSync(path).mode & 0o777).toBe(0o600);
    expect(playgroundH2hKey(dir)).toBe(key);
  });

  it("refuses a file too short to be a key instead of replacing it", () => {
    const dir = join(folder, "short", "pglite");
    mkdirSync(join(folder, "short"));
    writeFileSync(playgroundH2hKeyPath(dir), "abc\n");
    expect(() => playgroundH2hKey(dir)).toThrow(/not a usable H2H key/);
    expect(readFileSync(playgroundH2hKeyPath(dir), "utf8")).toBe("abc\n");
  });
});

describe(`the playground's H2H API (${testDriver})`, () => {
  let data: PlaygroundData;
  beforeAll(async () => {
    data = await playgroundData();
  });
  afterAll(() => data?.destroy());

  it("answers /api for the demo admin and reseller, and a restart opens the keys made before", {
    timeout: 120_000,
  }, async () => {
    const first = await data.start();
    const answer = await sayAs(first, PLAYGROUND_ADMIN.id, "/api");
    expect(answer).not.toMatch(/belum aktif/);
    expect(answer).toMatch(/belum punya kunci API/);
    expect(answer).toContain("/h2h/v1");
    // and for the demo reseller, whom the page's ready requests speak for
    const reseller = await sayAs(first, PLAYGROUND_RESELLER.id, "/api");
    expect(reseller).not.toMatch(/belum aktif/);
    expect(reseller).toMatch(/kunci API|api_id/);
    expect(reseller).toContain("/h2h/v1");
    // the API itself is served: an unsigned call is refused, not unknown
    const unsigned = await fetch(`${first.baseUrl}/h2h/v1/balance`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: "{}",
    });
    expect(unsigned.status).not.toBe(404);
    expect(unsigned.status).toBeLessThan(500);
    const key = first.app.config.h2h!.encryptionKey;
    expect(readFileSync(join(data.folder, "h2h-encryption-key"), "utf8").trim()).toBe(key);
    const issued = await createKey(
      first.app.database.db,
      createSecretBox(key),
      PLAYGROUND_ADMIN.id,
    );
    if (!issued.ok) throw new Error(issued.reason);
    await data.stop(first);

    const second = await data.start();
    expect(second.app.config.h2h!.encryptionKey).toBe(key);
    const row = (await keyOfUser(second.app.database.db, PLAYGROUND_ADMIN.id))!;
    const opened = openKey(createSecretBox(second.app.config.h2h!.encryptionKey), row);
    expect(opened.row.apiId).toBe(row.apiId);
    // left running, the next test's start opened the folder beside it: two PGlites on one
    // folder, and a statement that waited forever (a suite hung 55 min here)
    await data.stop(second);
  });
  it("the page gives a newcomer ready signed requests as the demo reseller, and they answer", {
    timeout: 120_000,
  }, async () => {
    const app = await data.start();
    const config = (await (await fetch(`${app.baseUrl}/playground/config`)).json()) as {
      users: { id: number; persona: string }[];
      links: { label: string; href: string }[];
    };
    expect(config.users).toContainEqual({
      id: PLAYGROUND_RESELLER.id,
      name: PLAYGROUND_RESELLER.name,
      persona: "reseller",
    });
    expect(config.links).toEqual([{ label: "Try H2H", href: "/playground/h2h" }]);
    const page = await fetch(`${app.baseUrl}/playground/h2h`);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain("Try the H2H API");
    const ready = async (base: string) => {
      const res = await fetch(`${base}/playground/h2h/requests`);
      expect(res.status).toBe(200);
      return (await res.json()) as {
        apiId: string;
        balance: { curl: string };
        order: { curl: string };
      };
    };
    /** runs a printed command as a newcomer pastes it into a shell */
    const run = async (command: string) => {
      const { stdout } = await exec("sh", ["-c", command]);
      return JSON.parse(stdout) as {
        success: boolean;
        code: string;
        data: Record<string, unknown>;
      };
    };
    const first = await ready(app.baseUrl);
    expect(first.balance.curl).toMatch(/^curl -s 'http:\/\/127\.0\.0\.1:\d+\/h2h\/v1\/balance' /);
    const balance = await run(first.balance.curl);
    expect(balance).toMatchObject({ success: true, data: { balance: DEMO_RESELLER_BALANCE } });
    const order = await run(first.order.curl);
    expect(order.success).toBe(true);
    expect(order.data).toMatchObject({ code: "TSEL10", customer_no: "081234567901" });
    const price = Number(order.data.price);
    expect(price).toBeGreaterThan(0);
    expect((await run(first.balance.curl)).data.balance).toBe(DEMO_RESELLER_BALANCE - price);
    await data.stop(app);

    // seeded once: a restart keeps the reseller's key and gives no second balance
    const again = await data.start();
    const second = await ready(again.baseUrl);
    expect(second.apiId).toBe(first.apiId);
    expect((await run(second.balance.curl)).data.balance).toBe(DEMO_RESELLER_BALANCE - price);
    await data.stop(again);
  });
});
