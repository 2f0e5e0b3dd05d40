import type { MessageView } from "@kios/bot-api-server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PICTURE_MAX_ROWS } from "../../src/bot/price-list/content.ts";
import { PLAYGROUND_CUSTOMER } from "../../src/playground/mode.ts";
import { bootApp, type TestApp } from "../helpers/app.ts";
import { testDriver } from "../helpers/db.ts";
import { pngSize } from "../helpers/png.ts";

// /harga of a big brand → 🖼 in the playground, over real HTTP on kios's own port, where the
// local Bot API server sits behind the app's body limit: every picture of the list arrives,
// each saying which of them it is.

const U = PLAYGROUND_CUSTOMER.id;

interface Chat {
  version: number;
  messages: MessageView[];
}

describe(`a big price list's pictures in the playground (${testDriver})`, () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await bootApp({ playground: true, env: { PAYMENT_GATEWAY: "none" } });
  });
  afterAll(() => t?.stop());

  const control = async <T>(path: string, body?: unknown): Promise<T> => {
    const res = await fetch(`${t.baseUrl}/control${path}`, {
      method: body === undefined ? "GET" : "POST",
      headers: { "content-type": "application/json" },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const json = (await res.json()) as { ok: boolean; result: T };
    if (!json.ok) throw new Error(`control ${path}: ${JSON.stringify(json)}`);
    return json.result;
  };

  /** the chat once `ready` holds: woken by each change of the chat, not polled on a timer */
  async function waitChat(ready: (c: Chat) => boolean, timeoutMs = 60_000): Promise<Chat> {
    const deadline = Date.now() + timeoutMs;
    let chat = await control<Chat>(`/chats/${U}/messages`);
    while (!ready(chat)) {
      if (Date.now() > deadline) {
        const last = chat.messages.slice(-4).map((m) => m.text ?? m.caption ?? "(photo)");
        throw new Error(`chat never got there; last: ${JSON.stringify(last)}`);
      }
      ({ chat } = await control<{ chat: Chat }>(
        `/chats/${U}/wait?after=${chat.version}&timeout=10000`,
      ));
    }
    return chat;
  }

  it("/harga telkomsel → 🖼 sends the whole list as numbered pictures", {
    timeout: 180_000,
  }, async () => {
    await control("/send", { user_id: U, text: "/harga telkomsel" });
    const listed = await waitChat((c) =>
      c.messages.some((m) => m.sender === "bot" && /Telkomsel · \d+ produk/.test(m.text ?? "")),
    );
    const list = listed.messages.findLast((m) => /Telkomsel · \d+ produk/.test(m.text ?? ""))!;
    const total = Number(/Telkomsel · (\d+) produk/.exec(list.text!)![1]);
    // the playground's catalogue: more than one picture holds
    expect(total).toBeGreaterThan(PICTURE_MAX_ROWS);
    const pages = Math.ceil(total / PICTURE_MAX_ROWS);
    const button = list.reply_markup?.inline_keyboard
      .flat()
      .find((b) => "callback_data" in b && b.text.startsWith("🖼"));
    if (!button || !("callback_data" in button)) throw new Error("no 🖼 button");
    await control("/press", {
      user_id: U,
      message_id: list.message_id,
      callback_data: button.callback_data,
    });

    const photosOf = (c: Chat) =>
      c.messages.filter((m) => m.photo && m.message_id > list.message_id);
    const done = await waitChat(
      (c) =>
        photosOf(c).length === pages ||
        c.messages.some(
          (m) => m.message_id > list.message_id && /tidak bisa dikirim/.test(m.text ?? ""),
        ),
    );
    const photos = photosOf(done);
    expect(photos.map((m) => /[Gg]ambar (\d+\/\d+)/.exec(m.caption ?? "")?.[1])).toEqual(
      Array.from({ length: pages }, (_, i) => `${i + 1}/${pages}`),
    );
    expect(photos[0]!.caption).toMatch(new RegExp(`Telkomsel: ${total} produk`));
    for (const photo of photos) {
      const file = await fetch(`${t.baseUrl}/control/files/${photo.photo!.at(-1)!.file_id}`);
      const png = Buffer.from(await file.arrayBuffer());
      expect(pngSize(png).width).toBe(600);
    }
  });
});
