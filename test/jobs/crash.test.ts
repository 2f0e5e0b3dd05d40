import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { createServer, request, type Server } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createInterface } from "node:readline";
import {
  DEFAULT_SANDBOX_CREDENTIALS,
  type RunningSandbox,
  startSandbox,
} from "@kios/supplier-sandbox";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase, type TestDatabase, testDriver } from "../helpers/db.ts";

// issue 10: a crash never stalls the pipelines. A kios process is SIGKILLed while it holds
// a notification send, an order's status check and a supplier callback (the supplier's
// status endpoint hangs for it, and so does its bot); the next process must
// finish all three within seconds, not after pg-boss's 15-minute expiry.

const CHILD = join(import.meta.dirname, "crash-child.ts");
type Event = Record<string, unknown> & { event: string };

interface Child {
  proc: ChildProcess;
  next(event: string, ms: number): Promise<Event>;
  stderr(): string;
}

function startChild(env: Record<string, string>): Child {
  const proc = spawn(process.execPath, ["--import", "tsx", CHILD], {
    env: { PATH: process.env.PATH, ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  const seen: Event[] = [];
  const waiting: { event: string; resolve: (e: Event) => void }[] = [];
  let err = "";
  proc.stderr!.on("data", (d) => {
    err += String(d);
  });
  createInterface({ input: proc.stdout! }).on("line", (line) => {
    let e: Event;
    try {
      e = JSON.parse(line) as Event;
    } catch {
      return;
    }
    const w = waiting.find((x) => x.event === e.event);
    if (w) {
      waiting.splice(waiting.indexOf(w), 1);
      w.resolve(e);
    } else {
      seen.push(e);
    }
  });
  return {
    proc,
    stderr: () => err,
    next(event, ms) {
      const found = seen.find((e) => e.event === event);
      if (found) {
        seen.splice(seen.indexOf(found), 1);
        return Promise.resolve(found);
      }
      return new Promise((resolve, reject) => {
        const timer = setTimeout(
          () => reject(new Error(`no "${event}" within ${ms} ms; stderr:\n${err.slice(-2000)}`)),
          ms,
        );
        waiting.push({
          event,
          resolve: (e) => {
            clearTimeout(timer);
            resolve(e);
          },
        });
      });
    },
  };
}

/** in front of the sandbox: while `hang` is on, /status requests get no answer at all */
function startProxy(target: number): Promise<{ server: Server; url: string; hang: boolean }> {
  const proxy = { server: undefined as unknown as Server, url: "", hang: true };
  proxy.server = createServer((req, res) => {
    if (proxy.hang && req.url?.endsWith("/status")) return; // held until the socket dies
    const upstream = request(
      { host: "127.0.0.1", port: target, path: req.url, method: req.method, headers: req.headers },
      (up) => {
        res.writeHead(up.statusCode ?? 502, up.headers);
        up.pipe(res);
      },
    );
    upstream.on("error", () => res.destroy());
    req.pipe(upstream);
  });
  return new Promise((resolve) => {
    proxy.server.listen(0, "127.0.0.1", () => {
      const address = proxy.server.address();
      const port = typeof address === "object" && address ? address.port : 0;
      proxy.url = `http://127.0.0.1:${port}/v1`;
      resolve(proxy);
    });
  });
}

describe(`a crash never stalls the pipelines (${testDriver})`, { timeout: 180_000 }, () => {
  let t: TestDatabase | undefined;
  let sandbox: RunningSandbox;
  let proxy: Awaited<ReturnType<typeof startProxy>>;
  let env: Record<string, string>;
  const children: Child[] = [];

  beforeAll(async () => {
    // a PGlite folder is opened by one process at a time: the restart takes it over
    if (testDriver === "postgres") {
      t = await createTestDatabase();
      env = { DATABASE_URL: t.url! };
    } else {
      env = { PGLITE_DIR: join(mkdtempSync(join(tmpdir(), "kios-crash-")), "db") };
    }
    sandbox = await startSandbox({ settleDelayMs: 300 });
    proxy = await startProxy(sandbox.port);
    Object.assign(env, {
      SUPPLIER_BASE_URL: proxy.url,
      SUPPLIER_API_ID: DEFAULT_SANDBOX_CREDENTIALS.apiId,
      SUPPLIER_API_KEY: DEFAULT_SANDBOX_CREDENTIALS.apiKey,
      SUPPLIER_SECRET_KEY: DEFAULT_SANDBOX_CREDENTIALS.secretKey,
    });
  });
  afterAll(async () => {
    for (const c of children) c.proc.kill("SIGKILL");
    proxy?.server.closeAllConnections();
    proxy?.server.close();
    await sandbox?.close();
    await t?.destroy();
  });

  it("a restart finishes the held notification, order check and callback within seconds", async () => {
    const first = startChild({ ...env, KIOS_CHILD: "hang" });
    children.push(first);
    const ready = await first.next("ready", 60_000);
    sandbox.account().setCallbackUrl(`http://127.0.0.1:${ready.port}/supplier/callback`);
    const placed = await first.next("placed", 60_000);
    await first.next("holding", 60_000);

    first.proc.kill("SIGKILL");
    await new Promise((r) => first.proc.once("exit", r));
    const killedAt = Date.now();
    proxy.hang = false;

    const orders = placed.orders as number[];
    const second = startChild({ ...env, KIOS_CHILD: "record", CHILD_ORDERS: orders.join(",") });
    children.push(second);
    await second.next("ready", 60_000);
    const deadline = 30_000; // generous: a loaded 2-core machine, and a restart inside it
    // the orders' results go out too; the one to look at is the send that was cut short
    let delivered = await second.next("delivered", deadline);
    while (delivered.key !== "held") delivered = await second.next("delivered", deadline);
    // it was mid-send when the process died: only the safe mode may repeat it
    expect(delivered).toMatchObject({ key: "held", recovered: true });
    const settled = [
      await second.next("settled", deadline),
      await second.next("settled", deadline),
    ];
    expect(settled.map((e) => e.order).sort()).toEqual([...orders].sort());
    expect(settled.map((e) => e.status)).toEqual(["success", "success"]);
    await second.next("callbacks-processed", deadline);
    const resumedInMs = Date.now() - killedAt;
    console.info(
      `[crash] everything the dead process held was done ${resumedInMs} ms after the kill`,
    );
    expect(resumedInMs).toBeLessThan(60_000);
  });
});
