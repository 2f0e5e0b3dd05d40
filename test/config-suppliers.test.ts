import { describe, expect, it } from "vitest";
import { ConfigError, parseConfig, secretsOf } from "../src/config.ts";

function problemsOf(env: Record<string, string>): string[] {
  try {
    parseConfig(env);
  } catch (err) {
    if (err instanceof ConfigError) return err.problems;
    throw err;
  }
  throw new Error("expected a ConfigError");
}

const FIRST = {
  SUPPLIER_BASE_URL: "https://one.example/v1",
  SUPPLIER_API_ID: "id-1",
  SUPPLIER_API_KEY: "key-one-1234",
  SUPPLIER_SECRET_KEY: "secret-one-1234",
};

const SECOND = {
  SUPPLIER_2_BASE_URL: "https://two.example",
  SUPPLIER_2_API_ID: "id-2",
  SUPPLIER_2_API_KEY: "key-two-1234",
  SUPPLIER_2_SECRET_KEY: "secret-two-1234",
};

describe("parseConfig: several suppliers", () => {
  it("has no supplier with nothing set; the first's name is main", () => {
    const config = parseConfig({});
    expect(config.suppliers).toEqual([]);
    expect(config.supplierName).toBe("main");
  });

  it("reads SUPPLIER_* as the first and SUPPLIER_2_*, SUPPLIER_3_* as the others, in order", () => {
    const config = parseConfig({
      ...FIRST,
      SUPPLIER_TIMEOUT_MS: "5000",
      // numbered out of order in the environment: read in their numbers' order
      SUPPLIER_3_BASE_URL: "https://three.example/v1/",
      SUPPLIER_3_API_KEY: "key-three-1234",
      SUPPLIER_3_SECRET_KEY: "secret-three-1234",
      SUPPLIER_3_INTERFACE: "key",
      SUPPLIER_3_NAME: "Cadangan",
      ...SECOND,
      SUPPLIER_2_TIMEOUT_MS: "8000",
    });
    expect(config.suppliers).toEqual([
      {
        name: "main",
        credentials: {
          baseUrl: "https://one.example/v1",
          apiId: "id-1",
          apiKey: "key-one-1234",
          secretKey: "secret-one-1234",
        },
        interface: "signature",
        timeoutMs: 5000,
        envPrefix: "SUPPLIER_",
      },
      {
        name: "supplier2",
        credentials: {
          baseUrl: "https://two.example/v1",
          apiId: "id-2",
          apiKey: "key-two-1234",
          secretKey: "secret-two-1234",
        },
        interface: "signature",
        timeoutMs: 8000,
        envPrefix: "SUPPLIER_2_",
      },
      {
        name: "cadangan",
        credentials: {
          baseUrl: "https://three.example/v1",
          apiId: "",
          apiKey: "key-three-1234",
          secretKey: "secret-three-1234",
        },
        interface: "key",
        timeoutMs: 15000,
        envPrefix: "SUPPLIER_3_",
      },
    ]);
    // the first supplier's old fields stay as they were
    expect(config.supplier?.baseUrl).toBe("https://one.example/v1");
    expect(config.supplierTimeoutMs).toBe(5000);
  });

  it("names the first supplier by SUPPLIER_NAME", () => {
    const config = parseConfig({ ...FIRST, SUPPLIER_NAME: "digi" });
    expect(config.supplierName).toBe("digi");
    expect(config.suppliers.map((s) => s.name)).toEqual(["digi"]);
  });

  it("asks for all of a numbered supplier's credentials or none", () => {
    const problems = problemsOf({ ...FIRST, SUPPLIER_2_BASE_URL: "https://two.example" });
    expect(problems).toHaveLength(3);
    expect(problems[0]).toMatch(/^SUPPLIER_2_API_ID is missing; set all of SUPPLIER_2_BASE_URL/);
  });

  it("refuses a backup without the first supplier", () => {
    const problems = problemsOf({ ...SECOND });
    expect(problems).toEqual([
      expect.stringMatching(/^SUPPLIER_2_\* is set but the first supplier is not/),
    ]);
  });

  it("refuses two suppliers of one name, a bad name and the reserved one", () => {
    expect(problemsOf({ ...FIRST, ...SECOND, SUPPLIER_2_NAME: "main" })).toEqual([
      expect.stringMatching(/^SUPPLIER_2_NAME "main" is already the name of the first supplier/),
    ]);
    expect(problemsOf({ ...FIRST, ...SECOND, SUPPLIER_2_NAME: "a b/c" })[0]).toMatch(
      /^SUPPLIER_2_NAME must be 1 to 32 of a-z, 0-9 and -.*for example SUPPLIER_2_NAME=main/,
    );
    expect(problemsOf({ ...FIRST, ...SECOND, SUPPLIER_2_NAME: "callback" })[0]).toMatch(
      /^SUPPLIER_2_NAME must not be "callback"/,
    );
  });

  it("names a bad numbered setting, an unknown one and SUPPLIER_1_*", () => {
    const problems = problemsOf({
      ...FIRST,
      ...SECOND,
      SUPPLIER_2_TIMEOUT_MS: "99",
      SUPPLIER_2_INTERFACE: "soap",
      SUPPLIER_2_APIKEY: "x",
      SUPPLIER_1_BASE_URL: "https://x.example",
    });
    expect(problems).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^SUPPLIER_2_TIMEOUT_MS must be between 1000 and 25000/),
        expect.stringMatching(/^SUPPLIER_2_INTERFACE must be signature, key or digiflazz/),
        expect.stringMatching(/^SUPPLIER_2_APIKEY is not a supplier setting/),
        expect.stringMatching(
          /^SUPPLIER_1_BASE_URL is not read: the first supplier is SUPPLIER_\*/,
        ),
      ]),
    );
  });

  it("never echoes a numbered supplier's secret and lists its secrets for scrubbing", () => {
    const problems = problemsOf({ ...FIRST, SUPPLIER_2_SECRET_KEY: "very-secret-value" });
    expect(problems.join("\n")).not.toContain("very-secret-value");
    const config = parseConfig({ ...FIRST, ...SECOND });
    expect(secretsOf(config)).toEqual(
      expect.arrayContaining(["key-two-1234", "secret-two-1234", "key-one-1234"]),
    );
  });

  it("ignores empty numbered variables and the first supplier's other settings", () => {
    const config = parseConfig({
      ...FIRST,
      SUPPLIER_2_BASE_URL: " ",
      SUPPLIER_TESTING: "true",
      SUPPLIER_LOW_BALANCE: "1000",
    });
    expect(config.suppliers).toHaveLength(1);
  });
});

describe("parseConfig: Digiflazz", () => {
  const DIGIFLAZZ = {
    SUPPLIER_2_INTERFACE: "digiflazz",
    SUPPLIER_2_USERNAME: "tokobudi",
    SUPPLIER_2_API_KEY: "dev-key-1234",
    SUPPLIER_2_WEBHOOK_SECRET: "hook-secret-1234",
    SUPPLIER_2_NAME: "digiflazz",
  };

  it("reads a username, a key and the webhook's secret; the base URL is Digiflazz's by default", () => {
    const config = parseConfig({ ...FIRST, ...DIGIFLAZZ });
    expect(config.suppliers[1]).toMatchObject({
      name: "digiflazz",
      interface: "digiflazz",
      credentials: {
        baseUrl: "https://api.digiflazz.com/v1",
        apiId: "tokobudi",
        apiKey: "dev-key-1234",
        secretKey: "hook-secret-1234",
      },
    });
    expect(secretsOf(config)).toEqual(expect.arrayContaining(["dev-key-1234", "hook-secret-1234"]));
  });

  it("takes Digiflazz as the first supplier too", () => {
    const config = parseConfig({
      SUPPLIER_INTERFACE: "digiflazz",
      SUPPLIER_USERNAME: "tokobudi",
      SUPPLIER_API_KEY: "dev-key-1234",
      SUPPLIER_WEBHOOK_SECRET: "hook-secret-1234",
      SUPPLIER_TIMEOUT_MS: "8000",
      PAYMENT_GATEWAY: "none",
    });
    expect(config.suppliers[0]).toMatchObject({
      interface: "digiflazz",
      timeoutMs: 8000,
      credentials: { baseUrl: "https://api.digiflazz.com/v1", apiId: "tokobudi" },
    });
  });

  it("names what is missing, and the other interfaces' settings set by mistake, never a secret's value", () => {
    const problems = problemsOf({
      ...FIRST,
      SUPPLIER_2_INTERFACE: "digiflazz",
      SUPPLIER_2_USERNAME: "tokobudi",
      SUPPLIER_2_API_KEY: "dev-key-1234",
      SUPPLIER_3_INTERFACE: "digiflazz",
      SUPPLIER_3_USERNAME: "x",
      SUPPLIER_3_API_KEY: "k-1234",
      SUPPLIER_3_WEBHOOK_SECRET: "w-1234",
      SUPPLIER_3_SECRET_KEY: "s-1234",
    });
    expect(problems).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^SUPPLIER_2_WEBHOOK_SECRET is missing/),
        expect.stringMatching(
          /^SUPPLIER_3_SECRET_KEY is not read on SUPPLIER_3_INTERFACE=digiflazz/,
        ),
      ]),
    );
    expect(problems.join("\n")).not.toContain("dev-key-1234");
  });
});
