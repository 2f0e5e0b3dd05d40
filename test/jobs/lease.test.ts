import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createLeases, LeaseLostError, type Leases } from "../../src/jobs/lease.ts";
import { createTestDatabase, type TestDatabase, testDriver } from "../helpers/db.ts";

// leases: held while work runs, gone with the process. A process holds one per running job
// batch, one for its inbox worker and one for the poller: none of them may wait for
// another's, and a holder whose lease is lost is told.

/** a promise and the function that resolves it */
function gate<T = void>(): { promise: Promise<T>; open: (value: T) => void } {
  let open!: (value: T) => void;
  const promise = new Promise<T>((r) => {
    open = r;
  });
  return { promise, open };
}

describe(`leases (${testDriver})`, () => {
  let database: TestDatabase;
  const sets: Leases[] = [];
  beforeEach(async () => {
    database = await createTestDatabase();
  });
  afterEach(async () => {
    for (const l of sets.splice(0)) await l.close();
    await database.destroy();
  });
  const leases = () => {
    const l = createLeases(database.handle);
    sets.push(l);
    return l;
  };

  /** the backends holding kios leases on this database */
  async function leaseBackends(): Promise<number[]> {
    const { rows } = await database.handle.executeSql(
      `select distinct pid from pg_locks
       where locktype = 'advisory' and granted
         and database = (select oid from pg_database where datname = current_database())`,
    );
    return rows.map((r) => Number(r.pid));
  }

  it("holds every lease a process asks for at once, however many: none waits for another", async () => {
    const mine = leases();
    // 13 job queues, the inbox worker, the poller, and then some
    const holders = 24;
    const release = gate();
    let started = 0;
    const all = gate();
    const runs = Array.from({ length: holders }, (_, i) =>
      mine.hold([`holder:${i}`], async () => {
        started += 1;
        if (started === holders) all.open();
        await release.promise;
        return i;
      }),
    );
    // every holder runs while all the others do
    await all.promise;
    expect(await mine.free(Array.from({ length: holders }, (_, i) => `holder:${i}`))).toEqual(
      new Set(),
    );
    if (testDriver === "postgres") expect(await leaseBackends()).toHaveLength(1);
    release.open();
    const results = await Promise.all(runs);
    expect(results.map((r) => (r.held ? r.value : -1))).toEqual(
      Array.from({ length: holders }, (_, i) => i),
    );
    expect((await mine.free(["holder:0", "holder:23"])).size).toBe(2);
  });

  it("holds a key once: a second holder, here or in another process, is refused", async () => {
    const a = leases();
    const b = leases();
    const release = gate();
    const inside = gate();
    const first = a.hold(["k"], async () => {
      inside.open();
      await release.promise;
    });
    await inside.promise;
    expect(await a.hold(["k"], async () => "again")).toEqual({ held: false });
    expect(await b.hold(["k", "other"], async () => "elsewhere")).toEqual({ held: false });
    // the refused holder took nothing: "other" is free
    expect(await a.free(["other"])).toEqual(new Set(["other"]));
    release.open();
    await first;
    expect(await b.hold(["k"], async () => "now")).toEqual({ held: true, value: "now" });
  });

  // a connection cut under a live process (a proxy, an idle timeout): only a server has one
  if (testDriver === "postgres") {
    it("tells the holders when their connection goes, and takes new leases on a new one", async () => {
      const mine = leases();
      const other = leases();
      const inside = gate<AbortSignal>();
      const release = gate();
      const holding = mine.hold(["job:1", "job:2"], async (lease) => {
        inside.open(lease.signal);
        await release.promise;
        return lease.signal.aborted;
      });
      const signal = await inside.promise;
      const lost = new Promise<unknown>((r) =>
        signal.addEventListener("abort", () => r(signal.reason), { once: true }),
      );
      const [backend] = await leaseBackends();
      await database.handle.executeSql("select pg_terminate_backend($1)", [backend]);
      expect(await lost).toBeInstanceOf(LeaseLostError);
      // the keys are free for others at once; here only once the old holder is done
      expect(await other.free(["job:1", "job:2"])).toEqual(new Set(["job:1", "job:2"]));
      expect(await mine.hold(["job:1"], async () => "twice")).toEqual({ held: false });
      release.open();
      expect(await holding).toEqual({ held: true, value: true });
      expect(await mine.hold(["job:1"], async () => "again")).toEqual({
        held: true,
        value: "again",
      });
      expect(await leaseBackends()).not.toContain(backend);
    });
  }
});
