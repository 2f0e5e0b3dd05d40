import { ManualClock } from "@kios/kit";
import { afterEach, describe, expect, it } from "vitest";
import { type RateLimitSettings, type RunningBotApiServer, startBotApiServer } from "../index.ts";
import { createRateLimiter } from "../src/rate-limit.ts";
import { call, ok } from "./helpers.ts";

/** a server on a frozen clock: buckets refill only when the test advances time */
async function startFrozen(clock: ManualClock, limits: Partial<RateLimitSettings>) {
  const server = await startBotApiServer({ clock, rateLimits: { enabled: true, ...limits } });
  for (const id of [42, 43]) {
    server.user(id);
    server.sendText(id, "/start");
  }
  return server;
}

describe("rate limits", () => {
  let server: RunningBotApiServer | undefined;
  afterEach(async () => {
    await server?.close();
    server = undefined;
  });

  it("allows a burst of 3 per chat, then answers 429 with an integer retry_after", async () => {
    const clock = new ManualClock({ frozen: true });
    server = await startFrozen(clock, { perSecondPerChat: 1, burstPerChat: 3, perSecondTotal: 30 });
    for (let i = 0; i < 3; i++) await ok(server, "sendMessage", { chat_id: 42, text: `ok ${i}` });
    expect(await call(server, "sendMessage", { chat_id: 42, text: "too fast" })).toEqual({
      status: 429,
      body: {
        ok: false,
        error_code: 429,
        description: "Too Many Requests: retry after 1",
        parameters: { retry_after: 1 },
      },
    });
    // edits count too
    expect(
      (await call(server, "editMessageText", { chat_id: 42, message_id: 2, text: "x" })).status,
    ).toBe(429);
    // another chat has its own allowance
    await ok(server, "sendMessage", { chat_id: 43, text: "hi" });
    // one second later one more message fits
    clock.advance(1000);
    await ok(server, "sendMessage", { chat_id: 42, text: "later" });
    expect((await call(server, "sendMessage", { chat_id: 42, text: "again" })).status).toBe(429);
    // refused sends are not in the chat
    expect(server.messages(42).messages.map((m) => m.text)).toEqual([
      "/start",
      "ok 0",
      "ok 1",
      "ok 2",
      "later",
    ]);
  });

  it("limits the total per second across chats", async () => {
    const clock = new ManualClock({ frozen: true });
    server = await startFrozen(clock, { perSecondTotal: 2, burstPerChat: 3, perSecondPerChat: 1 });
    await ok(server, "sendMessage", { chat_id: 42, text: "a" });
    await ok(server, "sendMessage", { chat_id: 43, text: "b" });
    const refused = await call(server, "sendMessage", { chat_id: 43, text: "c" });
    expect(refused.body).toMatchObject({
      ok: false,
      error_code: 429,
      parameters: { retry_after: 1 },
    });
    clock.advance(500);
    await ok(server, "sendMessage", { chat_id: 43, text: "c" });
  });

  it("can be switched off", async () => {
    const clock = new ManualClock({ frozen: true });
    server = await startFrozen(clock, { enabled: false });
    for (let i = 0; i < 10; i++) await ok(server, "sendMessage", { chat_id: 42, text: `${i}` });
  });

  it("rounds retry_after up to whole seconds", () => {
    const clock = new ManualClock({ frozen: true });
    const limiter = createRateLimiter(clock, {
      perSecondPerChat: 0.25,
      burstPerChat: 1,
      perSecondTotal: 30,
    });
    expect(limiter.take(1)).toEqual({ ok: true });
    expect(limiter.take(1)).toEqual({ ok: false, retryAfter: 4 });
    clock.advance(2500);
    expect(limiter.take(1)).toEqual({ ok: false, retryAfter: 2 });
    clock.advance(1500);
    expect(limiter.take(1)).toEqual({ ok: true });
  });
});
