import { DEFAULT_BOT } from "@kios/bot-api-server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { setTier } from "../../src/commerce/users.ts";
import { walletBalance } from "../../src/commerce/wallet/ledger.ts";
import { PLAYGROUND_RESELLER } from "../../src/playground/demo-reseller.ts";
import { DEMO_BALANCE, PLAYGROUND_ADMIN, PLAYGROUND_CUSTOMER } from "../../src/playground/mode.ts";
import { bootApp, type TestApp } from "../helpers/app.ts";
import { testDriver } from "../helpers/db.ts";

// `npm start` with nothing configured: one port serves the chat page, the local Bot API
// server and kios itself, and the real bot answers there.

describe(`playground mode (${testDriver})`, () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await bootApp({ playground: true });
  });
  afterAll(() => t?.stop());

  it("serves the chat page and its config on kios's own port", async () => {
    const page = await fetch(`${t.baseUrl}/`);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain("<html");
    const config = (await (await fetch(`${t.baseUrl}/playground/config`)).json()) as {
      users: { id: number; persona: string }[];
      bot: { username: string };
    };
    expect(config.bot.username).toBe(DEFAULT_BOT.username);
    expect(config.users.map((u) => [u.id, u.persona])).toEqual([
      [PLAYGROUND_CUSTOMER.id, "customer"],
      [PLAYGROUND_RESELLER.id, "reseller"],
      [PLAYGROUND_ADMIN.id, "admin"],
    ]);
    expect((await fetch(`${t.baseUrl}/healthz`)).status).toBe(200);
  });

  it("the switcher says the role the bot prices by: a promoted demo customer is a reseller", async () => {
    const personas = async () =>
      (
        (await (await fetch(`${t.baseUrl}/playground/config`)).json()) as {
          users: { id: number; name: string; persona: string }[];
        }
      ).users.map((u) => [u.name, u.persona]);
    const db = t.app.database.db;
    await setTier(db, PLAYGROUND_CUSTOMER.id, "reseller");
    try {
      // the name carries no role of its own: the greeting says the name, the label the role
      expect(await personas()).toEqual([
        ["Sari", "reseller"],
        ["Rudi", "reseller"],
        ["Owner", "admin"],
      ]);
    } finally {
      await setTier(db, PLAYGROUND_CUSTOMER.id, "customer");
    }
    expect((await personas())[0]).toEqual(["Sari", "customer"]);
  });

  it("gives the demo customer test balance, once", async () => {
    expect(await walletBalance(t.app.database.db, PLAYGROUND_CUSTOMER.id)).toBe(DEMO_BALANCE);
  });

  it("the real bot answers /start through the control API", async () => {
    const sent = await fetch(`${t.baseUrl}/control/send`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ user_id: PLAYGROUND_CUSTOMER.id, text: "/start" }),
    });
    expect(sent.status).toBe(200);
    const deadline = Date.now() + 20_000;
    let texts: string[] = [];
    while (Date.now() < deadline) {
      const chat = (await (
        await fetch(`${t.baseUrl}/control/chats/${PLAYGROUND_CUSTOMER.id}/messages`)
      ).json()) as { result: { messages: { sender: string; text?: string }[] } };
      texts = chat.result.messages.filter((m) => m.sender === "bot").map((m) => m.text ?? "");
      if (texts.length > 0) break;
      await new Promise((r) => setTimeout(r, 100));
    }
    expect(texts[0]).toMatch(/Halo/);
  });
});
