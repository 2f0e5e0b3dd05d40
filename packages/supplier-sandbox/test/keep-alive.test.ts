import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type RunningSandbox, startSandbox } from "../index.ts";

// the sandbox's client runs in the test's own process. Node closes an idle keep-alive
// connection after 5 s; a busy machine holds the process past that, and an order written
// to a connection the server had just closed came back ECONNRESET (orders are never
// retried, so it was left unknown). The sandbox leaves closing idle connections to its
// client, which never writes to a connection it closed itself.

describe("the sandbox's idle connections", () => {
  let sandbox: RunningSandbox;
  beforeAll(async () => {
    sandbox = await startSandbox({ port: 0 });
  });
  afterAll(() => sandbox.close());

  it("are kept open, with no idle limit announced to the client", async () => {
    const reply = await fetch(`${sandbox.url}/balance`, { method: "POST" });
    await reply.text();
    expect(reply.headers.get("connection")).toBe("keep-alive");
    expect(reply.headers.get("keep-alive")).toBeNull();
  });
});
