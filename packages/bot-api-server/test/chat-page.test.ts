import { Hono } from "hono";
import { afterEach, describe, expect, it } from "vitest";
import {
  type BotApiServer,
  createBotApiServer,
  createPlaygroundRoutes,
  type PlaygroundConfig,
} from "../index.ts";

const USERS = [
  { id: 5001, name: "Budi", persona: "customer" as const },
  { id: 5002, name: "Sari", persona: "admin" as const, language_code: "en" },
];

describe("the playground routes", () => {
  let botApi: BotApiServer | undefined;
  afterEach(() => botApi?.dispose());

  function mount(title?: string) {
    botApi = createBotApiServer();
    const app = new Hono();
    app.route("/", createPlaygroundRoutes({ botApi, users: USERS, title }));
    app.route("/", botApi.app);
    return { app, botApi };
  }

  it("serves the page with a strict CSP and the title, escaped", async () => {
    const { app } = mount(`Kios <Demo> & "co"`);
    const res = await app.request("/");
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("text/html; charset=utf-8");
    const csp = res.headers.get("content-security-policy") ?? "";
    expect(csp).toContain("default-src 'self'");
    expect(csp).toContain("script-src 'self'");
    // Mini Apps open in a frame; the page itself is never framed
    expect(csp).toContain("frame-src 'self' http: https:");
    expect(csp).toContain("frame-ancestors 'none'");
    const html = await res.text();
    expect(html).toContain("<title>Kios &lt;Demo&gt; &amp; &quot;co&quot;</title>");
    expect(html).toContain('src="/playground.js"');
    // nothing from other origins
    expect(html).not.toMatch(/(src|href)="(https?:)?\/\//);
  });

  it("serves the script and the stylesheet", async () => {
    const { app } = mount();
    const js = await app.request("/playground.js");
    expect(js.headers.get("content-type")).toBe("text/javascript; charset=utf-8");
    const script = await js.text();
    expect(script).toContain("/control/chats/");
    expect(script).not.toContain("innerHTML");
    // its modules: the Mini App panel and inline mode
    for (const path of ["/web-app-panel.js", "/inline-results.js"]) {
      const module = await app.request(path);
      expect(module.headers.get("content-type")).toBe("text/javascript; charset=utf-8");
      expect(await module.text()).not.toContain("innerHTML");
    }
    expect(script).toContain('from "./web-app-panel.js"');
    const css = await app.request("/playground.css");
    expect(css.headers.get("content-type")).toBe("text/css; charset=utf-8");
    expect(await css.text()).not.toMatch(/url\(["']?https?:/);
  });

  it("answers the config: the bot's name and description, the users to switch between", async () => {
    const { app, botApi } = mount();
    const token = botApi.bots[0]!.token;
    await app.request(`/bot${token}/setMyName?name=${encodeURIComponent("Kios Pulsa")}`);
    await app.request(`/bot${token}/setMyDescription?description=Beli%20pulsa`);
    const res = await app.request("/playground/config");
    const config = (await res.json()) as PlaygroundConfig;
    expect(config).toEqual({
      title: "Kios Pulsa · kios playground",
      bot: {
        id: 7000000001,
        username: "kios_playground_bot",
        name: "Kios Pulsa",
        description: "Beli pulsa",
        short_description: "",
        inline: true,
        inline_placeholder: "Search...",
      },
      users: [
        { id: 5001, name: "Budi", persona: "customer" },
        { id: 5002, name: "Sari", persona: "admin" },
      ],
      // no pages of the shop's own to link in the top bar
      links: [],
    });
  });

  it("creates the users on the Bot API server, again after a control reset", async () => {
    const { app, botApi } = mount();
    expect(botApi.users().map((u) => [u.id, u.first_name, u.language_code])).toEqual([
      [5001, "Budi", "id"],
      [5002, "Sari", "en"],
    ]);
    botApi.reset();
    expect(botApi.users()).toEqual([]);
    await app.request("/playground/config");
    expect(botApi.users().map((u) => u.id)).toEqual([5001, 5002]);
    // the page can act as them at once
    const sent = await app.request("/control/send", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ user_id: 5001, text: "/start" }),
    });
    expect(sent.status).toBe(200);
  });

  it("refuses an empty or duplicated user list and an unknown bot", () => {
    const server = createBotApiServer();
    botApi = server;
    expect(() => createPlaygroundRoutes({ botApi: server, users: [] })).toThrow(/at least one/);
    expect(() =>
      createPlaygroundRoutes({ botApi: server, users: [USERS[0]!, { ...USERS[0]! }] }),
    ).toThrow(/twice/);
    expect(() => createPlaygroundRoutes({ botApi: server, users: USERS, bot: "nobody" })).toThrow(
      /no bot nobody/,
    );
  });
});
