// the supplier sandbox in a process of its own: a bench that runs kios in its own process
// measures kios's event loop, not the supplier's too (a real supplier is another machine).
// The process answers "settle" (every pending order final now) and "close" over IPC.

import { fork } from "node:child_process";
import { fileURLToPath } from "node:url";
import { startSandbox } from "@kios/supplier-sandbox";

interface SandboxProcessOptions {
  settleDelayMs: number;
  rateLimitPerSecond: number;
}

export interface SandboxProcess {
  url: string;
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
    settleNow: () => ask("settle"),
    async close() {
      await ask("close");
      child.disconnect();
    },
  };
}

if (process.send && process.argv[2]) {
  const send = process.send.bind(process);
  const options = JSON.parse(process.argv[2]) as SandboxProcessOptions;
  const sandbox = await startSandbox({ port: 0, ...options });
  process.on("message", async (what: string) => {
    if (what === "settle") await sandbox.settleNow();
    if (what === "close") await sandbox.close();
    send("done");
  });
  send(sandbox.url);
}
