import type { DatabaseHandle } from "../../db/client.ts";
import type { Leases } from "../../jobs/lease.ts";
import type { Logger } from "../../logger.ts";
import type { KiosBot } from "../context.ts";
import { createInboxDrain, type InboxDrain, type InboxDrainOptions } from "./drain.ts";
import { updateHandler } from "./handle.ts";
import { createPoller, type Poller } from "./poller.ts";

/** a worker's side of the inbox: the drain, and the poller when the bot polls */
export interface UpdatePipeline {
  readonly drain: InboxDrain;
  readonly poller: Poller | undefined;
  /** resolves once the updates waiting at the start are answered (see the drain's settled) */
  caughtUp(): Promise<void>;
  start(): Promise<void>;
  stop(): Promise<void>;
}

export function createUpdatePipeline(o: {
  bot: KiosBot;
  database: DatabaseHandle;
  leases: Leases;
  logger: Logger;
  concurrency: number;
  /** poll Telegram (polling mode); otherwise updates arrive through the webhook */
  poll: boolean;
  pollingTimeoutSeconds?: number | undefined;
  onResult?: InboxDrainOptions["onResult"];
}): UpdatePipeline {
  const drain = createInboxDrain({
    database: o.database,
    leases: o.leases,
    handle: updateHandler(o.bot, { stateWithFinish: true }),
    concurrency: o.concurrency,
    logger: o.logger,
    onResult: o.onResult,
  });
  const poller = o.poll
    ? createPoller({
        api: o.bot.api,
        db: o.database.db,
        leases: o.leases,
        logger: o.logger,
        timeoutSeconds: o.pollingTimeoutSeconds,
      })
    : undefined;
  return {
    drain,
    poller,
    async caughtUp() {
      // polling: first what Telegram held for the bot is in the inbox, then the inbox is done
      await poller?.firstPoll();
      await drain.settled();
    },
    async start() {
      await o.bot.init();
      await drain.start();
      poller?.start();
    },
    async stop() {
      await poller?.stop();
      await drain.stop();
    },
  };
}
