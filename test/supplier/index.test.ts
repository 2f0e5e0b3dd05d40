import { describe, expect, it } from "vitest";
import { parseConfig } from "../../src/config.ts";
import { createSupplier } from "../../src/supplier/index.ts";
import { envelope, startStub } from "./stub-server.ts";

const SUPPLIER_ENV = {
  SUPPLIER_API_ID: "id-1",
  SUPPLIER_API_KEY: "key-secret-1",
  SUPPLIER_SECRET_KEY: "secret-secret-1",
};

describe("createSupplier", () => {
  it("builds the signature adapter from config.supplier", async () => {
    const stub = await startStub(() => ({
      json: envelope("SUCCESS", { balance: 42, balance_formatted: "Rp42" }),
    }));
    try {
      // SUPPLIER_BASE_URL given without /v1 is completed by the config
      const config = parseConfig({
        ...SUPPLIER_ENV,
        SUPPLIER_BASE_URL: stub.url.replace(/\/v1$/, ""),
      });
      const supplier = createSupplier({ config });
      expect(supplier.interface).toBe("signature");
      expect(await supplier.balance()).toEqual({ balance: 42, balanceFormatted: "Rp42" });
      expect(stub.requests[0]!.body.api_id).toBe("id-1");
    } finally {
      await stub.close();
    }
  });

  it("prefers explicit credentials (the embedded sandbox's)", async () => {
    const stub = await startStub(() => ({ json: envelope("SUCCESS", []) }));
    try {
      const supplier = createSupplier({
        config: parseConfig({}),
        credentials: {
          baseUrl: stub.url,
          apiId: "sandbox",
          apiKey: "k-sandbox",
          secretKey: "s-sandbox",
        },
      });
      expect(await supplier.products("game")).toEqual([]);
      expect(stub.requests[0]!.body.api_id).toBe("sandbox");
    } finally {
      await stub.close();
    }
  });

  it("refuses without credentials, and for the key interface (not supported yet)", () => {
    expect(() => createSupplier({ config: parseConfig({}) })).toThrow(/no supplier credentials/);
    expect(() =>
      createSupplier({
        config: parseConfig({
          ...SUPPLIER_ENV,
          SUPPLIER_BASE_URL: "https://supplier.example/v1",
          SUPPLIER_INTERFACE: "key",
        }),
      }),
    ).toThrow("SUPPLIER_INTERFACE=key is not supported yet");
  });
});
