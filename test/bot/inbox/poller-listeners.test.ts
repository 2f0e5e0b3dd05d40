import { Api } from "grammy";
import { afterEach, describe, expect, it } from "vitest";
import { createPoller, type Poller } from "../../../src/bot/inbox/poller.ts";
import type { Database } from "../../../src/db/client.ts";
import type { Leases } from "../../../src/jobs/lease.ts";
import { createLogger } from "../../../src/logger.ts";

// a process that is not the poller stands again every electionMs for as long as it runs (a
// web process beside the worker: for days). Each wait between tries listened on the poller's
// one abort signal and never let go when the wait ended by its timer: after eleven tries Node
// warned of a leak, and the listeners grew with the process's age.

describe("a poller that is not elected", () => {
  let poller: Poller | undefined;
  const warnings: string[] = [];
  const onWarning = (w: Error) => warnings.push(`${w.name}: ${w.message}`);
  afterEach(async () => {
    process.off("warning", onWarning);
    await poller?.stop();
  });

  it("keeps no listener from its earlier tries (no MaxListeners warning after 30 of them)", async () => {
    process.on("warning", onWarning);
    let tries = 0;
    let thirty: () => void = () => {};
    const reached = new Promise<void>((resolve) => {
      thirty = resolve;
    });
    // another process holds the poller's lease: every try comes back not held
    const leases: Leases = {
      async hold() {
        tries += 1;
        if (tries === 30) thirty();
        return { held: false };
      },
      async free() {
        return new Set();
      },
      async close() {},
    };
    poller = createPoller({
      api: new Api("123:never-called"),
      db: {} as Database, // never reached: this poller is never elected
      leases,
      logger: createLogger({ level: "silent" }),
      electionMs: 1,
    });
    poller.start();
    await reached;
    // a warning is emitted on the next turn of the loop
    await new Promise((resolve) => setImmediate(resolve));
    expect(poller.polling).toBe(false);
    expect(warnings.filter((w) => w.includes("MaxListenersExceeded"))).toEqual([]);
  });
});
