import { BotError } from "grammy";
import type { KiosBot } from "../context.ts";
import { StateConflictError } from "../storage/chat-state.ts";
import { type PendingStateWrite, preload } from "../storage/preload.ts";
import type { ClaimedUpdate } from "../storage/updates.ts";
import type { UpdateOutcome } from "./drain.ts";

/**
 * runs one update through the bot for the inbox, unless the chat's state shows it already
 * ran (a worker died between writing the state and marking the update handled). A conflict on the chat's flow state means
 * another process handled something of this chat meanwhile: the update is tried again on
 * top of it. Any other failure is the bot's to report (the user hears it) and the update
 * counts as handled: running a failing handler again would fail again.
 */
export function updateHandler(
  bot: KiosBot,
  o: {
    /**
     * the chat's state write is handed back with the outcome, for the drain to write in the
     * update's finish (one statement for both); otherwise it is written as the bot ends
     */
    stateWithFinish?: boolean;
  } = {},
): (claimed: ClaimedUpdate) => Promise<UpdateOutcome> {
  return async ({ update, preloaded, applied }) => {
    // run before, up to its state write, by a worker that died before marking it handled:
    // what it answered stands, and running it on the state it left would contradict it
    if (applied) return { kind: "handled" };
    const sink: { write?: PendingStateWrite } = {};
    preload(update, o.stateWithFinish ? { ...preloaded, stateSink: sink } : preloaded);
    const state = () => (sink.write ? { state: sink.write } : {});
    try {
      await bot.handleUpdate(update);
      return { kind: "handled", ...state() };
    } catch (err) {
      if (!(err instanceof BotError)) throw err;
      const cause: unknown = err.error;
      if (cause instanceof StateConflictError) return { kind: "retry", error: cause.message };
      await bot.errorHandler(err);
      return {
        kind: "handled",
        error: cause instanceof Error ? cause.message : String(cause),
        ...state(),
      };
    }
  };
}
