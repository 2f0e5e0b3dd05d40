import type { Clock } from "@kios/kit";
import { CALLBACK_SIGNATURE_HEADER, CALLBACK_TIMESTAMP_HEADER, signCallback } from "@kios/kit";
import type { Logger } from "pino";
import type { Delays } from "./delays.ts";
import { unixSeconds } from "./time.ts";

// posts { event, data } to the shop's callback URL, signed with the secret of the key that
// placed the transaction; retries with backoff and gives up quietly (it is only evidence).

export const CALLBACK_EVENT = "transaction.final";

/** one callback to deliver: its data, and how it is (mis)signed */
export interface ReportPayload {
  data: Record<string, unknown>;
  /** signed with a key the shop does not know */
  forged?: boolean;
  /** added to the signed timestamp (negative: an old, replayed callback) */
  timestampOffsetMs?: number;
}

/** a secret no account has: what a forger signs with */
const FORGER_SECRET = "not-the-shop-secret";

export interface ReportSender {
  /** delivers the payloads one after another, in the background; resolves with how many got a 2xx */
  deliver(
    url: string,
    secretKey: string,
    payloads: ReportPayload[],
    refId: string,
  ): Promise<number>;
  /** waits for every delivery under way */
  idle(): Promise<void>;
  /** aborts deliveries under way */
  close(): void;
}

export interface ReportSenderDeps {
  clock: Clock;
  logger: Logger;
  delays: Delays;
  retryDelaysMs: readonly number[];
  timeoutMs: number;
}

export function createReportSender(deps: ReportSenderDeps): ReportSender {
  const inFlight = new Set<Promise<unknown>>();
  const aborter = new AbortController();

  async function attempt(
    url: string,
    secretKey: string,
    rawBody: string,
    offsetMs: number,
  ): Promise<boolean> {
    const timestamp = unixSeconds(deps.clock.now() + offsetMs);
    try {
      const res = await fetch(url, {
        method: "POST",
        headers: {
          "content-type": "application/json",
          "user-agent": "kios-sandbox",
          [CALLBACK_TIMESTAMP_HEADER]: String(timestamp),
          [CALLBACK_SIGNATURE_HEADER]: signCallback(secretKey, timestamp, rawBody),
        },
        body: rawBody,
        signal: AbortSignal.any([aborter.signal, AbortSignal.timeout(deps.timeoutMs)]),
      });
      await res.arrayBuffer().catch(() => undefined);
      return res.ok;
    } catch {
      return false;
    }
  }

  async function deliverOne(url: string, secretKey: string, p: ReportPayload, refId: string) {
    const rawBody = JSON.stringify({ event: CALLBACK_EVENT, data: p.data });
    const secret = p.forged ? FORGER_SECRET : secretKey;
    const waits = [0, ...deps.retryDelaysMs];
    for (let i = 0; i < waits.length; i++) {
      await deps.delays.sleep(waits[i] ?? 0);
      if (aborter.signal.aborted) return false;
      if (await attempt(url, secret, rawBody, p.timestampOffsetMs ?? 0)) return true;
      deps.logger.debug({ refId, attempt: i + 1 }, "callback delivery failed");
    }
    deps.logger.warn({ refId, attempts: waits.length }, "callback not delivered; giving up");
    return false;
  }

  return {
    deliver(url, secretKey, payloads, refId) {
      const run = (async () => {
        let delivered = 0;
        for (const p of payloads) if (await deliverOne(url, secretKey, p, refId)) delivered += 1;
        return delivered;
      })();
      inFlight.add(run);
      void run.finally(() => inFlight.delete(run));
      return run;
    },
    async idle() {
      while (inFlight.size > 0) await Promise.allSettled([...inFlight]);
    },
    close() {
      aborter.abort();
    },
  };
}
