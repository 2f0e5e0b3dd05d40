import type { IncomingMessage } from "node:http";
import type { Context, Env, MiddlewareHandler } from "hono";
import { bodyLimit } from "hono/body-limit";

// a request's body, read the short way. Hono's c.req.text() and its bodyLimit read
// c.req.raw, for which @hono/node-server builds a WHATWG Request and a web stream on every
// request: a tenth of a webhook update's CPU, and of an H2H order's, in their profiles.

/**
 * refuses a body over maxSize with tooLarge's answer: a declared length as it is declared
 * (node refuses a body that runs past it, and a length with chunks); only a chunked body is
 * counted as it streams, by Hono's own limit. GET and HEAD pass.
 */
export function bodyWithin<E extends Env>(
  maxSize: number,
  tooLarge: (c: Context<E>) => Response | Promise<Response>,
): MiddlewareHandler<E> {
  const streamed = bodyLimit({ maxSize, onError: tooLarge });
  return (c, next) => {
    if (c.req.method === "GET" || c.req.method === "HEAD") return next();
    const length = c.req.header("content-length");
    if (length !== undefined && c.req.header("transfer-encoding") === undefined) {
      return Number(length) > maxSize ? Promise.resolve(tooLarge(c)) : next();
    }
    return streamed(c, next);
  };
}

/**
 * the body as text, from node's request when nothing has read it yet; decoded as
 * c.req.text() decodes it (UTF-8, a leading byte order mark dropped)
 */
export async function bodyText(c: Context): Promise<string> {
  const incoming = (c.env as { incoming?: IncomingMessage } | undefined)?.incoming;
  // readableFlowing is null until a reader attaches: a chunked body's limit already has one
  if (!incoming || incoming.readableFlowing !== null || incoming.readableEnded) {
    return c.req.text();
  }
  const chunks: Buffer[] = [];
  for await (const chunk of incoming) chunks.push(chunk as Buffer);
  const text = Buffer.concat(chunks).toString("utf8");
  return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
}

/** the body parsed as JSON (a SyntaxError when it is not) */
export async function jsonBody(c: Context): Promise<unknown> {
  return JSON.parse(await bodyText(c));
}
