import type { Clock } from "../../clock.ts";
import type { Database } from "../../db/client.ts";
import type { Logger } from "../../logger.ts";
import { claimNotifications, type Deliver, markFailed, markSent } from "./outbox.ts";
import type { SendLimiter } from "./rate-limit.ts";

export interface DeliveryDeps {
  db: Database;
  deliver: Deliver;
  limiter: SendLimiter;
  clock: Clock;
  logger: Logger;
  onDelivered?(result: "sent" | "gone" | "failed"): void;
}

/** delivers everything due in the outbox, oldest first; returns how many were handled. */
export async function deliverDue(deps: DeliveryDeps, maxRounds = 20): Promise<number> {
  const log = deps.logger.child({ component: "notify" });
  const count = deps.onDelivered ?? (() => {});
  let handled = 0;
  for (let round = 0; round < maxRounds; round++) {
    const batch = await claimNotifications(deps.db, new Date(deps.clock.now()));
    if (batch.length === 0) break;
    for (const n of batch) {
      await deps.limiter.wait(n.chatId);
      try {
        const result = await deps.deliver(n);
        if (result === "sent") await markSent(deps.db, n.id, new Date(deps.clock.now()));
        else await markFailed(deps.db, n, "chat unreachable", new Date(deps.clock.now()), true);
        count(result);
      } catch (err) {
        log.warn({ err, notification: n.key }, "delivery failed; will retry");
        await markFailed(deps.db, n, (err as Error).message, new Date(deps.clock.now()), false);
        count("failed");
      }
      handled += 1;
    }
  }
  return handled;
}
