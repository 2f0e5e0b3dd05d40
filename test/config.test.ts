import { describe, expect, it } from "vitest";
import { ConfigError, callbackLoopbackAllowed, parseConfig, secretsOf } from "../src/config.ts";

function problemsOf(env: Record<string, string>): string[] {
  try {
    parseConfig(env);
  } catch (err) {
    if (err instanceof ConfigError) return err.problems;
    throw err;
  }
  throw new Error("expected a ConfigError");
}

describe("parseConfig", () => {
  it("starts with nothing set: embedded database, no bot, no supplier", () => {
    const config = parseConfig({});
    expect(config).toMatchObject({
      botToken: undefined,
      botMode: "polling",
      telegramApiRoot: "https://api.telegram.org",
      port: 8080,
      databaseUrl: undefined,
      pgliteDir: "./data/pglite",
      supplier: undefined,
      supplierInterface: "signature",
      supplierTesting: false,
      adminIds: [],
      logLevel: "info",
    });
  });

  it("reads every variable", () => {
    const config = parseConfig({
      BOT_TOKEN: "123456789:AAHabcdefghijklmnopqrstuvwxyz012345",
      BOT_MODE: "webhook",
      TELEGRAM_API_ROOT: "http://127.0.0.1:8081/",
      PUBLIC_URL: "https://shop.example.com/",
      WEBHOOK_SECRET: "s3cret-value_1",
      PORT: "9000",
      DATABASE_URL: "postgres://u:p@localhost:5432/kios",
      PGLITE_DIR: "/tmp/x",
      SUPPLIER_BASE_URL: "https://supplier.example",
      SUPPLIER_API_ID: "id",
      SUPPLIER_API_KEY: "key-1234",
      SUPPLIER_SECRET_KEY: "secret-1234",
      SUPPLIER_INTERFACE: "key",
      SUPPLIER_TESTING: "true",
      ADMIN_IDS: "111, 222,",
      LOG_LEVEL: "DEBUG",
    });
    expect(config).toMatchObject({
      botMode: "webhook",
      telegramApiRoot: "http://127.0.0.1:8081",
      publicUrl: "https://shop.example.com",
      port: 9000,
      supplier: {
        baseUrl: "https://supplier.example/v1",
        apiId: "id",
        apiKey: "key-1234",
        secretKey: "secret-1234",
      },
      supplierInterface: "key",
      supplierTesting: true,
      adminIds: [111, 222],
      logLevel: "debug",
    });
  });

  it("keeps a base URL that already ends in /v1", () => {
    const config = parseConfig({
      SUPPLIER_BASE_URL: "https://supplier.example/v1/",
      SUPPLIER_API_ID: "a",
      SUPPLIER_API_KEY: "b",
      SUPPLIER_SECRET_KEY: "c",
    });
    expect(config.supplier?.baseUrl).toBe("https://supplier.example/v1");
  });

  it("names each bad variable once, with what is wrong and an example", () => {
    const problems = problemsOf({
      PORT: "eighty",
      BOT_MODE: "push",
      ADMIN_IDS: "12,abc",
      LOG_LEVEL: "loud",
      SUPPLIER_TESTING: "maybe",
      DATABASE_URL: "mysql://x",
    });
    expect(problems).toHaveLength(6);
    expect(problems.find((p) => p.startsWith("PORT "))).toMatch(
      /PORT must be a whole number \(got "eighty"\); for example PORT=8080/,
    );
    expect(problems.find((p) => p.startsWith("BOT_MODE "))).toMatch(/polling or webhook/);
    expect(problems.find((p) => p.startsWith("ADMIN_IDS "))).toMatch(/separated by commas/);
    expect(problems.find((p) => p.startsWith("LOG_LEVEL "))).toMatch(/one of fatal/);
    expect(problems.find((p) => p.startsWith("SUPPLIER_TESTING "))).toMatch(/true or false/);
    expect(problems.find((p) => p.startsWith("DATABASE_URL "))).toMatch(/postgres:\/\//);
  });

  it("prepares statements on PostgreSQL unless DATABASE_PREPARE=false (a transaction pooler)", () => {
    expect(parseConfig({}).databasePrepare).toBe(true);
    expect(parseConfig({ DATABASE_PREPARE: "false" }).databasePrepare).toBe(false);
    expect(problemsOf({ DATABASE_PREPARE: "sometimes" })[0]).toMatch(
      /^DATABASE_PREPARE .*true or false/,
    );
  });

  it("opens 10 connections per process to PostgreSQL unless DATABASE_POOL_SIZE says", () => {
    expect(parseConfig({}).databasePoolSize).toBe(10);
    expect(parseConfig({ DATABASE_POOL_SIZE: " 3 " }).databasePoolSize).toBe(3);
    for (const bad of ["0", "101", "2.5", "many"]) {
      expect(problemsOf({ DATABASE_POOL_SIZE: bad })[0]).toMatch(/^DATABASE_POOL_SIZE /);
    }
  });

  it("serves metrics only when METRICS_PORT is set, on 127.0.0.1 unless METRICS_HOST says", () => {
    expect(parseConfig({}).metrics).toBeUndefined();
    expect(parseConfig({ METRICS_PORT: "9464" }).metrics).toEqual({
      port: 9464,
      host: "127.0.0.1",
    });
    expect(parseConfig({ METRICS_PORT: "9464", METRICS_HOST: "10.0.0.5" }).metrics).toEqual({
      port: 9464,
      host: "10.0.0.5",
    });
    // 0 picks a free port for each listener
    expect(parseConfig({ PORT: "0", METRICS_PORT: "0" }).metrics?.port).toBe(0);
    expect(problemsOf({ PORT: "9000", METRICS_PORT: "9000" })).toEqual([
      expect.stringMatching(/^METRICS_PORT must differ from PORT/),
    ]);
    expect(problemsOf({ METRICS_PORT: "70000" })).toEqual([
      expect.stringMatching(/^METRICS_PORT must be between 0 and 65535/),
    ]);
  });

  // a number that can't work stops the start, instead of failing every "top up and buy"
  it.each([
    ["PORT", "65536"],
    ["METRICS_PORT", "-1"],
    ["MAX_AMOUNT", "999"],
    ["RECON_TOLERANCE", "-1"],
    ["SUPPLIER_LOW_BALANCE", "1.5"],
    ["MIN_MARGIN", "-100"],
    ["MIN_MARGIN", "Rp500"],
    ["PRODUCT_PAUSE_AFTER", "0/5"],
    ["PRODUCT_PAUSE_AFTER", "6/5"],
    ["PRODUCT_PAUSE_MINUTES", "0"],
    ["PAYMENT_EXPIRY_MINUTES", "0"],
    ["PAYMENT_EXPIRY_MINUTES", "1001"],
    ["PAYMENT_TOPUP_STEP", "0"],
    ["PAYMENT_TOPUP_STEP", "100000001"],
    ["INBOX_CONCURRENCY", "0"],
    ["SETTLE_CONCURRENCY", "1001"],
    ["SUPPLIER_TIMEOUT_MS", "999"],
    ["SUPPLIER_TIMEOUT_MS", "25001"],
    ["SUPPLIER_TIMEOUT_MS", "15s"],
  ])("refuses %s=%s, naming the range", (name, value) => {
    const problems = problemsOf({ [name]: value });
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatch(new RegExp(`^${name} `));
    expect(problems[0]).toMatch(/for example/);
  });

  it("takes MIN_MARGIN in whole rupiah, 0 when unset", () => {
    expect(parseConfig({}).minMargin).toBe(0);
    expect(parseConfig({ MIN_MARGIN: "250" }).minMargin).toBe(250);
  });

  it("takes the edges of each range", () => {
    const config = parseConfig({
      PAYMENT_TOPUP_STEP: "1",
      PAYMENT_EXPIRY_MINUTES: "1000",
      SUPPLIER_TIMEOUT_MS: "1000",
    });
    expect(config).toMatchObject({
      paymentDepositStep: 1,
      paymentExpiryMinutes: 1000,
      supplierTimeoutMs: 1000,
    });
    expect(parseConfig({ SUPPLIER_TIMEOUT_MS: "25000" }).supplierTimeoutMs).toBe(25_000);
    expect(parseConfig({}).supplierTimeoutMs).toBe(15_000);
    expect(parseConfig({ PAYMENT_TOPUP_STEP: "100000000" }).paymentDepositStep).toBe(100_000_000);
  });

  it("refuses a SHOP_NAME with a control character, which would break every picture", () => {
    expect(problemsOf({ SHOP_NAME: "Toko\u0001Budi" })).toEqual([
      expect.stringMatching(/^SHOP_NAME must not hold control characters/),
    ]);
    expect(parseConfig({ SHOP_NAME: "Toko Budi" }).shopName).toBe("Toko Budi");
  });

  it("never echoes a secret value in its messages", () => {
    const problems = problemsOf({ BOT_TOKEN: "not-a-token-but-secret" });
    expect(problems.join("\n")).not.toContain("not-a-token-but-secret");
    expect(problems[0]).toMatch(/^BOT_TOKEN is not a bot token/);
  });

  it("asks for all supplier credentials or none", () => {
    const problems = problemsOf({ SUPPLIER_API_ID: "id" });
    expect(problems.map((p) => p.split(" ")[0])).toEqual([
      "SUPPLIER_BASE_URL",
      "SUPPLIER_API_KEY",
      "SUPPLIER_SECRET_KEY",
    ]);
  });

  it("the key interface needs no SUPPLIER_API_ID", () => {
    const config = parseConfig({
      SUPPLIER_INTERFACE: "key",
      SUPPLIER_BASE_URL: "https://s.example",
      SUPPLIER_API_KEY: "key-1234",
      SUPPLIER_SECRET_KEY: "secret-1234",
    });
    expect(config.supplier).toMatchObject({ apiId: "", apiKey: "key-1234" });
    const problems = problemsOf({ SUPPLIER_INTERFACE: "key", SUPPLIER_API_KEY: "k" });
    expect(problems.map((p) => p.split(" ")[0])).toEqual([
      "SUPPLIER_BASE_URL",
      "SUPPLIER_SECRET_KEY",
    ]);
  });

  it("reads TRUST_PROXY and H2H_CALLBACK_ALLOW_LOOPBACK; loopback callbacks beside a real supplier only when asked", () => {
    const key = { H2H_ENCRYPTION_KEY: "k".repeat(32) };
    const supplier = {
      SUPPLIER_BASE_URL: "https://supplier.example/v1",
      SUPPLIER_API_ID: "id",
      SUPPLIER_API_KEY: "key",
      SUPPLIER_SECRET_KEY: "secret",
    };
    expect(parseConfig({}).trustProxy).toEqual([]);
    expect(parseConfig({ TRUST_PROXY: " 127.0.0.1, 10.0.0.0/8 ,::1" }).trustProxy).toEqual([
      "127.0.0.1",
      "10.0.0.0/8",
      "::1",
    ]);
    expect(problemsOf({ TRUST_PROXY: "127.0.0.1,proxy.local" }).join()).toContain("TRUST_PROXY");
    expect(problemsOf({ TRUST_PROXY: "10.0.0.0/33" }).join()).toContain("TRUST_PROXY");
    expect(callbackLoopbackAllowed(parseConfig({ ...key }))).toBe(true);
    expect(callbackLoopbackAllowed(parseConfig({ ...key, ...supplier }))).toBe(false);
    const staging = parseConfig({ ...key, ...supplier, H2H_CALLBACK_ALLOW_LOOPBACK: "true" });
    expect(staging.h2h?.callbackAllowLoopback).toBe(true);
    expect(callbackLoopbackAllowed(staging)).toBe(true);
  });

  it("needs PUBLIC_URL and WEBHOOK_SECRET in webhook mode", () => {
    const problems = problemsOf({
      BOT_TOKEN: "123456789:AAHabcdefghijklmnopqrstuvwxyz012345",
      BOT_MODE: "webhook",
    });
    expect(problems.map((p) => p.split(" ")[0])).toEqual(["PUBLIC_URL", "WEBHOOK_SECRET"]);
  });

  it("lists the secrets it holds", () => {
    const config = parseConfig({
      BOT_TOKEN: "123456789:AAHabcdefghijklmnopqrstuvwxyz012345",
      SUPPLIER_BASE_URL: "https://s.example",
      SUPPLIER_API_ID: "id",
      SUPPLIER_API_KEY: "key-1234",
      SUPPLIER_SECRET_KEY: "secret-1234",
    });
    expect(secretsOf(config)).toEqual([
      "123456789:AAHabcdefghijklmnopqrstuvwxyz012345",
      "key-1234",
      "secret-1234",
    ]);
  });

  describe("payments", () => {
    const SUPPLIER = {
      SUPPLIER_BASE_URL: "https://s.example",
      SUPPLIER_API_ID: "id",
      SUPPLIER_API_KEY: "key-1234",
      SUPPLIER_SECRET_KEY: "secret-1234",
    };

    it("runs the gateway sandbox only when nothing real is configured (design rule 8)", () => {
      expect(parseConfig({}).payments).toEqual({ gateway: "sandbox" });
      expect(parseConfig(SUPPLIER).payments).toBeUndefined();
      expect(parseConfig({ PAYMENT_GATEWAY: "none" }).payments).toBeUndefined();
      expect(parseConfig({}).depositManual).toBe(true);
      expect(parseConfig({ DEPOSIT_MANUAL: "false" }).depositManual).toBe(false);
    });

    it("takes Midtrans with its key: sandbox API unless production, or the URL given", () => {
      expect(parseConfig({ MIDTRANS_SERVER_KEY: "SB-Mid-server-abc" }).payments).toEqual({
        gateway: "midtrans",
        serverKey: "SB-Mid-server-abc",
        production: false,
        baseUrl: "https://api.sandbox.midtrans.com",
        testing: undefined,
      });
      const live = parseConfig({
        PAYMENT_GATEWAY: "midtrans",
        MIDTRANS_SERVER_KEY: "Mid-server-abc",
        MIDTRANS_IS_PRODUCTION: "true",
      });
      expect(live.payments).toMatchObject({
        baseUrl: "https://api.midtrans.com",
        production: true,
      });
      expect(
        parseConfig({ MIDTRANS_SERVER_KEY: "k-123", MIDTRANS_BASE_URL: "http://127.0.0.1:9/" })
          .payments,
      ).toMatchObject({ baseUrl: "http://127.0.0.1:9" });
      expect(secretsOf(live)).toContain("Mid-server-abc");
    });

    // a test gateway credits wallets for QRs anyone can "pay" in its public simulator: beside
    // a supplier that charges real money, that is free products (design rule 8)
    describe("a test gateway beside a real supplier", () => {
      const LIVE = {
        ...SUPPLIER,
        PAYMENT_GATEWAY: "midtrans",
        MIDTRANS_SERVER_KEY: "Mid-server-live-key",
        MIDTRANS_IS_PRODUCTION: "true",
      };
      const refusal = (env: Record<string, string>) => {
        const problems = problemsOf(env);
        expect(problems).toHaveLength(1);
        expect(problems[0]).not.toContain("live-key");
        expect(problems[0]).not.toContain("sandbox-key");
        return problems[0]!;
      };

      it("starts with the production gateway", () => {
        expect(parseConfig(LIVE).payments).toEqual({
          gateway: "midtrans",
          serverKey: "Mid-server-live-key",
          production: true,
          baseUrl: "https://api.midtrans.com",
          testing: undefined,
        });
      });

      it("refuses a sandbox key, the sandbox API or a local gateway, with one line saying what to set", () => {
        const key = refusal({ ...LIVE, MIDTRANS_SERVER_KEY: "SB-Mid-server-sandbox-key" });
        expect(key).toMatch(
          /^PAYMENT_GATEWAY_TESTING is not set: with SUPPLIER_\* set kios sells for real/,
        );
        expect(key).toContain("a sandbox server key (SB-Mid-server-…)");
        expect(key).toContain("MIDTRANS_IS_PRODUCTION=true");
        expect(key).toContain("PAYMENT_GATEWAY_TESTING=true");
        // the default: the sandbox API
        const { MIDTRANS_IS_PRODUCTION: _, ...byDefault } = LIVE;
        expect(refusal(byDefault)).toContain("MIDTRANS_IS_PRODUCTION=false");
        expect(refusal({ ...LIVE, MIDTRANS_IS_PRODUCTION: "false" })).toContain(
          "MIDTRANS_IS_PRODUCTION=false",
        );
        for (const url of [
          "http://127.0.0.1:40123",
          "http://localhost:8081",
          "http://[::1]:9000",
          "https://api.sandbox.midtrans.com",
        ]) {
          expect(refusal({ ...LIVE, MIDTRANS_BASE_URL: url })).toContain(
            "MIDTRANS_BASE_URL at a sandbox or local address",
          );
        }
        // the gateway sandbox's own credentials, as the fault campaign sets them
        expect(
          refusal({
            ...SUPPLIER,
            PAYMENT_GATEWAY: "midtrans",
            MIDTRANS_SERVER_KEY: "SB-Mid-server-kios-sandbox",
            MIDTRANS_BASE_URL: "http://127.0.0.1:40123",
          }),
        ).toContain(
          "a sandbox server key (SB-Mid-server-…), MIDTRANS_IS_PRODUCTION=false, MIDTRANS_BASE_URL at a sandbox or local address",
        );
        // a proxy in front of the production API is not a test gateway
        expect(
          parseConfig({ ...LIVE, MIDTRANS_BASE_URL: "https://midtrans-proxy.shop.example" })
            .payments,
        ).toMatchObject({ baseUrl: "https://midtrans-proxy.shop.example", testing: undefined });
      });

      it("runs a staging shop only when PAYMENT_GATEWAY_TESTING=true says so, and says why", () => {
        const staging = parseConfig({
          ...SUPPLIER,
          MIDTRANS_SERVER_KEY: "SB-Mid-server-sandbox-key",
          PAYMENT_GATEWAY_TESTING: "true",
        });
        expect(staging.payments).toMatchObject({
          gateway: "midtrans",
          production: false,
          testing: "a sandbox server key (SB-Mid-server-…), MIDTRANS_IS_PRODUCTION=false",
        });
        expect(problemsOf({ ...SUPPLIER, PAYMENT_GATEWAY_TESTING: "perhaps" })[0]).toMatch(
          /^PAYMENT_GATEWAY_TESTING must be true or false/,
        );
      });

      it("needs no flag without a real supplier (the playground and tests)", () => {
        expect(
          parseConfig({
            MIDTRANS_SERVER_KEY: "SB-Mid-server-x",
            MIDTRANS_BASE_URL: "http://127.0.0.1:9",
          }).payments,
        ).toMatchObject({ gateway: "midtrans", testing: undefined });
      });
    });

    it("refuses a gateway without its key, an unknown gateway and bad numbers, never echoing the key", () => {
      const problems = (env: Record<string, string>) => {
        try {
          parseConfig(env);
          return [];
        } catch (err) {
          return (err as ConfigError).problems;
        }
      };
      expect(problems({ PAYMENT_GATEWAY: "midtrans" })).toEqual([
        expect.stringMatching(/^MIDTRANS_SERVER_KEY is required when PAYMENT_GATEWAY=midtrans/),
      ]);
      expect(problems({ PAYMENT_GATEWAY: "xendit" })).toEqual([
        expect.stringMatching(/^PAYMENT_GATEWAY must be none or midtrans \(got "xendit"\)/),
      ]);
      expect(problems({ PAYMENT_EXPIRY_MINUTES: "0", PAYMENT_TOPUP_STEP: "x" })).toHaveLength(2);
      expect(
        problems({ MIDTRANS_SERVER_KEY: "   ", PAYMENT_GATEWAY: "midtrans" }).join(),
      ).not.toContain("   ");
    });
  });
});
