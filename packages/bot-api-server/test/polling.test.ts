import type { Update } from "@grammyjs/types";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { DEFAULT_BOT, type RunningBotApiServer } from "../index.ts";
import { call, expectUpdate, later, ok, start } from "./helpers.ts";

describe("getUpdates", () => {
  let server: RunningBotApiServer;
  beforeAll(async () => {
    server = await start();
  });
  afterAll(() => server.close());
  beforeEach(async () => {
    server.reset();
    // forget the filter a previous test stored
    await ok(server, "getUpdates", { allowed_updates: [] });
    server.user(42, { first_name: "Budi" });
  });

  it("returns queued updates until an offset confirms them", async () => {
    const a = server.sendText(42, "satu");
    const b = server.sendText(42, "dua");
    const c = server.sendText(42, "tiga");
    expect(b.update_id).toBe(a.update_id! + 1);
    expect(c.update_id).toBe(a.update_id! + 2);

    const all = await ok<Update[]>(server, "getUpdates");
    expect(all.map((u) => u.message?.text)).toEqual(["satu", "dua", "tiga"]);
    all.forEach(expectUpdate);
    // without an offset nothing is confirmed
    expect(await ok<Update[]>(server, "getUpdates")).toHaveLength(3);
    expect(
      (await ok<Update[]>(server, "getUpdates", { limit: 2 })).map((u) => u.update_id),
    ).toEqual([a.update_id, b.update_id]);
    // offset = last seen + 1 confirms everything before it
    expect(
      (await ok<Update[]>(server, "getUpdates", { offset: b.update_id! + 1 })).map(
        (u) => u.message?.text,
      ),
    ).toEqual(["tiga"]);
    expect(await ok<Update[]>(server, "getUpdates", { offset: c.update_id! + 1 })).toEqual([]);
    // update ids keep growing after a reset, so a bot's stored offset stays valid
    server.reset();
    server.user(42);
    expect(server.sendText(42, "lagi").update_id).toBe(c.update_id! + 1);
  });

  it("continues a bot's update_ids after the last one it is given: a restart on stored data", async () => {
    const again = await start({ bots: [{ ...DEFAULT_BOT, lastUpdateId: 41 }] });
    try {
      again.user(42, { first_name: "Budi" });
      expect(again.sendText(42, "lagi").update_id).toBe(42);
      expect(again.sendText(42, "dan lagi").update_id).toBe(43);
    } finally {
      await again.close();
    }
  });

  it("keeps only the last -offset updates for a negative offset", async () => {
    server.sendText(42, "a");
    server.sendText(42, "b");
    server.sendText(42, "c");
    expect(
      (await ok<Update[]>(server, "getUpdates", { offset: -1 })).map((u) => u.message?.text),
    ).toEqual(["c"]);
    expect((await ok<Update[]>(server, "getUpdates")).map((u) => u.message?.text)).toEqual(["c"]);
  });

  it("holds a long poll until an update arrives, then answers at once", async () => {
    const events: string[] = [];
    const poll = call<Update[]>(server, "getUpdates", { timeout: 2 }).then((res) => {
      events.push("returned");
      return res;
    });
    // the poll is waiting on the server by now; nothing came back yet
    events.push(await later(100, "sending"));
    server.sendText(42, "halo");
    const watchdog = later(1900, "timeout would have fired");
    const first = await Promise.race([poll.then(() => "poll"), watchdog]);
    expect(first).toBe("poll");
    expect(events).toEqual(["sending", "returned"]);
    const res = await poll;
    expect(res.body).toMatchObject({ ok: true, result: [{ message: { text: "halo" } }] });
  });

  it("answers [] after the timeout when nothing arrives", async () => {
    const events: string[] = [];
    const poll = call<Update[]>(server, "getUpdates", { timeout: 1 }).then((res) => {
      events.push("returned");
      return res;
    });
    await later(300, "").then(() => events.push("still waiting"));
    const res = await poll;
    expect(events).toEqual(["still waiting", "returned"]);
    expect(res.body).toEqual({ ok: true, result: [] });
  });

  it("ends a pending poll with 409 when another getUpdates arrives", async () => {
    const first = call<Update[]>(server, "getUpdates", { timeout: 5 });
    await later(100, "");
    const second = call<Update[]>(server, "getUpdates", { timeout: 0 });
    expect(await first).toEqual({
      status: 409,
      body: {
        ok: false,
        error_code: 409,
        description:
          "Conflict: terminated by other getUpdates request; make sure that only one bot instance is running",
      },
    });
    expect((await second).body.ok).toBe(true);
  });

  it("filters by allowed_updates, which persists", async () => {
    await ok(server, "getUpdates", { allowed_updates: ["callback_query"] });
    server.sendText(42, "dropped");
    expect(await ok<Update[]>(server, "getUpdates")).toEqual([]);
    // omitted: the previous setting stays; [] restores the default
    await ok(server, "getUpdates", {});
    expect(server.sendText(42, "still dropped").update_id).toBeUndefined();
    await ok(server, "getUpdates", { allowed_updates: [] });
    expect(server.sendText(42, "kept").update_id).toBeDefined();
    expect((await ok<Update[]>(server, "getUpdates")).map((u) => u.message?.text)).toEqual([
      "kept",
    ]);
  });

  it("sends my_chat_member when the user blocks and unblocks the bot", async () => {
    server.sendText(42, "/start");
    await ok(server, "getUpdates", { offset: -1 });
    const view = server.block(42, true);
    expect(view.blocked).toBe(true);
    server.block(42, false);
    const updates = await ok<Update[]>(server, "getUpdates", { offset: -2 });
    expect(
      updates.map((u) => [
        u.my_chat_member?.old_chat_member.status,
        u.my_chat_member?.new_chat_member.status,
      ]),
    ).toEqual([
      ["member", "kicked"],
      ["kicked", "member"],
    ]);
  });

  it("sends stickers and photos from the user for 'unexpected input' handling", async () => {
    server.sendSticker(42, { emoji: "🔥" });
    server.sendPhoto(42, { caption: "bukti transfer" });
    const [sticker, photo] = await ok<Update[]>(server, "getUpdates");
    expect(sticker!.message!.sticker).toMatchObject({
      type: "regular",
      emoji: "🔥",
      is_animated: false,
      is_video: false,
    });
    expect(sticker!.message!.text).toBeUndefined();
    expect(photo!.message!.caption).toBe("bukti transfer");
    expect(photo!.message!.photo![0]).toMatchObject({
      file_id: expect.any(String),
      file_unique_id: expect.any(String),
      width: 1,
      height: 1,
    });
  });
});
