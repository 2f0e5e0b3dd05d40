import { spawn } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { KIOS_ENTRY as BIN } from "../helpers/kios-cli.ts";
import { kios as runKios } from "../helpers/run-cli.ts";
import { envelope, startStub } from "./stub-server.ts";

/** spawns the binary without blocking this process (a stub server here must keep answering) */
function spawnKios(
  args: string[],
  env: Record<string, string> = {},
): Promise<{ status: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, ...args], {
      // an empty working directory: no .env of the developer's leaks in
      cwd: mkdtempSync(join(tmpdir(), "kios-cli-supplier-")),
      env: { PATH: process.env.PATH ?? "", ...env },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d) => {
      stdout += d;
    });
    child.stderr.on("data", (d) => {
      stderr += d;
    });
    const timer = setTimeout(() => child.kill("SIGKILL"), 25_000);
    child.on("error", reject);
    child.on("close", (status) => {
      clearTimeout(timer);
      resolve({ status, stdout, stderr });
    });
  });
}

/** in-process, as the binary would run it (test/helpers/run-cli.ts) */
const kios = (args: string[], env: Record<string, string> = {}) => runKios(args, { env });

describe("kios products / balance / status", () => {
  // spawned: a long JSON list reaches a pipe whole before the binary exits (src/cli/io.ts)
  it("products --cmd game --json uses the embedded sandbox without SUPPLIER_* and prints JSON", async () => {
    const r = await spawnKios(["products", "--cmd", "game", "--json"]);
    expect(r.stderr).toContain("no SUPPLIER_* set: using the embedded sandbox supplier");
    expect(r.status).toBe(0);
    const products = JSON.parse(r.stdout) as { code: string; type: string; price: number }[];
    expect(products.length).toBeGreaterThan(100);
    expect(products.every((p) => p.type === "game" && Number.isInteger(p.price))).toBe(true);
    expect(products.map((p) => p.code)).toContain("ML86");
  });

  it("products prints a table with Rp prices and a count", async () => {
    const r = await kios(["products", "--cmd", "pasca"]);
    expect(r.status).toBe(0);
    const lines = r.stdout.trim().split("\n");
    expect(lines[0]).toMatch(/^CODE\s+NAME\s+BRAND\s+CATEGORY\s+PRICE\s+STATUS$/);
    expect(r.stdout).toMatch(/^PLNPOST\s.*Rp\d{1,3}(\.\d{3})*\s+active$/m);
    expect(lines.at(-1)).toMatch(/^\d+ pasca products$/);
    expect(Number(lines.at(-1)!.split(" ")[0])).toBe(lines.length - 2);
  });

  it("balance prints the sandbox balance", async () => {
    const r = await kios(["balance"]);
    expect(r.status).toBe(0);
    expect(r.stdout.trim()).toBe("balance: Rp5.000.000");
  });

  it("status of an unknown ref_id says TRANSACTION_NOT_FOUND and exits 1", async () => {
    const r = await kios(["status", "K-NOT-THERE"]);
    expect(r.status).toBe(1);
    expect(r.stderr).toContain(
      "TRANSACTION_NOT_FOUND: the supplier has no transaction with ref_id K-NOT-THERE",
    );
    expect(r.stdout).toBe("");
  });

  it("bad arguments are usage errors (exit 2)", async () => {
    const missing = await kios(["products"]);
    expect(missing.status).toBe(2);
    expect(missing.stderr).toContain("--cmd is required");
    expect(missing.stderr).toContain("usage: kios products --cmd prepaid|game|pasca");
    const wrong = await kios(["products", "--cmd", "pulsa"]);
    expect(wrong.status).toBe(2);
    expect((await kios(["status"])).status).toBe(2);
    expect((await kios(["status", "a", "b"])).status).toBe(2);
  });

  it("with SUPPLIER_* set it talks to that supplier, and a refusal prints the code and exits 1", async () => {
    const stub = await startStub(() => ({
      status: 401,
      json: {
        ...envelope("INVALID_SIGNATURE"),
        success: false,
        message: "signature does not match",
      },
    }));
    try {
      const r = await kios(["balance"], {
        SUPPLIER_BASE_URL: stub.url,
        SUPPLIER_API_ID: "shop-1",
        SUPPLIER_API_KEY: "ak-cli-secret-value",
        SUPPLIER_SECRET_KEY: "sk-cli-secret-value",
      });
      expect(r.status).toBe(1);
      expect(r.stderr).not.toContain("sandbox");
      expect(r.stderr).toContain("INVALID_SIGNATURE: the supplier rejected the request signature");
      expect(r.stderr).toContain('supplier: "signature does not match"');
      expect(r.stderr + r.stdout).not.toContain("cli-secret-value");
      expect(stub.requests).toHaveLength(1);
      expect(stub.requests[0]!.body.api_id).toBe("shop-1");
    } finally {
      await stub.close();
    }
  });
});
