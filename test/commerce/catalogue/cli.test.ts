import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { describeMarkup, parsePercent } from "../../../src/cli/catalogue.ts";
import { createTestDatabase, type TestDatabase, testDriver } from "../../helpers/db.ts";
import { patient } from "../../helpers/patience.ts";
import { kios as runKios } from "../../helpers/run-cli.ts";

// each sync starts the embedded sandbox and syncs its catalogue: generous time on a busy machine
describe(`kios sync and kios markup (${testDriver})`, { timeout: patient(120_000) }, () => {
  let t: TestDatabase;

  beforeAll(async () => {
    t = await createTestDatabase();
  });
  afterAll(() => t?.destroy());

  const kios = (...args: string[]) => runKios(args, { database: t.handle });

  it("syncs from the embedded sandbox when no supplier is configured", async () => {
    const first = await kios("sync");
    expect(first.stderr).toContain("embedded sandbox");
    expect(first.status).toBe(0);
    expect(first.stdout).toMatch(/^catalogue synced in [\d.]+ s/);
    const added = Number(/added\s+(\d+)/.exec(first.stdout)?.[1]);
    expect(added).toBeGreaterThan(5000);
    expect(first.stdout).toMatch(new RegExp(`total\\s+${added}\\b`));

    const second = await kios("sync", "--json");
    expect(second.status).toBe(0);
    const summary = JSON.parse(second.stdout);
    expect(summary).toMatchObject({ total: added, added: 0, unlisted: 0 });
    expect(summary.changed + summary.unchanged).toBe(added);
  });

  it("sets, lists and deletes markup rules", async () => {
    const set = await kios(
      "markup",
      "set",
      "--scope",
      "brand",
      "--value",
      "telkomsel",
      "--tier",
      "reseller",
      "--percent",
      "2.5",
      "--flat",
      "200",
    );
    expect(set.stderr).toBe("");
    expect(set.stdout).toMatch(/^rule (\d+): reseller pays 2\.5 % \+ Rp200 on brand TELKOMSEL/);
    const id = /^rule (\d+)/.exec(set.stdout)![1]!;

    const list = await kios("markup");
    expect(list.status).toBe(0);
    expect(list.stdout).toMatch(
      new RegExp(`${id}\\s+reseller\\s+brand\\s+TELKOMSEL\\s+2\\.5 % \\+ Rp200\\s+\\d+`),
    );
    expect(list.stdout).toContain("prices round up to Rp100");

    expect((await kios("markup", "step", "500")).stdout).toContain("prices round up to Rp500");
    expect(JSON.parse((await kios("markup", "list", "--json")).stdout)).toMatchObject({
      step: 500,
      rules: [
        { scope: "brand", scopeValue: "TELKOMSEL", tier: "reseller", percentBp: 250, flat: 200 },
      ],
    });

    const del = await kios("markup", "delete", id);
    expect(del.status).toBe(0);
    expect(del.stdout).toContain(`rule ${id} deleted`);
    const again = await kios("markup", "delete", id);
    expect(again.status).toBe(1);
    expect(again.stderr).toContain(`there is no markup rule ${id}`);
  });

  it("explains refused rules and bad arguments", async () => {
    const unknown = await kios(
      "markup",
      "set",
      "--scope",
      "brand",
      "--value",
      "NOKIA",
      "--percent",
      "1",
    );
    expect(unknown.status).toBe(1);
    expect(unknown.stderr).toContain('no product in the catalogue has brand "NOKIA"');
    const tooMuch = await kios("markup", "set", "--scope", "all", "--percent", "1000.01");
    expect(tooMuch.status).toBe(1);
    expect(tooMuch.stderr).toContain("between -100 % and 1000 %");
    const noPercent = await kios("markup", "set", "--scope", "all");
    expect(noPercent.status).toBe(2);
    expect(noPercent.stderr).toContain("--percent is required");
    expect((await kios("markup", "frobnicate")).status).toBe(2);
    expect((await kios("sync", "--force")).status).toBe(2);
  });
});

describe("markup arguments", () => {
  it("reads percentages with up to two decimals as basis points", () => {
    expect(parsePercent("2.5")).toBe(250);
    expect(parsePercent("0.01")).toBe(1);
    expect(parsePercent("-100")).toBe(-10_000);
    expect(parsePercent("2.55")).toBe(255);
    expect(() => parsePercent("2.555")).toThrow(/at most two decimals/);
    expect(() => parsePercent("two")).toThrow(/at most two decimals/);
  });

  it("writes a markup for people", () => {
    expect(describeMarkup({ percentBp: 250, flat: 200 })).toBe("2.5 % + Rp200");
    expect(describeMarkup({ percentBp: 0, flat: -1500 })).toBe("0 % − Rp1.500");
    expect(describeMarkup({ percentBp: 1000, flat: 0 })).toBe("10 %");
  });
});
