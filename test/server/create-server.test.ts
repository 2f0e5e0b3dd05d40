import { request as httpRequest } from "node:http";
import { listen } from "@kios/kit";
import { Hono } from "hono";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createLogger } from "../../src/logger.ts";
import { type AppEnv, createServer } from "../../src/server/create-server.ts";
import { createMetrics } from "../../src/server/metrics.ts";
import { createMetricsServer } from "../../src/server/metrics-server.ts";
import { bootApp, memorySink, type TestApp } from "../helpers/app.ts";

describe("HTTP server", () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await bootApp({ env: { METRICS_PORT: "0" } });
  });
  afterAll(() => t.stop());

  it("answers health on the public port with its verdict only", async () => {
    const res = await fetch(`${t.baseUrl}/healthz`);
    expect(res.status).toBe(200);
    // what runs and how the inbox stands is for the operator, not for the internet
    expect(await res.json()).toEqual({ ok: true });
    expect(res.headers.get("x-request-id")).toBeTruthy();
  });

  it("serves no metrics on the public port", async () => {
    const res = await fetch(`${t.baseUrl}/metrics`);
    expect(res.status).toBe(404);
    expect(await res.text()).not.toContain("kios_");
  });

  it("serves metrics and the detailed health on its own listener, on 127.0.0.1", async () => {
    expect(t.app.metricsAddress).toBe("127.0.0.1");
    expect(t.app.metricsPort).not.toBe(t.app.port);
    const res = await fetch(`${t.metricsUrl}/metrics`);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toContain("text/plain");
    expect(await res.text()).toContain("kios_process_cpu_user_seconds_total");
    const health = await fetch(`${t.metricsUrl}/healthz`);
    expect(health.status).toBe(200);
    expect(await health.json()).toMatchObject({
      ok: true,
      checks: { database: { ok: true }, jobs: { ok: true, detail: "running" } },
    });
    // and nothing else: the webhook and the supplier's reports are on the public port
    expect((await fetch(`${t.metricsUrl}/supplier/callback`, { method: "POST" })).status).toBe(404);
  });

  it("answers unknown paths with a JSON 404", async () => {
    const res = await fetch(`${t.baseUrl}/nope`);
    expect(res.status).toBe(404);
    expect(await res.json()).toEqual({ error: "not_found" });
  });
});

describe("HTTP server, in isolation", () => {
  const healthy = async () => ({ ok: true, checks: {} });

  it("returns 503 when a check fails, naming it on the metrics listener only", async () => {
    const deps = {
      logger: createLogger({ level: "silent" }),
      metrics: createMetrics(),
      health: async () => ({ ok: false, checks: { database: { ok: false } } }),
    };
    const pub = await createServer(deps).request("/healthz");
    expect(pub.status).toBe(503);
    expect(await pub.json()).toEqual({ ok: false });
    const ops = await createMetricsServer(deps).request("/healthz");
    expect(ops.status).toBe(503);
    expect(await ops.json()).toEqual({ ok: false, checks: { database: { ok: false } } });
  });

  it("refuses bodies over the limit with 413", async () => {
    const routes = new Hono<AppEnv>().post("/echo", async (c) => c.text(await c.req.text()));
    const app = createServer({
      logger: createLogger({ level: "silent" }),
      health: healthy,
      routes: [routes],
      maxBodyBytes: 100,
    });
    const ok = await app.request("/echo", { method: "POST", body: "x".repeat(100) });
    expect(ok.status).toBe(200);
    const big = await app.request("/echo", { method: "POST", body: "x".repeat(101) });
    expect(big.status).toBe(413);
  });

  it("over HTTP: a declared length over the limit is 413 unread, a chunked body is counted as it streams", async () => {
    const routes = new Hono<AppEnv>()
      .post("/echo", async (c) => c.text(String((await c.req.text()).length)))
      .get("/echo", (c) => c.text("get"));
    const server = await listen(
      createServer({
        logger: createLogger({ level: "silent" }),
        health: healthy,
        routes: [routes],
        maxBodyBytes: 100,
      }),
      0,
      "127.0.0.1",
    );
    try {
      const url = `http://127.0.0.1:${server.port}/echo`;
      const sized = async (n: number) => fetch(url, { method: "POST", body: "x".repeat(n) });
      expect(await (await sized(100)).text()).toBe("100");
      expect((await sized(101)).status).toBe(413);
      const chunked = (n: number) =>
        new Promise<{ status: number; text: string }>((resolve, reject) => {
          const req = httpRequest(url, { method: "POST" }, (res) => {
            let text = "";
            res.on("data", (d: Buffer) => {
              text += d.toString();
            });
            res.on("end", () => resolve({ status: res.statusCode ?? 0, text }));
          });
          req.on("error", reject);
          // no length declared: node sends it chunked
          for (let sent = 0; sent < n; sent += 10) req.write("x".repeat(Math.min(10, n - sent)));
          req.end();
        });
      expect(await chunked(100)).toEqual({ status: 200, text: "100" });
      expect((await chunked(101)).status).toBe(413);
      expect(await (await fetch(url)).text()).toBe("get");
    } finally {
      await server.close();
    }
  });

  it("gives the paths that check their own bodies their own limit, and only those", async () => {
    const routes = new Hono<AppEnv>()
      .post("/echo", async (c) => c.text(await c.req.text()))
      .post("/bot1:x/sendPhoto", async (c) => c.text(String((await c.req.text()).length)));
    const app = createServer({
      logger: createLogger({ level: "silent" }),
      health: healthy,
      routes: [routes],
      maxBodyBytes: 100,
      bodyLimits: [{ path: /^\/bot[^/]*\//, maxBytes: 1_000 }],
    });
    const upload = await app.request("/bot1:x/sendPhoto", {
      method: "POST",
      body: "x".repeat(1_000),
    });
    expect(upload.status).toBe(200);
    expect(await upload.text()).toBe("1000");
    const tooBig = await app.request("/bot1:x/sendPhoto", {
      method: "POST",
      body: "x".repeat(1_001),
    });
    expect(tooBig.status).toBe(413);
    const other = await app.request("/echo", { method: "POST", body: "x".repeat(101) });
    expect(other.status).toBe(413);
  });

  it("answers a crash with 500 and a request id, never the internals", async () => {
    const sink = memorySink();
    const routes = new Hono<AppEnv>().get("/boom", () => {
      throw new Error("db password is hunter2");
    });
    const app = createServer({
      logger: createLogger({ destination: sink.stream, pretty: false }),
      health: healthy,
      routes: [routes],
    });
    const res = await app.request("/boom");
    expect(res.status).toBe(500);
    const body = (await res.json()) as { requestId: string };
    expect(body).toEqual({ error: "internal_error", requestId: expect.any(String) });
    expect(JSON.stringify(body)).not.toContain("hunter2");
    await new Promise((r) => setImmediate(r));
    expect(sink.text()).toContain(body.requestId);
  });
});
