import { createServer, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { type CallbackDeps, callbackOf } from "../../src/commerce/h2h/callbacks.ts";
import { registerH2hCallbacks } from "../../src/commerce/h2h/jobs.ts";
import { updateKeySettings } from "../../src/commerce/h2h/keys.ts";
import { testDriver } from "../helpers/db.ts";
import { bootH2h, type H2hHarness } from "../helpers/h2h.ts";

// issue 36 item 12: a reseller's endpoint that answers its headers and then one byte every
// 2 s must not hold anyone else's callbacks, and its own attempt ends at its deadline.

const phone = () => `0812345${String(Math.floor(Math.random() * 1000)).padStart(3, "0")}901`;

/** an endpoint that sends 200 and then a byte every 2 s, for a minute */
async function dripper() {
  const open = new Set<ServerResponse>();
  let hits = 0;
  const server: Server = createServer((req, res) => {
    req.resume();
    req.on("end", () => {
      hits++;
      open.add(res);
      res.writeHead(200, { "content-type": "text/plain" });
      res.write(".");
      let left = 30;
      const drip = setInterval(() => {
        if (--left === 0) res.end(".");
        else res.write(".");
      }, 2_000);
      res.on("close", () => {
        clearInterval(drip);
        open.delete(res);
      });
    });
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/slow`,
    hits: () => hits,
    close: () => {
      for (const res of open) res.destroy();
      return new Promise<void>((r) => server.close(() => r()));
    },
  };
}

/** an endpoint that answers at once and tells when a body with `needle` arrived */
async function listener() {
  const arrivals: { raw: string; at: number }[] = [];
  const server: Server = createServer((req, res) => {
    let raw = "";
    req.on("data", (c) => {
      raw += c;
    });
    req.on("end", () => {
      arrivals.push({ raw, at: Date.now() });
      res.writeHead(200).end("ok");
    });
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/fast`,
    arrivalOf: (needle: string) => arrivals.find((a) => a.raw.includes(needle)),
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}

/** the job runner's every(): non-overlapping runs, here every 50 ms so the test is quick */
function ticker() {
  const timers: NodeJS.Timeout[] = [];
  return {
    every(_ms: number, task: () => Promise<void>) {
      let busy = false;
      timers.push(
        setInterval(() => {
          if (busy) return;
          busy = true;
          void task()
            .catch(() => {})
            .finally(() => {
              busy = false;
            });
        }, 50),
      );
    },
    stop: () => {
      for (const t of timers) clearInterval(t);
    },
  };
}

describe(`a slow callback endpoint (${testDriver})`, () => {
  let h: H2hHarness;
  beforeAll(async () => {
    h = await bootH2h();
  });
  afterAll(() => h.stop());

  it("holds only its own slot: another reseller's callback arrives while it drips, and its attempt fails at the deadline and is retried", async () => {
    const slow = await dripper();
    const fast = await listener();
    const deadlineMs = 20_000;
    const deps: CallbackDeps = {
      db: h.deps.db,
      box: h.box,
      clock: h.clock,
      logger: h.deps.logger,
      policy: { allowLoopbackHttp: true },
      timeoutMs: deadlineMs,
    };
    const a = await h.reseller(100_000);
    const b = await h.reseller(100_000);
    await updateKeySettings(h.deps.db, a.userId, { callbackUrl: slow.url });
    await updateKeySettings(h.deps.db, b.userId, { callbackUrl: fast.url });
    const jobs = ticker();
    registerH2hCallbacks(jobs, deps);
    try {
      const placedA = await h
        .client(a)
        .order({ cmd: "prepaid", code: "TSEL10", customerNo: phone(), refId: "slow-a" });
      expect(placedA).toMatchObject({ transaction: { status: "success" } });
      // A's delivery is in flight, dripping
      await vi.waitFor(() => expect(slow.hits()).toBe(1), { timeout: 60_000, interval: 50 });

      const placedB = await h
        .client(b)
        .order({ cmd: "prepaid", code: "TSEL10", customerNo: phone(), refId: "fast-b" });
      expect(placedB).toMatchObject({ transaction: { status: "success" } });
      const finalAt = Date.now();
      const arrived = await vi.waitFor(
        () => {
          const found = fast.arrivalOf('"fast-b"');
          expect(found).toBeDefined();
          return found!;
        },
        { timeout: deadlineMs + 40_000, interval: 50 },
      );
      // B did not wait for A: A's attempt was still in flight when B's callback came
      expect((await callbackOf(h.deps.db, a.userId, "slow-a"))?.attempts).toBe(0);
      expect(arrived.at - finalAt).toBeLessThan(deadlineMs / 2);

      // A's attempt ends at its deadline (not when the drip does): failed, logged, retried
      const failed = await vi.waitFor(
        async () => {
          const row = await callbackOf(h.deps.db, a.userId, "slow-a");
          expect(row?.attempts).toBe(1);
          return row!;
        },
        { timeout: deadlineMs + 40_000, interval: 100 },
      );
      expect(failed).toMatchObject({
        status: "pending",
        lastError: expect.stringMatching(/TIMEOUT/),
      });
      h.clock.advance(10_000);
      await vi.waitFor(() => expect(slow.hits()).toBe(2), { timeout: 60_000, interval: 50 });
      await slow.close();
      await vi.waitFor(
        async () => expect((await callbackOf(h.deps.db, a.userId, "slow-a"))?.attempts).toBe(2),
        { timeout: 60_000, interval: 100 },
      );
    } finally {
      jobs.stop();
      await slow.close();
      await fast.close();
    }
  }, 180_000);
});
