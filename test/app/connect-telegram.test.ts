import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { describe, expect, it } from "vitest";
import { connectTelegram } from "../../src/app/connect-telegram.ts";
import { ConfigError, parseConfig } from "../../src/config.ts";
import { createLogger } from "../../src/logger.ts";
import { bootApp } from "../helpers/app.ts";

// the playground is a demo on the embedded sandbox: never in front of a real supplier, and
// never reachable from other machines unless the owner asks for it.

const logger = createLogger({ level: "silent", pretty: false });
const REAL_SUPPLIER = {
  SUPPLIER_BASE_URL: "https://supplier.example/v1",
  SUPPLIER_API_ID: "id-123",
  SUPPLIER_API_KEY: "key-123",
  SUPPLIER_SECRET_KEY: "secret-123",
};

describe("choosing the bot service", () => {
  it("refuses the playground when real supplier credentials are set, with one line to fix it", async () => {
    const config = parseConfig({ ...REAL_SUPPLIER, PORT: "0" });
    const refused = await connectTelegram(config, logger).then(
      () => undefined,
      (err: unknown) => err,
    );
    expect(refused).toBeInstanceOf(ConfigError);
    const problems = (refused as ConfigError).problems;
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatch(/^BOT_TOKEN is missing/);
    expect(problems[0]).toMatch(/playground runs only on the embedded sandbox/);
    expect(problems[0]).not.toContain("secret-123");
  });

  it("refuses a SHOP_LOGO it can't read, with one line naming it", async () => {
    const config = parseConfig({ PORT: "0", SHOP_LOGO: "/nonexistent/logo.png" });
    const refused = await connectTelegram(config, logger).then(
      () => undefined,
      (err: unknown) => err,
    );
    expect(refused).toBeInstanceOf(ConfigError);
    expect((refused as ConfigError).problems).toEqual([
      "SHOP_LOGO: /nonexistent/logo.png can't be read",
    ]);
  });

  it("runs a web or worker process with real credentials and no bot (the bot runs elsewhere)", async () => {
    const config = parseConfig({ ...REAL_SUPPLIER, PORT: "0" });
    const choice = await connectTelegram(config, logger, { role: "web" });
    expect(choice.kind).toBe("none");
  });

  it("puts the playground on the loopback interface unless HOST says otherwise", async () => {
    // the playground's H2H key goes to its data folder: a scratch one, not the checkout's
    const PGLITE_DIR = join(mkdtempSync(join(tmpdir(), "kios-connect-")), "pglite");
    const local = await connectTelegram(parseConfig({ PORT: "0", PGLITE_DIR }), logger);
    expect(local.kind).toBe("playground");
    expect(local.http.host).toBe("127.0.0.1");
    const chosen = await connectTelegram(
      parseConfig({ PORT: "0", HOST: "0.0.0.0", PGLITE_DIR }),
      logger,
    );
    rmSync(dirname(PGLITE_DIR), { recursive: true, force: true });
    expect(chosen.http.host).toBe("0.0.0.0");
  });

  it("serves the playground on 127.0.0.1 only", async () => {
    const t = await bootApp({ playground: true, logLevel: "silent" });
    try {
      expect(t.app.address).toBe("127.0.0.1");
    } finally {
      await t.stop();
    }
  });
});

describe("the update inbox in health and metrics", () => {
  it("a process that drains says so on /healthz and shows the inbox on /metrics", async () => {
    const t = await bootApp({ playground: true, logLevel: "silent", env: { METRICS_PORT: "0" } });
    try {
      const health = (await (await fetch(`${t.metricsUrl}/healthz`)).json()) as {
        ok: boolean;
        checks: Record<string, { ok: boolean; detail?: string }>;
      };
      expect(health.ok).toBe(true);
      expect(health.checks.inbox?.ok).toBe(true);
      expect(health.checks.inbox?.detail).toMatch(/^draining; 0 waiting, oldest 0 s/);
      const metrics = await (await fetch(`${t.metricsUrl}/metrics`)).text();
      expect(metrics).toMatch(/^kios_inbox_depth 0$/m);
      expect(metrics).toMatch(/^kios_inbox_oldest_age_seconds 0$/m);
    } finally {
      await t.stop();
    }
  });
});
