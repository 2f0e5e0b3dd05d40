import { Hono } from "hono";
import { describe, expect, it } from "vitest";
import type { AppEnv } from "../../src/server/create-server.ts";
import { startingGate } from "../../src/server/starting-gate.ts";

describe("the starting gate", () => {
  it("says starting, asks reports to come back, then passes everything to the app", async () => {
    const gate = startingGate();
    const health = await gate.app.request("/healthz");
    expect(health.status).toBe(503);
    expect(await health.json()).toEqual({ ok: false, status: "starting" });
    const report = await gate.app.request("/supplier/callback", { method: "POST", body: "{}" });
    expect(report.status).toBe(503);
    expect(report.headers.get("retry-after")).toBe("5");

    const app = new Hono<AppEnv>()
      .get("/healthz", (c) => c.json({ ok: true }))
      .post("/supplier/callback", async (c) => c.text(`got ${await c.req.text()}`));
    gate.open(app);
    expect((await gate.app.request("/healthz")).status).toBe(200);
    const passed = await gate.app.request("/supplier/callback", { method: "POST", body: "{}" });
    expect(await passed.text()).toBe("got {}");
  });
});
