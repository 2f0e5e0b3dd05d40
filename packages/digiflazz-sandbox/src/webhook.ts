import { hubSignature } from "./sign.ts";

// posts a transaction's news to the buyer's webhook as Digiflazz does: { data: {…} }, with
// X-Digiflazz-Event, its User-Agent and, when a secret is set, X-Hub-Signature (HMAC-SHA1 of
// the raw body). No retry policy is documented; the sandbox tries once.

interface WebhookTarget {
  url: string;
  /** the webhook's secret as set in the panel; undefined: no signature header */
  secret: string | undefined;
}

export interface WebhookSender {
  send(
    target: WebhookTarget,
    event: "create" | "update",
    data: Record<string, unknown>,
    postpaid: boolean,
    forged?: boolean,
  ): void;
  /** every delivery under way */
  idle(): Promise<void>;
  /** bodies sent, for tests: raw body and whether the shop answered 2xx */
  readonly sent: { rawBody: string; ok: boolean }[];
}

export function createWebhookSender(timeoutMs = 5000): WebhookSender {
  const inFlight = new Set<Promise<void>>();
  const sent: { rawBody: string; ok: boolean }[] = [];
  return {
    sent,
    send(target, event, data, postpaid, forged = false) {
      const rawBody = JSON.stringify({ data });
      const headers: Record<string, string> = {
        "content-type": "application/json",
        "user-agent": postpaid ? "Digiflazz-Pasca-Hookshot" : "Digiflazz-Hookshot",
        "x-digiflazz-event": event,
      };
      if (target.secret !== undefined) {
        headers["x-hub-signature"] = hubSignature(
          forged ? "not-the-secret" : target.secret,
          rawBody,
        );
      }
      const delivery = fetch(target.url, {
        method: "POST",
        headers,
        body: rawBody,
        signal: AbortSignal.timeout(timeoutMs),
      })
        .then(async (res) => {
          await res.arrayBuffer().catch(() => undefined);
          sent.push({ rawBody, ok: res.ok });
        })
        .catch(() => {
          sent.push({ rawBody, ok: false });
        });
      inFlight.add(delivery);
      void delivery.finally(() => inFlight.delete(delivery));
    },
    async idle() {
      while (inFlight.size > 0) await Promise.all([...inFlight]);
    },
  };
}
