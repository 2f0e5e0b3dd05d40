import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { gzipSync } from "node:zlib";
import { type Context, Hono } from "hono";
import type { MiniAppEnv } from "./api.ts";

// the Mini App's page: three small files, read once at start, served as a page should be.
// The script and the style carry their content's hash in their URL, so a browser keeps them
// for a year and a new version is a new URL; the page itself is revalidated (ETag) on every
// open. The Content-Security-Policy allows the page's own origin, Telegram's script, and
// framing only by Telegram's web client (or the playground's chat page).

const PAGE_DIR = new URL("./page/", import.meta.url);

/** Telegram's Mini App script, as Telegram documents it */
export const TELEGRAM_WEB_APP_SCRIPT = "https://telegram.org/js/telegram-web-app.js";
/** Telegram's web clients, which show a Mini App in a frame */
export const TELEGRAM_WEB_CLIENTS = ["https://web.telegram.org"];

export interface MiniAppPageOptions {
  /** the URL of Telegram's script: Telegram's own, or the playground's */
  telegramScript: string;
  /** origins that may frame the page besides its own */
  frameAncestors: readonly string[];
}

interface Asset {
  body: Buffer;
  gzip: Buffer;
  type: string;
  etag: string;
  /** the content hash its URL carries */
  version: string;
}

function asset(body: Buffer, type: string): Asset {
  const version = createHash("sha256").update(body).digest("base64url").slice(0, 16);
  return { body, gzip: gzipSync(body, { level: 9 }), type, etag: `"${version}"`, version };
}

const read = (file: string) => readFileSync(new URL(file, PAGE_DIR));

/** the origin of a script URL for the CSP ('self' for one on the page's own origin) */
function scriptSource(url: string): string {
  return /^https?:\/\//.test(url) ? new URL(url).origin : "'self'";
}

const COMMON_HEADERS = {
  "x-content-type-options": "nosniff",
  "referrer-policy": "no-referrer",
  "permissions-policy": "camera=(), microphone=(), geolocation=(), payment=()",
};

function send(c: Context, a: Asset, cacheControl: string, extra: Record<string, string> = {}) {
  const headers: Record<string, string> = {
    ...COMMON_HEADERS,
    ...extra,
    "content-type": a.type,
    "cache-control": cacheControl,
    etag: a.etag,
    vary: "accept-encoding",
  };
  if (c.req.header("if-none-match") === a.etag) return c.body(null, 304, headers);
  if (/\bgzip\b/.test(c.req.header("accept-encoding") ?? "")) {
    return c.body(new Uint8Array(a.gzip), 200, { ...headers, "content-encoding": "gzip" });
  }
  return c.body(new Uint8Array(a.body), 200, headers);
}

/** GET /app (the page), /app/app.js and /app/app.css */
export function createMiniAppPage(o: MiniAppPageOptions): Hono<MiniAppEnv> {
  const script = asset(read("app.js"), "text/javascript; charset=utf-8");
  const style = asset(read("app.css"), "text/css; charset=utf-8");
  const html = asset(
    Buffer.from(
      read("index.html")
        .toString("utf8")
        .replace("{{TELEGRAM_SCRIPT}}", o.telegramScript)
        .replace("{{APP_JS}}", `/app/app.js?v=${script.version}`)
        .replace("{{APP_CSS}}", `/app/app.css?v=${style.version}`),
    ),
    "text/html; charset=utf-8",
  );
  const csp = [
    "default-src 'none'",
    `script-src 'self' ${scriptSource(o.telegramScript)}`.replace("'self' 'self'", "'self'"),
    "style-src 'self'",
    "img-src 'self' data:",
    "connect-src 'self'",
    "base-uri 'none'",
    "form-action 'none'",
    `frame-ancestors ${["'self'", ...o.frameAncestors].join(" ")}`,
  ].join("; ");

  const page = new Hono<MiniAppEnv>();
  const servePage = (c: Context) => send(c, html, "no-cache", { "content-security-policy": csp });
  page.get("/app", servePage);
  page.get("/app/", servePage);
  const serveAsset = (a: Asset) => (c: Context) =>
    // the versioned URL never changes content; any other is revalidated
    send(c, a, c.req.query("v") === a.version ? "public, max-age=31536000, immutable" : "no-cache");
  page.get("/app/app.js", serveAsset(script));
  page.get("/app/app.css", serveAsset(style));
  return page;
}
