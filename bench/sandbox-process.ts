// the supplier sandbox in a process of its own: a bench that runs kios in its own process
// measures kios's event loop, not the supplier's too (a real supplier is another machine).
// The process answers "settle" (every pending order final now) and "close" over IPC.

import { fork } from "node:child_process";
import { fileURLToPath } from "node:url";
import { listen } from "@kios/kit";
import { createSandbox, startSandbox } from "@kios/supplier-sandbox";
import { Hono } from "hono";

interface SandboxProcessOptions {
  settleDelayMs: number;
  rateLimitPerSecond: number;
  /** every answer leaves this long after its request came (a supplier across a network); 0: at once */
  replyDelayMs?: number;
  /** the account's balance (default the sandbox's) */
  balance?: number;
}

export interface SandboxProcess {
  url: string;
  pid: number | undefined;
  settleNow(): Promise<void>;
  close(): Promise<void>;
}

export async function startSandboxProcess(options: SandboxProcessOptions): Promise<SandboxProcess> {
  const child = fork(fileURLToPath(import.meta.url), [JSON.stringify(options)], {
    execArgv: ["--import", "tsx"],
    stdio: ["ignore", "inherit", "inherit", "ipc"],
  });
  const replies: ((value: unknown) => void)[] = [];
  child.on("message", (m) => replies.shift()?.(m));
  const next = () => new Promise((r) => replies.push(r));
  const url = (await next()) as string;
  const ask = async (what: string) => {
    const reply = next();
    child.send(what);
    await reply;
  };
  return {
    url,
    pid: child.pid,
    settleNow: () => ask("settle"),
    async close() {
      await ask("close");
      child.disconnect();
    },
  };
}

if (process.send && process.argv[2]) {
  const send = process.send.bind(process);
  const {
    replyDelayMs = 0,
    balance,
    ...options
  } = JSON.parse(process.argv[2]) as SandboxProcessOptions;
  if (replyDelayMs > 0) {
    // the sandbox's app behind a front that holds each answer back
    const sandbox = createSandbox(options);
    if (balance !== undefined) sandbox.account().setBalance(balance);
    const front = new Hono();
    front.use("*", async (_c, next) => {
      await new Promise((r) => setTimeout(r, replyDelayMs));
      await next();
    });
    front.route("/", sandbox.app);
    const running = await listen(front, 0, "127.0.0.1", { keepIdleConnections: true });
    process.on("message", async (what: string) => {
      if (what === "settle") await sandbox.settleNow();
      if (what === "close") {
        await sandbox.close();
        await running.close();
      }
      send("done");
    });
    send(`http://127.0.0.1:${running.port}/v1`);
  } else {
    const sandbox = await startSandbox({ port: 0, ...options });
    if (balance !== undefined) sandbox.account().setBalance(balance);
    process.on("message", async (what: string) => {
      if (what === "settle") await sandbox.settleNow();
      if (what === "close") await sandbox.close();
      send("done");
    });
    send(sandbox.url);
  }
}
