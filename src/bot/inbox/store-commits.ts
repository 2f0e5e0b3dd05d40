import type { Update } from "grammy/types";
import type { Executor } from "../../db/client.ts";
import { isRefusedData } from "../../db/errors.ts";
import type { Logger } from "../../logger.ts";
import {
  chatIdOf,
  type StoredUpdate,
  storeAndClaimUpdates,
  storeUpdates,
} from "../storage/updates.ts";
import type { InboxDrain } from "./drain.ts";

/** the most updates one statement stores */
export const MAX_UPDATES_PER_COMMIT = 64;

export interface StoreCommitsOptions {
  db: Executor;
  botId: number;
  logger?: Logger | undefined;
  /** this process's drain: updates are stored claimed for it while it has room */
  inbox?: Pick<InboxDrain, "intake" | "adopt"> | undefined;
}

export interface StoreCommits {
  /** resolves once the update is durable: true when it was new, false for a redelivery */
  store(update: Update): Promise<boolean>;
}

interface Waiting {
  update: Update;
  chat: number;
  resolve(fresh: boolean): void;
  reject(err: unknown): void;
}

/**
 * the webhook's group commit. Telegram holds each delivery until its POST is answered, so
 * the answer waits for the update's commit; but deliveries that arrive while a store is in
 * flight need not each wait for a statement of their own: they go together into the next
 * one. On the embedded database, which runs one statement at a time, this is what keeps a
 * burst (every user's first POST at once) from being answered one store after another.
 *
 * A chat's deliveries keep their order: statements run one at a time and each takes at
 * most one update of a chat (the oldest waiting), so the second of two waits for the first's
 * commit, and the first is the one claimed when the chat is free.
 */
export function createStoreCommits(o: StoreCommitsOptions): StoreCommits {
  const log = o.logger?.child({ component: "webhook" });
  const queue: Waiting[] = [];
  let storing = false;
  let scheduled = false;

  // the next statement is sent from the loop's check phase, once every delivery that came
  // in the same poll (their bodies read) has joined the queue: the embedded database runs a
  // statement within the microtasks of the POST that sent it, so a store "in flight" alone
  // would never have company there
  function schedule(): void {
    if (scheduled) return;
    scheduled = true;
    setImmediate(() => {
      scheduled = false;
      pump();
    });
  }

  /** the oldest waiting update of each chat, in arrival order */
  function nextBatch(): Waiting[] {
    const batch: Waiting[] = [];
    const chats = new Set<number>();
    const rest: Waiting[] = [];
    for (const w of queue) {
      if (batch.length < MAX_UPDATES_PER_COMMIT && !chats.has(w.chat)) {
        chats.add(w.chat);
        batch.push(w);
      } else {
        rest.push(w);
      }
    }
    // not splice(…, ...rest): a spread of a long queue overflows the call's arguments
    queue.length = 0;
    for (const w of rest) queue.push(w);
    return batch;
  }

  function pump(): void {
    if (storing || queue.length === 0) return;
    storing = true;
    void commitSettling(nextBatch()).finally(() => {
      storing = false;
      schedule();
    });
  }

  async function commit(batch: readonly Waiting[]): Promise<StoredUpdate[]> {
    const updates = batch.map((w) => w.update);
    const intake = o.inbox?.intake();
    if (!o.inbox || !intake) {
      const fresh = new Set(await storeUpdates(o.db, o.botId, updates));
      return updates.map((u) => ({ fresh: fresh.has(u.update_id), claimed: undefined }));
    }
    const stored = await storeAndClaimUpdates(o.db, {
      botId: o.botId,
      updates,
      worker: intake.worker,
      leaseMs: intake.leaseMs,
      claimable: intake.room,
    });
    for (const s of stored) if (s.claimed) o.inbox.adopt(s.claimed);
    return stored;
  }

  async function commitSettling(batch: readonly Waiting[]): Promise<void> {
    try {
      const stored = await commit(batch);
      for (const [i, w] of batch.entries()) w.resolve(stored[i]!.fresh);
    } catch (err) {
      // one update the database refuses must not fail the others' deliveries (Telegram
      // would send them all again, into the same batch): each is stored on its own. A
      // database that is away fails them all at once: one by one, each would wait its own
      // timeout, every chat's deliveries behind them
      if (batch.length === 1 || !isRefusedData(err)) {
        for (const w of batch) w.reject(err);
        return;
      }
      log?.warn({ err, updates: batch.length }, "a group store was refused; storing one by one");
      for (const w of batch) await commitSettling([w]);
    }
  }

  return {
    store(update) {
      return new Promise<boolean>((resolve, reject) => {
        queue.push({ update, chat: chatIdOf(update), resolve, reject });
        schedule();
      });
    },
  };
}
