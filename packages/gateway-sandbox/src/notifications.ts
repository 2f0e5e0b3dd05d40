import type { Clock } from "@kios/kit";
import type { Logger } from "pino";
import { notificationBody } from "./midtrans-wire.ts";
import type { Charge, GatewayFaults, SentNotification } from "./types.ts";

// POSTs the HTTP notification of a charge's new status to the merchant's URL, retried on
// anything but a 2xx, in the background. The faults make it lost, doubled, late or forged.

export interface NotificationSender {
  notify(charge: Charge): void;
  /** the last notification of this charge, again, as sent (a replay) */
  resend(orderId: string): void;
  readonly sent: SentNotification[];
  setUrl(url: string | undefined): void;
  /** resolves when every delivery under way is done */
  idle(): Promise<void>;
  close(): void;
}

const FORGED_KEY = "not-the-merchant-server-key";

export function createNotificationSender(deps: {
  serverKey: string;
  merchantId: string;
  url: string | undefined;
  clock: Clock;
  logger: Logger;
  faults: () => GatewayFaults;
  retryDelaysMs: readonly number[];
}): NotificationSender {
  let url = deps.url;
  const sent: SentNotification[] = [];
  const last = new Map<string, Record<string, unknown>>();
  const inFlight = new Set<Promise<void>>();
  const timers = new Set<NodeJS.Timeout>();
  const aborter = new AbortController();
  const sleep = (ms: number) =>
    new Promise<void>((resolve) => {
      if (ms <= 0) return resolve();
      const timer = setTimeout(() => {
        timers.delete(timer);
        resolve();
      }, ms);
      timers.add(timer);
    });

  async function post(target: string, orderId: string, body: Record<string, unknown>) {
    for (let attempt = 0; ; attempt++) {
      let status = 0;
      try {
        const res = await fetch(target, {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify(body),
          signal: AbortSignal.any([aborter.signal, AbortSignal.timeout(5_000)]),
        });
        status = res.status;
        await res.body?.cancel();
      } catch {
        if (aborter.signal.aborted) return;
      }
      sent.push({ orderId, body, status });
      if (status >= 200 && status < 300) return;
      const delay = deps.retryDelaysMs[attempt];
      if (delay === undefined) {
        deps.logger.warn({ orderId, status }, "notification not accepted; giving up");
        return;
      }
      await sleep(delay);
    }
  }

  function deliver(orderId: string, body: Record<string, unknown>, times: number) {
    const target = url;
    if (!target) return;
    const f = deps.faults();
    const job = (async () => {
      await sleep(f.lateNotificationMs);
      for (let i = 0; i < times; i++) await post(target, orderId, body);
    })();
    inFlight.add(job);
    void job.finally(() => inFlight.delete(job));
  }

  return {
    sent,
    notify(charge) {
      const f = deps.faults();
      const body = notificationBody(
        charge,
        deps.merchantId,
        f.forgeNotifications ? FORGED_KEY : deps.serverKey,
      );
      last.set(charge.orderId, body);
      if (f.dropNotifications) return;
      deliver(charge.orderId, body, f.duplicateNotifications ? 2 : 1);
    },
    resend(orderId) {
      const body = last.get(orderId);
      if (body) deliver(orderId, body, 1);
    },
    setUrl(next) {
      url = next;
    },
    async idle() {
      while (inFlight.size > 0) await Promise.allSettled([...inFlight]);
    },
    close() {
      aborter.abort();
      for (const t of timers) clearTimeout(t);
      timers.clear();
    },
  };
}
