import type { BotDeps } from "../deps.ts";

/** asks the job runner to deliver queued notifications now (no-op without one) */
export async function kick(deps: BotDeps): Promise<void> {
  try {
    await deps.orders.jobs?.kickNotifications();
  } catch (err) {
    // the notifier's own schedule delivers them a little later
    deps.logger.warn({ err }, "could not kick notification delivery");
  }
}
