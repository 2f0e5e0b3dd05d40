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

  it("builds the key adapter for SUPPLIER_INTERFACE=key: Bearer key, no api_id or signature", async () => {
    const stub = await startStub(() => ({
      json: {
        status: "success",
        rc: "00",
        message: "ok",
        data: { balance: 42, balance_formatted: "Rp42" },
      },
    }));
    try {
      const config = parseConfig({
        ...SUPPLIER_ENV,
        SUPPLIER_BASE_URL: stub.url,
        SUPPLIER_INTERFACE: "key",
      });
      const supplier = createSupplier({ config });
      expect(supplier.interface).toBe("key");
      expect(await supplier.balance()).toEqual({ balance: 42, balanceFormatted: "Rp42" });
      expect(supplier.notices?.()).toEqual([]);
      const [request] = stub.requests;
      expect(request).toMatchObject({ method: "GET", path: "/balance", raw: "" });
      expect(request!.headers.authorization).toBe("Bearer key-secret-1");
    } finally {
      await stub.close();
    }
  });

  it("the key adapter takes the embedded sandbox's credentials too", async () => {
    const stub = await startStub(() => ({ json: { rc: "00", message: "ok", data: [] } }));
    try {
      const supplier = createSupplier({
        config: parseConfig({ SUPPLIER_INTERFACE: "key" }),
        credentials: { baseUrl: stub.url, apiId: "sandbox", apiKey: "k-sandbox", secretKey: "s" },
      });
      expect(await supplier.products("game")).toEqual([]);
      expect(stub.requests[0]!.path).toBe("/products?type=game");
      expect(stub.requests[0]!.headers.authorization).toBe("Bearer k-sandbox");
    } finally {
      await stub.close();
    }
  });

  it("refuses without credentials, whichever interface", () => {
    expect(() => createSupplier({ config: parseConfig({}) })).toThrow(/no supplier credentials/);
    expect(() => createSupplier({ config: parseConfig({ SUPPLIER_INTERFACE: "key" }) })).toThrow(
      /no supplier credentials/,
    );
  });

  it.each(["signature", "key"] as const)(
    "gives up on a %s order after SUPPLIER_TIMEOUT_MS, leaving it unknown",
    async (supplierInterface) => {
      // a supplier that never answers: only the client's timeout ends the call
      const silent: typeof fetch = (_url, init) =>
        new Promise((_resolve, reject) => {
          init?.signal?.addEventListener("abort", () => reject(init.signal?.reason));
        });
      const supplier = createSupplier({
        config: parseConfig({ SUPPLIER_INTERFACE: supplierInterface, SUPPLIER_TIMEOUT_MS: "1000" }),
        credentials: {
          baseUrl: "http://supplier.invalid/v1",
          apiId: "a",
          apiKey: "k",
          secretKey: "s",
        },
        fetch: silent,
      });
      const outcome = await supplier.order({
        cmd: "prepaid",
        code: "TSEL10",
        customerNo: "081234567890",
        refId: "K-TIMEOUT-1",
      });
      expect(outcome).toMatchObject({ outcome: "unknown" });
      expect(outcome.outcome === "unknown" && outcome.reason).toMatch(/within 1000 ms/);
    },
    // the default (15 s) would pass this bound only by failing the assertion above
    40_000,
  );
});
