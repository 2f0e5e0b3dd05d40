import { describe, expect, it } from "vitest";
import { connectGateway } from "../../src/app/connect-gateway.ts";
import { parseConfig } from "../../src/config.ts";
import { createLogger } from "../../src/logger.ts";
import { memorySink } from "../helpers/app.ts";

// a staging shop may run a test gateway beside a real supplier, but never quietly

const STAGING = {
  SUPPLIER_BASE_URL: "https://supplier.example/v1",
  SUPPLIER_API_ID: "id-123",
  SUPPLIER_API_KEY: "key-123",
  SUPPLIER_SECRET_KEY: "secret-123",
  MIDTRANS_SERVER_KEY: "SB-Mid-server-staging",
};

const connect = async (env: Record<string, string>) => {
  const sink = memorySink();
  const logger = createLogger({ level: "info", pretty: false, destination: sink.stream });
  const connection = await connectGateway({ config: parseConfig(env), logger });
  await connection?.close();
  logger.flush(); // the lines of this turn, written
  return { connection, logs: sink.text() };
};

describe("connecting the payment gateway", () => {
  it("warns at every start that a test gateway stands beside a real supplier", async () => {
    const { connection, logs } = await connect({ ...STAGING, PAYMENT_GATEWAY_TESTING: "true" });
    expect(connection?.description).toBe(
      "midtrans at api.sandbox.midtrans.com (a test gateway: PAYMENT_GATEWAY_TESTING=true)",
    );
    const warning = logs
      .split("\n")
      .filter((l) => l !== "")
      .map((l) => JSON.parse(l) as { level: number; msg: string; testGateway?: string })
      .find((l) => l.level === 40 && /PAYMENT_GATEWAY_TESTING/.test(l.msg));
    expect(warning?.msg).toMatch(/QRs paid in the gateway's simulator credit real wallets/);
    expect(warning?.testGateway).toContain("a sandbox server key");
  });

  it("says nothing of the kind for the production gateway", async () => {
    const { connection, logs } = await connect({
      ...STAGING,
      MIDTRANS_SERVER_KEY: "Mid-server-live",
      MIDTRANS_IS_PRODUCTION: "true",
    });
    expect(connection?.description).toBe("midtrans at api.midtrans.com");
    expect(logs).not.toContain("PAYMENT_GATEWAY_TESTING");
  });
});
