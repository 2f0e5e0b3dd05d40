import { readFile } from "node:fs/promises";
import { type Env, Hono } from "hono";
import type { BotApiServer } from "./server.ts";

// the playground chat page: a Telegram-like chat in the browser that acts as local users
// through the Bot API server's control API (/control/…), served from the same origin

/** who the page plays; only a label and a colour here */
type PlaygroundPersona = "customer" | "reseller" | "admin";

export interface PlaygroundUser {
  /** the Telegram user id (and private chat id) the page acts as */
  id: number;
  /** shown in the switcher; also the user's first_name on the Bot API server */
  name: string;
  /** who the page plays at first: a customer, or the shop's admin */
  persona: PlaygroundPersona;
  /** the user's Telegram client language; default "id" */
  language_code?: string;
}

export interface PlaygroundOptions {
  botApi: BotApiServer;
  /** the users the page switches between; the first one is selected at first */
  users: PlaygroundUser[];
  /** the page's <title>; default "<bot name> · kios playground" */
  title?: string;
  /**
   * the user's role as the bot knows it now (an admin may have promoted the demo customer),
   * so the switcher says what the bot's answers say; default: each user's persona as given
   */
  personaOf?: (userId: number) => Promise<PlaygroundPersona | undefined>;
  /** which of the server's bots the page talks to (username or id); default: its first bot */
  bot?: string | number;
  /** links the page's top bar shows beside the chat (same-origin pages of the app) */
  links?: PlaygroundLink[];
}

interface PlaygroundLink {
  label: string;
  href: string;
}

/** what GET /playground/config answers */
export interface PlaygroundConfig {
  title: string;
  bot: {
    id: number;
    username: string;
    name: string;
    description: string;
    short_description: string;
    /** inline mode is on; the input's hint while typing an inline query */
    inline: boolean;
    inline_placeholder: string;
  };
  users: { id: number; name: string; persona: PlaygroundPersona }[];
  links: PlaygroundLink[];
}

const ASSETS = {
  html: new URL("../page/index.html", import.meta.url),
  js: new URL("../page/playground.js", import.meta.url),
  webAppPanel: new URL("../page/web-app-panel.js", import.meta.url),
  inlineResults: new URL("../page/inline-results.js", import.meta.url),
  css: new URL("../page/playground.css", import.meta.url),
} as const;

// everything is served from this origin; nothing is loaded from elsewhere
const CSP = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data: blob: http: https:",
  "connect-src 'self'",
  // Mini Apps open in a frame: the shop's own page, or any local or https server
  "frame-src 'self' http: https:",
  "font-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join("; ");

const HEADERS = {
  "cache-control": "no-cache",
  "x-content-type-options": "nosniff",
  "referrer-policy": "no-referrer",
};

function escapeHtml(text: string): string {
  return text.replace(
    /[&<>"']/g,
    (ch) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[ch]!,
  );
}

/**
 * the page (/), its script and stylesheet, and its config (/playground/config). Mount it at the
 * root of the same app as `botApi.app`: the page calls the control API on its own origin.
 * `E` lets it join an app with its own env, e.g. `createPlaygroundRoutes<AppEnv>(…)`.
 */
export function createPlaygroundRoutes<E extends Env = Env>(options: PlaygroundOptions): Hono<E> {
  const { botApi } = options;
  if (options.users.length === 0) throw new Error("the playground needs at least one user");
  const ids = new Set<number>();
  for (const u of options.users) {
    if (ids.has(u.id)) throw new Error(`playground user ${u.id} is listed twice`);
    ids.add(u.id);
  }
  const botRef = options.bot;
  const botDef =
    botRef === undefined
      ? botApi.bots[0]!
      : botApi.bots.find(
          (b) =>
            b.id === Number(botRef) ||
            b.username.toLowerCase() === String(botRef).replace(/^@/, "").toLowerCase(),
        );
  if (!botDef) throw new Error(`the Bot API server has no bot ${botRef}`);
  const bot = botDef;

  /** the users exist on the Bot API server (again after a control reset) */
  const ensureUsers = () => {
    const known = new Set(botApi.users().map((u) => u.id));
    for (const u of options.users) {
      if (!known.has(u.id))
        botApi.user(u.id, { first_name: u.name, language_code: u.language_code ?? "id" });
    }
  };
  ensureUsers();

  /** a Bot API getter, called in-process: names and descriptions the bot set on itself */
  const botText = async (method: string, key: string): Promise<string> => {
    const language = options.users[0]!.language_code ?? "id";
    for (const lang of [language, ""]) {
      const query = lang ? `?language_code=${lang}` : "";
      const res = await botApi.app.request(`/bot${bot.token}/${method}${query}`);
      const body = (await res.json()) as { ok: boolean; result?: Record<string, string> };
      const value = body.ok ? body.result?.[key] : undefined;
      if (value) return value;
    }
    return "";
  };

  const titleOf = (name: string) => options.title ?? `${name} · kios playground`;

  const app = new Hono<E>();

  const asset = (url: URL, type: string) => async () =>
    new Response(await readFile(url), {
      headers: { ...HEADERS, "content-type": `${type}; charset=utf-8` },
    });

  app.get("/", async () => {
    const html = (await readFile(ASSETS.html, "utf8")).replace(
      "{{TITLE}}",
      escapeHtml(titleOf(bot.firstName)),
    );
    return new Response(html, {
      headers: {
        ...HEADERS,
        "content-type": "text/html; charset=utf-8",
        "content-security-policy": CSP,
      },
    });
  });
  app.get("/playground.js", asset(ASSETS.js, "text/javascript"));
  app.get("/web-app-panel.js", asset(ASSETS.webAppPanel, "text/javascript"));
  app.get("/inline-results.js", asset(ASSETS.inlineResults, "text/javascript"));
  app.get("/playground.css", asset(ASSETS.css, "text/css"));

  app.get("/playground/config", async () => {
    ensureUsers();
    const name = (await botText("getMyName", "name")) || bot.firstName;
    const config: PlaygroundConfig = {
      title: titleOf(name),
      bot: {
        id: bot.id,
        username: bot.username,
        name,
        description: await botText("getMyDescription", "description"),
        short_description: await botText("getMyShortDescription", "short_description"),
        inline: bot.inline,
        inline_placeholder: bot.inlinePlaceholder,
      },
      users: await Promise.all(
        options.users.map(async ({ id, name, persona }) => ({
          id,
          name,
          persona: (await options.personaOf?.(id)) ?? persona,
        })),
      ),
      links: options.links ?? [],
    };
    return Response.json(config, { headers: HEADERS });
  });

  return app;
}
