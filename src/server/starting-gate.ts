import { Hono } from "hono";
import type { AppEnv } from "./create-server.ts";

export interface StartingGate {
  /** what the listener serves from the first moment */
  readonly app: Hono<AppEnv>;
  /** from now on every request is the app's */
  open(app: Hono<AppEnv>): void;
}

/**
 * the HTTP listener while the app starts: it answers at once, before the database is
 * migrated or the jobs run. /healthz says "starting" (503), and a request for a route that
 * isn't there yet (Telegram's webhook, a supplier's or a gateway's report) gets a 503 with
 * Retry-After, which all of them retry. Once open, the gate passes every request on.
 */
export function startingGate(): StartingGate {
  const gate = new Hono<AppEnv>();
  let ready: Hono<AppEnv> | undefined;
  gate.all("*", (c) => {
    if (ready) return ready.fetch(c.req.raw, c.env);
    if (c.req.path === "/healthz") return c.json({ ok: false, status: "starting" }, 503);
    c.header("Retry-After", "5");
    return c.json({ error: "starting" }, 503);
  });
  return {
    app: gate,
    open(app) {
      ready = app;
    },
  };
}
