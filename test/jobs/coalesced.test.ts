import { describe, expect, it } from "vitest";
import { coalesced } from "../../src/jobs/coalesced.ts";

/** a send whose every call waits until it is let go, in the order they were made */
function heldSend() {
  const calls: { done: () => void; fail: (e: Error) => void }[] = [];
  const send = () =>
    new Promise<void>((resolve, reject) => {
      calls.push({ done: resolve, fail: reject });
    });
  return { send, calls };
}

describe("coalesced", () => {
  it("sends at once, and once more after it for every call made meanwhile", async () => {
    const s = heldSend();
    const kick = coalesced(s.send);
    const first = kick();
    expect(s.calls).toHaveLength(1);
    const meanwhile = [kick(), kick(), kick()];
    // none sent beside the one on its way
    expect(s.calls).toHaveLength(1);
    s.calls[0]!.done();
    await first;
    // the one after it starts once the first came back
    await expect.poll(() => s.calls.length).toBe(2);
    let settled = false;
    void Promise.all(meanwhile).then(() => {
      settled = true;
    });
    await Promise.resolve();
    expect(settled).toBe(false);
    s.calls[1]!.done();
    await Promise.all(meanwhile);
    expect(s.calls).toHaveLength(2);
    // nothing on its way: the next call sends at once
    const later = kick();
    expect(s.calls).toHaveLength(3);
    s.calls[2]!.done();
    await later;
  });

  it("a failed send fails its callers; the next send still goes", async () => {
    const s = heldSend();
    const kick = coalesced(s.send);
    const first = kick();
    const meanwhile = kick();
    s.calls[0]!.fail(new Error("down"));
    await expect(first).rejects.toThrow("down");
    await expect.poll(() => s.calls.length).toBe(2);
    s.calls[1]!.done();
    await expect(meanwhile).resolves.toBeUndefined();
  });
});
