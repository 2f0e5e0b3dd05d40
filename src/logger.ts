import { createRequire } from "node:module";
import type { Writable } from "node:stream";
import { type Logger, pino } from "pino";
import type prettyType from "pino-pretty";

export type { Logger } from "pino";

const REDACTED = "[redacted]";

// keys whose values are secret wherever they appear in a log object
const REDACT_PATHS = [
  "api_key",
  "apiKey",
  "secret_key",
  "secretKey",
  "signature",
  "token",
  "botToken",
  "password",
  "authorization",
  "serverKey",
  "server_key",
  "signature_key",
  "*.api_key",
  "*.apiKey",
  "*.secret_key",
  "*.secretKey",
  "*.signature",
  "*.token",
  "*.botToken",
  "*.password",
  "*.authorization",
  "*.serverKey",
  "*.server_key",
  "*.signature_key",
  "headers.authorization",
  "headers.x-telegram-bot-api-secret-token",
  "headers.x-callback-signature",
  "*.headers.authorization",
  "*.headers.x-telegram-bot-api-secret-token",
  "*.headers.x-callback-signature",
  // a failed Bot API call's error carries the call's payload: a keypad's buttons there
  // would give its layout, and with the stored presses a PIN (design rule 20)
  "payload.reply_markup",
  "*.payload.reply_markup",
];

// bot tokens inside Bot API URLs: /bot123456:ABC…/method
const BOT_TOKEN_IN_URL = /bot\d{3,}:[A-Za-z0-9_-]{20,}/g;

function escapeRegExp(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

/**
 * a last line of defence: whatever reaches the output (messages, error stacks, serialized
 * objects) is scrubbed of the secret values the app knows and of bot tokens in URLs.
 */
export function scrubber(secrets: readonly string[]): (line: string) => string {
  const known = [...new Set(secrets.filter((s) => s.length >= 4))].sort(
    (a, b) => b.length - a.length,
  );
  // JSON output escapes some characters; match both the raw and the escaped form
  const forms = known.flatMap((s) => [s, JSON.stringify(s).slice(1, -1)]);
  const pattern = forms.length > 0 ? new RegExp(forms.map(escapeRegExp).join("|"), "g") : null;
  return (line) => {
    let out = line.replace(BOT_TOKEN_IN_URL, `bot${REDACTED}`);
    if (pattern) out = out.replace(pattern, REDACTED);
    return out;
  };
}

export interface LoggerOptions {
  level?: string;
  /** secret values that must never be written */
  secrets?: readonly string[];
  /** pretty output for people; default: when stdout is a terminal */
  pretty?: boolean;
  destination?: Writable;
  /**
   * the lines of a turn of the event loop written together (TurnBatch); default: when
   * writing to stdout or stderr, where each write is a system call. Other destinations (a
   * test's memory) get each line as it is logged
   */
  batch?: boolean;
}

/** pino-pretty, loaded only for a terminal: a server's start (JSON lines) never needs it */
const prettyStream = (): typeof prettyType =>
  createRequire(import.meta.url)("pino-pretty") as typeof prettyType;

export function createLogger(options: LoggerOptions = {}): Logger {
  const destination = options.destination ?? process.stdout;
  const wantPretty = options.pretty ?? (destination === process.stdout && process.stdout.isTTY);
  const scrub = scrubber(options.secrets ?? []);

  const sink: Writable = wantPretty
    ? prettyStream()({ destination, colorize: true, sync: true, translateTime: "SYS:HH:MM:ss" })
    : destination;

  return pino(
    {
      level: options.level ?? "info",
      redact: { paths: REDACT_PATHS, censor: REDACTED },
      base: undefined,
      serializers: { err: pino.stdSerializers.err },
    },
    (options.batch ?? (destination === process.stdout || destination === process.stderr))
      ? new TurnBatch(sink, scrub)
      : { write: (line: string) => sink.write(scrub(line)) },
  );
}

/** batches with lines not yet written, for the exit's last write */
const unwritten = new Set<TurnBatch>();
let exitHooked = false;

/**
 * the lines logged in one turn of the event loop, scrubbed and written together once the
 * turn is over: a kernel write per line cost 0.17 ms per H2H order on a VM (one line per
 * order), and the shop's busy paths log a line per unit of work. A process that exits
 * (process.exit, an uncaught exception) writes what it holds first; one killed loses at
 * most the lines of the turn it was in.
 */
class TurnBatch {
  #lines: string[] = [];

  constructor(
    private readonly sink: Writable,
    private readonly scrub: (text: string) => string,
  ) {}

  write(line: string): boolean {
    this.#lines.push(line);
    if (this.#lines.length === 1) {
      unwritten.add(this);
      if (!exitHooked) {
        exitHooked = true;
        process.on("exit", () => {
          for (const batch of unwritten) batch.flush();
        });
      }
      setImmediate(() => this.flush());
    }
    return true;
  }

  /** writes what it holds now (pino's logger.flush(cb) calls it with a callback) */
  flush(done?: (err?: Error) => void): void {
    if (this.#lines.length > 0) {
      const text = this.#lines.join("");
      this.#lines = [];
      unwritten.delete(this);
      this.sink.write(this.scrub(text));
    }
    done?.();
  }
}
