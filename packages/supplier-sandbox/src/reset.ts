import type { IncomingMessage } from "node:http";
import type { Context } from "hono";

// a dropped connection: the client sees a reset socket (ECONNRESET, "fetch failed"), not an
// HTTP answer. It needs a listening sandbox (@hono/node-server puts the socket in c.env);
// in-process (app.request) there is no socket, and the answer is an empty 502 instead.

export function resetConnection(c: Context): Response {
  const incoming = (c.env as { incoming?: IncomingMessage } | undefined)?.incoming;
  incoming?.socket.destroy();
  c.res = new Response(null, { status: 502 });
  return c.res;
}

/** a transaction lookup: /v1/status, or the key interface's GET /v1/transaction… */
export function isStatusQuery(method: string, path: string): boolean {
  if (method === "POST") return path === "/v1/status";
  return method === "GET" && /^\/v1\/transaction(\/[^/]+)?$/.test(path);
}
