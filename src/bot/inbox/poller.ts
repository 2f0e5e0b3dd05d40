import { type Api, GrammyError } from "grammy";
import type { Database } from "../../db/client.ts";
import type { Lease, Leases } from "../../jobs/lease.ts";
import type { Logger } from "../../logger.ts";
import { botIdOfToken, storeUpdates } from "../storage/updates.ts";

// long polling into the inbox. One process polls at a time, whichever holds the poller's
// lease (a PostgreSQL advisory lock, gone with its process): the others try for it every
// few seconds and one takes over when the poller dies. getUpdates' offset moves past a
// batch only after the batch is stored, so a crash between the two loses nothing: the next
// poller is given the same updates again and the inbox ignores the ones it has.

export const ALLOWED_UPDATES = [
  "message",
  "edited_message",
  "callback_query",
  "my_chat_member",
  // inline mode (bot/inline/): "@bot words" in any chat
  "inline_query",
] as const;

const POLLER_LEASE = "telegram-poller";

export interface PollerOptions {
  api: Api;
  db: Database;
  leases: Leases;
  logger: Logger;
  /** long-poll timeout in seconds; tests use a short one so they stop quickly */
  timeoutSeconds?: number;
  /** how often a process that is not the poller tries to become it */
  electionMs?: number;
}

export interface Poller {
  /** true while this process is the one polling */
  readonly polling: boolean;
  /**
   * resolves once this process has asked for the updates waiting at its start and stored
   * them (the first getUpdates, which does not wait for new ones), or that ask failed, or
   * the poller stopped. A process that is not the poller never resolves it.
   */
  firstPoll(): Promise<void>;
  start(): void;
  stop(): Promise<void>;
}

// grammY types its signal parameter with the abort-controller shim's AbortSignal, which
// Node's own satisfies at run time
type ApiSignal = Parameters<Api["getUpdates"]>[1];
const signalFor = (c: AbortController) => c.signal as unknown as ApiSignal;

export function createPoller(o: PollerOptions): Poller {
  const log = o.logger.child({ component: "poller" });
  const botId = botIdOfToken(o.api.token);
  const electionMs = o.electionMs ?? 2000;
  let stopped = true;
  let polling = false;
  let abort = new AbortController();
  let loop: Promise<void> | undefined;
  let firstPolled!: () => void;
  const firstPoll = new Promise<void>((resolve) => {
    firstPolled = resolve;
  });

  // a wait that ends by its timer lets go of the signal: a process that is not the poller
  // waits here every electionMs for as long as it runs
  const pause = (ms: number) =>
    new Promise<void>((resolve) => {
      const signal = abort.signal;
      const woken = () => {
        clearTimeout(timer);
        resolve();
      };
      const timer = setTimeout(() => {
        signal.removeEventListener("abort", woken);
        resolve();
      }, ms);
      signal.addEventListener("abort", woken, { once: true });
    });

  async function pollAsLeader(lease: Lease): Promise<void> {
    // a lost lease means another process may poll now: this one stops, and stands again
    const lost = () => {
      log.warn({ err: lease.signal.reason }, "lost the poller's lease: stopping polling");
      abort.abort();
    };
    lease.signal.addEventListener("abort", lost, { once: true });
    polling = true;
    log.debug("polling Telegram for updates");
    try {
      // a webhook left set makes getUpdates fail with 409
      await o.api.deleteWebhook(undefined, signalFor(abort));
      let offset: number | undefined;
      let failures = 0;
      // the first ask takes what is waiting without waiting for more: the start goes on
      // with its own work once those are answered (create-app.ts)
      let first = true;
      while (!stopped && !lease.signal.aborted) {
        try {
          const updates = await o.api.getUpdates(
            {
              offset,
              timeout: first ? 0 : (o.timeoutSeconds ?? 30),
              limit: 100,
              allowed_updates: [...ALLOWED_UPDATES],
            },
            signalFor(abort),
          );
          if (updates.length > 0) {
            await storeUpdates(o.db, botId, updates);
            offset = updates[updates.length - 1]!.update_id + 1;
          }
          failures = 0;
          first = false;
          firstPolled();
        } catch (err) {
          if (stopped || lease.signal.aborted) return;
          failures += 1;
          firstPolled();
          // 409: another getUpdates or a webhook; a network error: Telegram is unreachable
          const conflict = err instanceof GrammyError && err.error_code === 409;
          log.warn({ err, failures }, conflict ? "getUpdates conflict" : "getUpdates failed");
          if (conflict && failures >= 3) return; // give the lease up; try again later
          await pause(Math.min(30_000, 1000 * 2 ** Math.min(failures - 1, 5)));
        }
      }
    } finally {
      polling = false;
      lease.signal.removeEventListener("abort", lost);
      // the abort was this lease's only: the next term gets a fresh controller
      if (lease.signal.aborted && !stopped) abort = new AbortController();
    }
  }

  async function run(): Promise<void> {
    while (!stopped) {
      try {
        // not held: another process polls. Either way, (again) in a moment
        await o.leases.hold([POLLER_LEASE], pollAsLeader);
        if (!stopped) await pause(electionMs);
      } catch (err) {
        if (stopped) return;
        log.error({ err }, "the poller failed");
        await pause(electionMs);
      }
    }
  }

  return {
    get polling() {
      return polling;
    },
    firstPoll: () => firstPoll,
    start() {
      if (!stopped) return;
      stopped = false;
      abort = new AbortController();
      loop = run();
    },
    async stop() {
      if (stopped) return;
      stopped = true;
      abort.abort();
      firstPolled();
      await loop;
    },
  };
}
