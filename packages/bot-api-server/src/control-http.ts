import type { Context } from "hono";
import { Hono } from "hono";
import { cors } from "hono/cors";
import { type Control, ControlError, type SendOptions } from "./control.ts";
import type { WebAppFrom } from "./control-web-app.ts";
import type { RateLimitSettings } from "./rate-limit.ts";
import type { World } from "./world.ts";

// the control API: JSON in, `{ ok: true, result }` or `{ ok: false, description }` out

const MAX_WAIT_MS = 60_000;
const DEFAULT_WAIT_MS = 25_000;

type Body = Record<string, unknown>;

async function body(c: Context): Promise<Body> {
  const text = await c.req.text();
  if (text.trim() === "") return {};
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw new ControlError(400, "the body must be a JSON object");
  }
  if (!parsed || typeof parsed !== "object" || Array.isArray(parsed))
    throw new ControlError(400, "the body must be a JSON object");
  return parsed as Body;
}

function int(value: unknown, name: string): number {
  const n = typeof value === "string" ? Number(value) : value;
  if (typeof n !== "number" || !Number.isSafeInteger(n))
    throw new ControlError(400, `${name} must be an integer`);
  return n;
}

const optText = (value: unknown): string | undefined =>
  typeof value === "string" ? value : undefined;

/** a wait in milliseconds, 0 to 60 s */
const waitMs = (value: unknown) => Math.min(MAX_WAIT_MS, Math.max(0, int(value, "timeout")));

/** Response.json rather than c.json: Hono's type inference chokes on deep Telegram types */
const ok = (result: unknown) => Response.json({ ok: true, result });

function botRef(value: unknown): string | number | undefined {
  return typeof value === "string" || typeof value === "number" ? value : undefined;
}

export function controlRoutes(control: Control, world: World): Hono {
  const app = new Hono();
  // the playground page may be served by another local server (another origin)
  app.use(cors());

  app.onError((err, c) => {
    if (err instanceof ControlError)
      return c.json({ ok: false, description: err.message }, err.status);
    world.logger.error({ err }, "control api failed");
    return c.json({ ok: false, description: "internal error" }, 500);
  });

  app.get("/bots", () => ok(control.listBots()));

  app.get("/users", () => ok(control.users()));

  app.post("/users", async (c) => {
    const b = await body(c);
    const user = control.user(int(b.id, "id"), {
      first_name: optText(b.first_name),
      last_name: optText(b.last_name),
      username: optText(b.username),
      language_code: optText(b.language_code),
      is_premium: b.is_premium === true,
    });
    return ok(user);
  });

  app.post("/send", async (c) => {
    const b = await body(c);
    const userId = int(b.user_id, "user_id");
    const options: SendOptions = {
      bot: botRef(b.bot),
      ...(b.reply_to_message_id !== undefined
        ? { replyTo: int(b.reply_to_message_id, "reply_to_message_id") }
        : {}),
    };
    if (b.sticker) {
      const emoji = typeof b.sticker === "object" ? optText((b.sticker as Body).emoji) : undefined;
      return ok(control.sendSticker(userId, { ...options, emoji }));
    }
    if (b.photo) {
      return ok(control.sendPhoto(userId, { ...options, caption: optText(b.caption) }));
    }
    if (typeof b.text !== "string")
      throw new ControlError(400, "text, sticker or photo is required");
    return ok(control.sendText(userId, b.text, options));
  });

  app.post("/press", async (c) => {
    const b = await body(c);
    if (typeof b.callback_data !== "string")
      throw new ControlError(400, "callback_data must be a string");
    const result = control.press(
      int(b.user_id, "user_id"),
      int(b.message_id, "message_id"),
      b.callback_data,
      {
        bot: botRef(b.bot),
      },
    );
    return ok(result);
  });

  app.post("/web-app", async (c) => {
    const b = await body(c);
    let from: WebAppFrom;
    if (b.menu === true) from = { menu: true };
    else if (typeof b.keyboard_button === "string") from = { keyboard_button: b.keyboard_button };
    else if (typeof b.inline_query_id === "string") from = { inline_query_id: b.inline_query_id };
    else if (b.message_id !== undefined)
      from = { message_id: int(b.message_id, "message_id"), button_text: optText(b.button_text) };
    else
      throw new ControlError(
        400,
        "message_id, menu: true, keyboard_button or inline_query_id is required",
      );
    return ok(control.openWebApp(int(b.user_id, "user_id"), from, { bot: botRef(b.bot) }));
  });

  app.post("/web-app/data", async (c) => {
    const b = await body(c);
    if (typeof b.launch_id !== "string") throw new ControlError(400, "launch_id must be a string");
    if (typeof b.data !== "string") throw new ControlError(400, "data must be a string");
    const sent = control.sendWebAppData(int(b.user_id, "user_id"), b.launch_id, b.data, {
      bot: botRef(b.bot),
    });
    return ok(sent);
  });

  app.post("/inline-query", async (c) => {
    const b = await body(c);
    if (typeof b.query !== "string") throw new ControlError(400, "query must be a string");
    const options = { bot: botRef(b.bot), offset: optText(b.offset) };
    const sent = control.inlineQuery(int(b.user_id, "user_id"), b.query, options);
    const timeout = waitMs(b.timeout ?? 0);
    if (sent.answer || timeout === 0) return ok(sent);
    const answer = await control.inlineAnswer(sent.inline_query_id, timeout, {
      ...options,
      signal: c.req.raw.signal,
    });
    return ok({ ...sent, answer });
  });

  app.get("/inline-query/:id", async (c) => {
    const answer = await control.inlineAnswer(
      c.req.param("id"),
      waitMs(c.req.query("timeout") ?? 0),
      { bot: c.req.query("bot"), signal: c.req.raw.signal },
    );
    return ok(answer);
  });

  app.post("/inline-query/:id/choose", async (c) => {
    const b = await body(c);
    if (typeof b.result_id !== "string") throw new ControlError(400, "result_id must be a string");
    const chosen = control.chooseInlineResult(
      int(b.user_id, "user_id"),
      c.req.param("id"),
      b.result_id,
      {
        bot: botRef(b.bot),
      },
    );
    return ok(chosen);
  });

  app.post("/open-link", async (c) => {
    const b = await body(c);
    if (typeof b.url !== "string") throw new ControlError(400, "url must be a string");
    return ok(control.openLink(int(b.user_id, "user_id"), b.url, { bot: botRef(b.bot) }));
  });

  app.post("/block", async (c) => {
    const b = await body(c);
    const result = control.block(int(b.user_id, "user_id"), b.blocked !== false, {
      bot: botRef(b.bot),
    });
    return ok(result);
  });

  app.get("/chats/:userId/messages", (c) => {
    const result = control.messages(int(c.req.param("userId"), "userId"), {
      bot: c.req.query("bot"),
    });
    return ok(result);
  });

  app.get("/chats/:userId/wait", async (c) => {
    const userId = int(c.req.param("userId"), "userId");
    const after = int(c.req.query("after") ?? "0", "after");
    const timeout = Math.min(
      MAX_WAIT_MS,
      Math.max(0, int(c.req.query("timeout") ?? DEFAULT_WAIT_MS, "timeout")),
    );
    const result = await control.waitForChange(userId, after, timeout, {
      bot: c.req.query("bot"),
      signal: c.req.raw.signal,
    });
    return ok(result);
  });

  app.get("/chats/:userId/commands", (c) => {
    const result = control.commandsFor(int(c.req.param("userId"), "userId"), {
      bot: c.req.query("bot"),
    });
    return ok(result);
  });

  app.post("/rate-limits", async (c) => {
    const b = await body(c);
    const settings: Partial<RateLimitSettings> = {};
    if (typeof b.enabled === "boolean") settings.enabled = b.enabled;
    for (const k of ["perSecondTotal", "perSecondPerChat", "burstPerChat"] as const) {
      if (b[k] !== undefined) {
        const n = Number(b[k]);
        if (!(n > 0)) throw new ControlError(400, `${k} must be a positive number`);
        settings[k] = n;
      }
    }
    return ok(control.setRateLimits(settings, { bot: botRef(b.bot) }));
  });

  app.post("/reset", () => {
    control.reset();
    return ok(true);
  });

  app.get("/files/:fileId", (c) => {
    const file = world.files.get(c.req.param("fileId"));
    if (!file) throw new ControlError(404, "file not found");
    if (file.url && !file.data) return c.redirect(file.url, 302);
    return new Response(file.data ? Buffer.from(file.data) : "", {
      headers: { "content-type": file.mime_type ?? "application/octet-stream" },
    });
  });

  app.notFound((c) => c.json({ ok: false, description: "unknown control endpoint" }, 404));
  return app;
}
