import { describe, expect, it } from "vitest";
import { orderJobPort } from "../../src/commerce/jobs.ts";
import type { JobRunner } from "../../src/jobs/runner.ts";

describe("the order engine's notification kicks", () => {
  it("orders settled while a kick is on its way share one kick after it", async () => {
    const sent: { queue: string; done: () => void }[] = [];
    // only `send` is used by the port's kicks
    const jobs = {
      send: (queue: string) =>
        new Promise<string | null>((resolve) => {
          sent.push({ queue, done: () => resolve("job") });
        }),
    } as unknown as JobRunner;
    const port = orderJobPort(jobs);
    const kicks = Array.from({ length: 6 }, () => port.kickNotifications());
    expect(sent.map((s) => s.queue)).toEqual(["notify"]);
    sent[0]!.done();
    await expect.poll(() => sent.length).toBe(2);
    sent[1]!.done();
    await Promise.all(kicks);
    expect(sent).toHaveLength(2);
  });
});
