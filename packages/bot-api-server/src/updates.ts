import type { Update } from "@grammyjs/types";
import { createNotifier, type Notifier } from "./notifier.ts";

export type UpdateType = Exclude<keyof Update, "update_id">;
export type UpdatePayload = Omit<Update, "update_id">;

// what an empty or missing allowed_updates means, per the Bot API docs
const OFF_BY_DEFAULT = new Set<string>([
  "chat_member",
  "message_reaction",
  "message_reaction_count",
]);

export interface UpdateQueue {
  /** stamps the next update_id and queues it, unless allowed_updates filters it out */
  push(payload: UpdatePayload): Update | undefined;
  /** getUpdates' offset: confirms updates below it; negative keeps only the last -offset */
  confirm(offset: number): void;
  peek(limit: number): Update[];
  /** removes the oldest update once it was delivered to the webhook */
  shift(): Update | undefined;
  size(): number;
  clear(): void;
  /** the stored allowed_updates; undefined means the default set */
  allowed(): UpdateType[] | undefined;
  setAllowed(types: UpdateType[] | undefined): void;
  /** wakes long polls and the webhook loop whenever an update arrives */
  readonly notifier: Notifier;
}

function typeOf(update: UpdatePayload): string | undefined {
  return Object.keys(update).find((k) => k !== "update_id");
}

/**
 * update_ids come from `nextId`, which the caller keeps across resets so a running bot's
 * confirmed offset never hides new updates.
 */
export function createUpdateQueue(nextId: () => number): UpdateQueue {
  let items: Update[] = [];
  let allowed: UpdateType[] | undefined;
  const notifier = createNotifier();

  const isAllowed = (type: string | undefined) => {
    if (type === undefined) return false;
    if (allowed === undefined || allowed.length === 0) return !OFF_BY_DEFAULT.has(type);
    return (allowed as string[]).includes(type);
  };

  return {
    notifier,
    push(payload) {
      if (!isAllowed(typeOf(payload))) return undefined;
      const update = { update_id: nextId(), ...payload } as Update;
      items.push(update);
      notifier.notify();
      return update;
    },
    confirm(offset) {
      if (offset < 0) items = items.slice(Math.max(0, items.length + offset));
      else if (offset > 0) items = items.filter((u) => u.update_id >= offset);
    },
    peek: (limit) => items.slice(0, limit),
    shift: () => items.shift(),
    size: () => items.length,
    clear() {
      items = [];
    },
    allowed: () => allowed,
    setAllowed(types) {
      allowed = types;
    },
  };
}
