import type { Logger } from "../logger.ts";
import type { HeaderReader } from "./http-call.ts";

// deprecation warnings in the supplier's replies. The supplier's document says the old release's
// responses "carry a warning" without showing its format, so kios looks for the usual
// forms: the Deprecation (RFC 9745), Sunset (RFC 8594) and Warning headers, and a
// `warning` or `deprecation` field in the body. Each endpoint is logged once at warn level
// and kept for admins (/balance); later warnings of the same endpoint change nothing.
// Both wire interfaces feed it from the shared transport.

export interface Notices {
  /**
   * looks at one reply; `body` is the parsed JSON (or undefined). `scrub` removes what the
   * request sent that is secret (it differs per attempt: a signature carries the time).
   */
  observe(
    endpoint: string,
    headers: HeaderReader,
    body: unknown,
    scrub: (text: string) => string,
  ): void;
  /** one line per endpoint that warned, oldest first */
  list(): readonly string[];
}

/** the longest notice kept: it is shown in chat */
const MAX_NOTICE = 300;

function day(date: Date): string {
  return date.toISOString().slice(0, 10);
}

/** RFC 9745 "@<unix seconds>", or an HTTP-date (earlier drafts); "true" carries no date */
function dateOf(value: string): Date | undefined {
  const v = value.trim();
  const epoch = /^@(-?\d+)$/.exec(v);
  if (epoch) return new Date(Number(epoch[1]) * 1000);
  if (!/[a-z]/i.test(v) || /^true$/i.test(v)) return undefined;
  const ms = Date.parse(v);
  return Number.isNaN(ms) ? undefined : new Date(ms);
}

/** the text of a Warning header: `299 - "Deprecated API"` → `Deprecated API` */
function warningText(header: string): string {
  const quoted = /"((?:[^"\\]|\\.)*)"/.exec(header);
  return (quoted?.[1] ?? header).replace(/\\(.)/g, "$1").trim();
}

/** a body field: a string, true, or an object with a message */
function fieldText(value: unknown): string | undefined {
  if (typeof value === "string") return value.trim() || undefined;
  if (value === true) return "this endpoint is deprecated";
  if (value !== null && typeof value === "object" && !Array.isArray(value)) {
    const message = (value as Record<string, unknown>).message;
    if (typeof message === "string" && message.trim()) return message.trim();
  }
  return undefined;
}

function bodyWarning(body: unknown): string | undefined {
  if (body === null || typeof body !== "object" || Array.isArray(body)) return undefined;
  const b = body as Record<string, unknown>;
  return fieldText(b.warning) ?? fieldText(b.deprecation);
}

/** one line of plain text for a reply that warns, or undefined when it does not */
function describe(headers: HeaderReader, body: unknown): string | undefined {
  const deprecation = headers.get("deprecation");
  const sunset = headers.get("sunset");
  const warning = headers.get("warning");
  const said = bodyWarning(body) ?? (warning ? warningText(warning) : undefined);
  if (!said && deprecation === null && sunset === null) return undefined;
  const parts = [said || "this endpoint is deprecated"];
  const since = deprecation ? dateOf(deprecation) : undefined;
  if (since) parts.push(`deprecated since ${day(since)}`);
  const end = sunset ? dateOf(sunset) : undefined;
  if (end) parts.push(`sunset ${day(end)}`);
  // one line of plain text: it reaches logs and chat
  return [...parts.join("; ")]
    .map((ch) => (ch.charCodeAt(0) < 0x20 || ch.charCodeAt(0) === 0x7f ? " " : ch))
    .join("")
    .replace(/ {2,}/g, " ")
    .trim();
}

export function createNotices(deps: { logger?: Logger | undefined }): Notices {
  const byEndpoint = new Map<string, string>();
  return {
    observe(endpoint, headers, body, scrub) {
      if (byEndpoint.has(endpoint)) return;
      const line = describe(headers, body);
      if (!line) return;
      const notice = `${endpoint}: ${scrub(line).slice(0, MAX_NOTICE)}`;
      byEndpoint.set(endpoint, notice);
      deps.logger?.warn({ endpoint, notice }, "supplier deprecation warning");
    },
    list: () => Object.freeze([...byEndpoint.values()]),
  };
}
