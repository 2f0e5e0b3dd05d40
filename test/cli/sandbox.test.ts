import { spawn } from "node:child_process";
import { signedBody } from "@kios/kit";
import { describe, expect, it } from "vitest";
import { KIOS_ENTRY as BIN } from "../helpers/kios-cli.ts";
import { kios } from "../helpers/run-cli.ts";

describe("kios sandbox", () => {
  it("is listed in the help", async () => {
    const r = await kios(["help"]);
    expect(r.status).toBe(0);
    expect(r.stdout).toMatch(/sandbox\s+run the sandbox supplier/);
  });

  it("answers bad flags and bad SANDBOX_* values with its usage and exit 2", async () => {
    const cases: [string[], Record<string, string>][] = [
      [["sandbox", "--port", "http"], {}],
      [["sandbox", "--frobnicate"], {}],
      [["sandbox", "--error-rate", "2"], {}],
      [["sandbox"], { SANDBOX_BALANCE: "lots" }],
    ];
    const results = [];
    for (const [args, env] of cases) results.push(await kios(args, { env }));
    for (const [i, r] of results.entries()) {
      expect(r.status, cases[i]![0].join(" ")).toBe(2);
      expect(r.stderr).toContain("usage: kios sandbox");
    }
    expect(results[0]!.stderr).toContain("--port must be a whole number");
    expect(results[3]!.stderr).toContain("SANDBOX_BALANCE");
  });

  // the binary's own: a long-running command that the process's signal stops
  it("serves signed requests, prints its URL and credentials, and exits 0 on Ctrl-C", async () => {
    const proc = spawn(
      process.execPath,
      [BIN, "sandbox", "--port", "0", "--api-id", "CLI-TEST", "--balance", "123456"],
      { env: { PATH: process.env.PATH, LOG_LEVEL: "warn" }, stdio: ["ignore", "pipe", "pipe"] },
    );
    try {
      let out = "";
      proc.stdout!.on("data", (d) => {
        out += d;
      });
      let err = "";
      proc.stderr!.on("data", (d) => {
        err += d;
      });
      const url = await new Promise<string>((resolve, reject) => {
        const timer = setInterval(() => {
          const m = /base URL:\s+(http:\/\/\S+\/v1)/.exec(out);
          if (m) {
            clearInterval(timer);
            resolve(m[1]!);
          }
        }, 50);
        proc.once("exit", (code) => {
          clearInterval(timer);
          reject(new Error(`exited ${code}: ${err}`));
        });
      });
      expect(out).toContain("api_id:       CLI-TEST");
      expect(out).toContain("secret_key:   sandbox-secret-key");
      expect(out).toContain(`SUPPLIER_BASE_URL=${url}`);

      const creds = {
        apiId: "CLI-TEST",
        apiKey: "sandbox-api-key",
        secretKey: "sandbox-secret-key",
      };
      const res = await fetch(`${url}/balance`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify(signedBody(creds, {})),
      });
      expect(await res.json()).toMatchObject({ code: "SUCCESS", data: { balance: 123456 } });

      const exited = new Promise<number | null>((resolve) => proc.once("exit", resolve));
      proc.kill("SIGINT");
      expect(await exited).toBe(0);
    } finally {
      if (proc.exitCode === null) proc.kill("SIGKILL");
    }
  });
});
