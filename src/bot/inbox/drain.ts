import { randomBytes } from "node:crypto";
import { hostname } from "node:os";
import type { DatabaseHandle } from "../../db/client.ts";
import type { Lease, Leases } from "../../jobs/lease.ts";
import { every } from "../../jobs/periodic.ts";
import { Wakeup } from "../../jobs/wakeup.ts";
import type { Logger } from "../../logger.ts";
import type { PendingStateWrite } from "../storage/preload.ts";
import {
  type ClaimedUpdate,
  claimHolders,
  claimUpdates,
  extendClaims,
  finishAndClaimUpdates,
  finishUpdates,
  finishWithState,
  freeClaimsOf,
  retryUpdate,
  type UpdateKey,
} from "../storage/updates.ts";

// a worker's loop over the update inbox: claim the head update of as many chats as it has
// room for, handle them side by side, mark each handled, claim again. Its claims carry its
// id; it holds a lease under that id for as long as it runs, so when its process dies
// (SIGKILL included) the others see the lease free and take its updates back within
// seconds, without waiting for the claims' own expiry.
//
// the id is the lease's generation. A worker whose lease is lost while its process lives
// (its lease connection cut) stops claiming under that id and goes on under a new lease and
// id; the others take back what it held, and what it was still handling commits nothing:
// marking handled and writing the chat's state both require the claim to be the id's.

/** what became of one update */
export type UpdateOutcome =
  | {
      kind: "handled";
      error?: string;
      /** the chat's state write, made in the update's finish (updateHandler's stateWithFinish) */
      state?: PendingStateWrite;
    }
  /** not handled (another process wrote the chat's state meanwhile): try again */
  | { kind: "retry"; error: string };

export interface InboxDrainOptions {
  database: DatabaseHandle;
  leases: Leases;
  /** runs one claimed update (with the rows read along with it) */
  handle(claimed: ClaimedUpdate): Promise<UpdateOutcome>;
  /** chats handled at once by this process */
  concurrency: number;
  logger: Logger;
  /** a claim's lease; renewed while the update is being handled */
  leaseMs?: number;
  /** how often an idle worker looks for work when no notification wakes it */
  idleMs?: number;
  /** how often it looks for dead workers' claims */
  reclaimMs?: number;
  /** called with each update's result, for metrics */
  onResult?(result: "handled" | "failed" | "retried" | "abandoned"): void;
}

export interface InboxDrain {
  /** the id its claims are made under now (a new one with each lease) */
  readonly id: string;
  /** true while the loop runs */
  readonly draining: boolean;
  readonly inFlight: number;
  /**
   * the claim an update this process receives may be stored under (storeAndClaimUpdate),
   * to be handled here at once instead of waiting for a wake-up and a claim of its own;
   * undefined while the drain cannot take one (stopped, between leases, or full); `room` is
   * how many it can take now
   */
  intake(): { worker: string; leaseMs: number; room: number } | undefined;
  /** hands the drain an update claimed under what intake() gave: it runs it at once */
  adopt(claimed: ClaimedUpdate): void;
  /**
   * resolves once the inbox had nothing more for this drain after the call: a claim made
   * after it came back short and every update in hand is done (a start waits on it so
   * that the updates waiting then are answered before its own work takes the database)
   */
  settled(): Promise<void>;
  start(): Promise<void>;
  /** stops claiming, and resolves once the updates in hand are handled */
  stop(): Promise<void>;
}

/** an update tried this many times is given up on (it may be what kills its workers) */
export const MAX_UPDATE_ATTEMPTS = 5;
const DEFAULT_LEASE_MS = 30_000;

const workerLease = (id: string) => `inbox-worker:${id}`;

const keyOf = (k: UpdateKey) => `${k.botId}:${k.updateId}`;
const newWorkerId = () => `${hostname()}:${process.pid}:${randomBytes(4).toString("hex")}`;

export function createInboxDrain(o: InboxDrainOptions): InboxDrain {
  const db = o.database.db;
  const leaseMs = o.leaseMs ?? DEFAULT_LEASE_MS;
  const idleMs = o.idleMs ?? 1000;
  const reclaimMs = o.reclaimMs ?? 2000;
  const wakeup = new Wakeup();
  const inFlight = new Map<string, { claim: ClaimedUpdate; task: Promise<void> }>();
  /** updates in hand whose finish the claim loop made along with a claim */
  const finishedByLoop = new Set<string>();
  /** the id of the lease held now: new claims are made under it */
  let worker = newWorkerId();
  let log = o.logger.child({ component: "inbox", worker });
  let stopped = true;
  /** set once the updates in hand are done: upkeep (claims' renewal) runs until then */
  let closed = true;
  let draining = false;
  let loop: Promise<void> | undefined;
  let unlisten: (() => Promise<void>) | undefined;
  const timers: (() => void)[] = [];
  /** claim rounds begun, and the last one whose claim came back short */
  let rounds = 0;
  let lastShortRound = 0;
  const settling: { after: number; resolve: () => void }[] = [];
  function checkSettled() {
    if (inFlight.size > 0) return;
    for (const w of settling.filter((w) => lastShortRound > w.after)) {
      settling.splice(settling.indexOf(w), 1);
      w.resolve();
    }
  }

  // updates finishing together are marked handled in one statement: with many chats in
  // hand, completions come in bursts (the Bot API's answers), and one write serves them all.
  // While the claim loop runs it takes them along with its next claim (one round trip for
  // both); otherwise (stopping, a lost lease's stragglers) they are written on their own.
  type Finishing = {
    claim: ClaimedUpdate;
    /** the chat's state, written in the finish */
    state: PendingStateWrite | undefined;
    done: (result: FinishResult) => void;
    fail: (e: unknown) => void;
  };
  /** finished; not, as its chat's state was written by another since; not, as no longer ours */
  type FinishResult = "finished" | "conflict" | "lost";
  let finishing: Finishing[] = [];
  /** the loop claiming under `worker`, which takes that id's finishes with its claims */
  let claiming = false;
  function finishHandled(
    claim: ClaimedUpdate,
    state: PendingStateWrite | undefined,
  ): Promise<FinishResult> {
    return new Promise((done, fail) => {
      finishing.push({ claim, state, done, fail });
      if (claiming && claim.worker === worker) wakeup.wake();
      else setImmediate(flushFinished);
    });
  }
  /** the finishes waiting under `id` (all ids when undefined), taken out of the queue */
  function takeFinishing(id?: string): Finishing[] {
    const taken = finishing.filter((b) => id === undefined || b.claim.worker === id);
    finishing = finishing.filter((b) => !taken.includes(b));
    return taken;
  }
  const writesOf = (batch: Finishing[]) =>
    batch.flatMap((b) => (b.state ? [{ key: b.claim, state: b.state }] : []));
  function settle(batch: Finishing[], out: { finished: UpdateKey[]; conflicts: UpdateKey[] }) {
    const finished = new Set(out.finished.map(keyOf));
    const conflicts = new Set(out.conflicts.map(keyOf));
    for (const b of batch) {
      const k = keyOf(b.claim);
      b.done(finished.has(k) ? "finished" : conflicts.has(k) ? "conflict" : "lost");
    }
  }
  function flushFinished() {
    // the claim loop takes its own id's; the rest go now
    const batch = claiming ? finishing.filter((b) => b.claim.worker !== worker) : finishing;
    if (batch.length === 0) return;
    finishing = finishing.filter((b) => !batch.includes(b));
    // one statement per lease generation (almost always one), claiming nothing
    for (const id of new Set(batch.map((b) => b.claim.worker))) {
      const mine = batch.filter((b) => b.claim.worker === id);
      finishAndClaimUpdates(db, {
        worker: id,
        keys: mine.map((b) => b.claim),
        writes: writesOf(mine),
        limit: 0,
        leaseMs,
      }).then(
        (out) => settle(mine, out),
        (err: unknown) => {
          for (const b of mine) b.fail(err);
        },
      );
    }
  }

  const conflictError = (state: PendingStateWrite) =>
    `the conversation state ${state.key} was written by someone else since it was read`;

  async function finish(c: ClaimedUpdate, outcome: UpdateOutcome): Promise<void> {
    if (outcome.kind === "retry" && c.attempts < MAX_UPDATE_ATTEMPTS) {
      // 0.25 s, 0.5 s, 1 s, 2 s: a conflict clears as soon as the other writer is done
      const delayMs = 250 * 2 ** (c.attempts - 1);
      const mine = await retryUpdate(db, {
        worker: c.worker,
        key: c,
        delayMs,
        error: outcome.error,
      });
      if (!mine)
        log.warn({ updateId: c.updateId }, "an update's claim was taken back while it was handled");
      o.onResult?.("retried");
      return;
    }
    const error =
      outcome.kind === "retry"
        ? `gave up after ${c.attempts} attempts: ${outcome.error}`
        : outcome.error;
    const state = outcome.kind === "handled" ? outcome.state : undefined;
    let result: FinishResult;
    if (!error) result = await finishHandled(c, state);
    else if (state) {
      // a failed update that still moved its flow: the state and the finish in one statement
      const done = await finishWithState(db, { worker: c.worker, key: c, error, state });
      result = done.finished ? "finished" : done.held ? "conflict" : "lost";
    } else {
      const mine = await finishUpdates(db, { worker: c.worker, keys: [c], error });
      result = mine.length > 0 ? "finished" : "lost";
    }
    if (result === "conflict" && state) {
      // another process wrote the chat's state since it was read: run it again on top
      await finish(c, { kind: "retry", error: conflictError(state) });
      return;
    }
    if (result === "lost") {
      log.warn({ updateId: c.updateId }, "an update's claim ran out while it was handled");
    }
    o.onResult?.(outcome.kind === "retry" ? "abandoned" : error ? "failed" : "handled");
  }

  async function run(c: ClaimedUpdate): Promise<void> {
    if (c.attempts > MAX_UPDATE_ATTEMPTS) {
      // claimed again and again without finishing: its handling takes the process down
      log.error({ updateId: c.updateId, attempts: c.attempts }, "update abandoned");
      await finish(c, { kind: "retry", error: "its workers kept dying" });
      return;
    }
    let outcome: UpdateOutcome;
    try {
      outcome = await o.handle(c);
    } catch (err) {
      outcome = { kind: "retry", error: err instanceof Error ? err.message : String(err) };
    }
    // the outcome must land: a brief database error must not leave the claim to expire
    for (let attempt = 1; ; attempt++) {
      try {
        await finish(c, outcome);
        return;
      } catch (err) {
        if (attempt >= 3) throw err;
        await new Promise((r) => setTimeout(r, 200 * attempt));
      }
    }
  }

  function begin(c: ClaimedUpdate) {
    // per claim: after a lost lease the same update may be in hand twice, under two ids
    const key = `${c.worker}/${keyOf(c)}`;
    const task = run(c)
      .catch((err) =>
        log.error({ err, updateId: c.updateId }, "recording an update's outcome failed"),
      )
      .finally(() => {
        inFlight.delete(key);
        checkSettled();
        // a finish the claim loop made already claimed into this slot
        if (!finishedByLoop.delete(key)) wakeup.wake();
      });
    inFlight.set(key, { claim: c, task });
  }

  /** claims and handles under one lease, until the drain stops or the lease is lost */
  async function drainLoop(lease: Lease): Promise<void> {
    const wake = () => wakeup.wake();
    lease.signal.addEventListener("abort", wake, { once: true });
    claiming = true;
    try {
      while (!stopped && !lease.signal.aborted) {
        const round = ++rounds;
        const done = takeFinishing(worker);
        // the updates finishing here free their slots for this very claim
        const room = o.concurrency - inFlight.size + done.length;
        let claimed: ClaimedUpdate[] = [];
        try {
          if (done.length > 0) {
            const out = await finishAndClaimUpdates(db, {
              worker,
              keys: done.map((b) => b.claim),
              writes: writesOf(done),
              limit: Math.max(0, room),
              leaseMs,
            });
            for (const b of done) finishedByLoop.add(`${b.claim.worker}/${keyOf(b.claim)}`);
            settle(done, out);
            claimed = out.claimed;
          } else if (room > 0) {
            claimed = await claimUpdates(db, { worker, limit: room, leaseMs });
          }
        } catch (err) {
          // the finishes are the updates' own: each retries its outcome (run())
          for (const b of done) b.fail(err);
          log.error({ err }, "claiming updates failed");
          await wakeup.wait(idleMs);
          continue;
        }
        for (const c of claimed) begin(c);
        if (claimed.length < room) {
          lastShortRound = round;
          checkSettled();
        }
        if (claimed.length < room || room <= 0) await wakeup.wait(idleMs);
      }
    } finally {
      claiming = false;
      lease.signal.removeEventListener("abort", wake);
      // finishes that came after the last claim go on their own
      flushFinished();
    }
  }

  /** the drain's life: one lease after another, each under a new id, until it stops */
  async function lead(ready: () => void): Promise<void> {
    while (!stopped) {
      const id = newWorkerId();
      try {
        const out = await o.leases.hold([workerLease(id)], async (lease) => {
          worker = id;
          log = o.logger.child({ component: "inbox", worker });
          draining = true;
          ready();
          try {
            await drainLoop(lease);
          } finally {
            draining = false;
          }
          if (lease.signal.aborted && !stopped) {
            log.warn(
              { err: lease.signal.reason, inHand: inFlight.size },
              "lost the inbox worker's lease: going on under a new one",
            );
          }
        });
        if (!out.held) throw new Error(`the inbox lease ${id} is held elsewhere`);
      } catch (err) {
        log.error({ err }, "the inbox drain could not take its lease; trying again");
        ready();
        await wakeup.wait(idleMs);
      }
    }
    // stopping: the updates in hand end first (their claims renewed meanwhile)
    await Promise.allSettled([...inFlight.values()].map((f) => f.task));
  }

  /** renews the claims in hand, each under the id it was made with */
  async function extend(): Promise<void> {
    const byWorker = new Map<string, ClaimedUpdate[]>();
    for (const { claim } of inFlight.values()) {
      byWorker.set(claim.worker, [...(byWorker.get(claim.worker) ?? []), claim]);
    }
    for (const [id, keys] of byWorker) await extendClaims(db, { worker: id, keys, leaseMs });
  }

  async function reclaim(): Promise<void> {
    const holders = (await claimHolders(db)).filter((w) => w !== worker);
    if (holders.length === 0) return;
    const free = await o.leases.free(holders.map(workerLease));
    const dead = holders.filter((w) => free.has(workerLease(w)));
    const n = await freeClaimsOf(db, dead);
    if (n > 0) {
      log.warn({ workers: dead, updates: n }, "took back the updates of a worker that died");
      wakeup.wake();
    }
  }

  /** upkeep on a timer of its own, until the drain closes */
  function upkeep(ms: number, task: () => Promise<void>) {
    timers.push(
      every(ms, task, {
        active: () => !closed,
        onError: (err) => log.error({ err }, "inbox upkeep failed"),
      }),
    );
  }

  return {
    get id() {
      return worker;
    },
    get draining() {
      return draining;
    },
    get inFlight() {
      return inFlight.size;
    },
    intake() {
      // only while the claim loop runs under its lease: the finish rides with its claims,
      // and a death of this process frees the claim through that lease
      const room = o.concurrency - inFlight.size;
      if (stopped || !claiming || room <= 0) return undefined;
      return { worker, leaseMs, room };
    },
    adopt(c) {
      if (!stopped && claiming && c.worker === worker) {
        begin(c);
        return;
      }
      // the lease changed or the drain stops meanwhile: the update goes back to the inbox
      // at once, for whichever worker claims next (this one included)
      retryUpdate(db, { worker: c.worker, key: c, delayMs: 0, error: "handed back" }).then(
        () => wakeup.wake(),
        (err: unknown) => log.error({ err, updateId: c.updateId }, "handing an update back failed"),
      );
    },
    settled() {
      if (stopped) return Promise.resolve();
      return new Promise<void>((resolve) => {
        settling.push({ after: rounds, resolve });
        // a round begun from now on answers it, rather than the next idle poll
        wakeup.wake();
      });
    },
    async start() {
      if (!stopped) return;
      stopped = false;
      closed = false;
      let ready!: () => void;
      const started = new Promise<void>((r) => {
        ready = r;
      });
      loop = lead(ready);
      await started;
      try {
        unlisten = await o.database.listen("kios_inbox", () => wakeup.wake());
      } catch (err) {
        // without notifications the worker still finds work, on its idle poll
        log.warn({ err }, "LISTEN kios_inbox failed: polling the inbox instead");
      }
      upkeep(Math.max(1000, Math.floor(leaseMs / 3)), extend);
      upkeep(reclaimMs, reclaim);
      await reclaim().catch((err) => log.error({ err }, "reclaiming updates failed"));
      log.debug({ concurrency: o.concurrency }, "draining the update inbox");
    },
    async stop() {
      if (stopped) return;
      stopped = true;
      wakeup.wake();
      for (const w of settling.splice(0)) w.resolve();
      await loop;
      // only now: an update still in hand keeps its claim until it is done
      closed = true;
      for (const stop of timers.splice(0)) stop();
      await unlisten?.().catch(() => {});
    },
  };
}
