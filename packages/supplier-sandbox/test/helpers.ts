import { createServer, type IncomingHttpHeaders, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { ManualClock, type SigningCredentials, signedBody } from "@kios/kit";
import {
  DEFAULT_SANDBOX_CREDENTIALS,
  type Envelope,
  type KeyEnvelope,
  type RunningSandbox,
  type SandboxOptions,
  startSandbox,
} from "../index.ts";

// talks to a real sandbox over HTTP, signing requests as docs/supplier.md#requests says.

export const CREDS: SigningCredentials = { ...DEFAULT_SANDBOX_CREDENTIALS };

interface Answer {
  status: number;
  headers: Headers;
  body: Envelope;
}

interface KeyAnswer {
  status: number;
  headers: Headers;
  body: KeyEnvelope;
}

interface KeyCallOptions {
  /** a JSON body (POST), or a raw string sent as is */
  body?: Record<string, unknown> | string;
  query?: Record<string, string>;
  /** the Bearer key; null sends no Authorization header (default: the sandbox's key) */
  apiKey?: string | null;
  authorization?: string;
}

export interface Harness {
  sandbox: RunningSandbox;
  clock: ManualClock;
  /** signs params with the sandbox clock's time (or `at`) and POSTs them */
  call(
    path: string,
    params?: Record<string, unknown>,
    options?: { creds?: SigningCredentials; at?: number; signal?: AbortSignal },
  ): Promise<Answer>;
  /** a key-interface request: Authorization: Bearer, no signature */
  key(method: "GET" | "POST", path: string, options?: KeyCallOptions): Promise<KeyAnswer>;
  /** POSTs a body as given (no signing) */
  raw(path: string, body: string, method?: string): Promise<Answer>;
  close(): Promise<void>;
}

export async function harness(options: SandboxOptions = {}): Promise<Harness> {
  const clock = (options.clock as ManualClock | undefined) ?? new ManualClock();
  // long settle delay: tests settle with settleNow() unless they ask otherwise
  const sandbox = await startSandbox({ settleDelayMs: 60_000, ...options, clock });
  const raw = async (path: string, body: string, method = "POST"): Promise<Answer> => {
    const res = await fetch(`${sandbox.url}${path}`, {
      method,
      headers: { "content-type": "application/json" },
      ...(method === "GET" ? {} : { body }),
    });
    return { status: res.status, headers: res.headers, body: (await res.json()) as Envelope };
  };
  return {
    sandbox,
    clock,
    async call(path, params = {}, opts = {}) {
      const body = signedBody(opts.creds ?? CREDS, params, opts.at ?? clock.now());
      const res = await fetch(`${sandbox.url}${path}`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify(body),
        ...(opts.signal ? { signal: opts.signal } : {}),
      });
      return { status: res.status, headers: res.headers, body: (await res.json()) as Envelope };
    },
    raw,
    async key(method, path, opts = {}) {
      const query = opts.query ? `?${new URLSearchParams(opts.query).toString()}` : "";
      const apiKey = opts.apiKey === undefined ? CREDS.apiKey : opts.apiKey;
      const headers: Record<string, string> = {};
      if (opts.authorization !== undefined) headers.authorization = opts.authorization;
      else if (apiKey !== null) headers.authorization = `Bearer ${apiKey}`;
      if (method === "POST") headers["content-type"] = "application/json";
      const body = typeof opts.body === "string" ? opts.body : JSON.stringify(opts.body ?? {});
      const res = await fetch(`${sandbox.url}${path}${query}`, {
        method,
        headers,
        ...(method === "POST" ? { body } : {}),
      });
      return { status: res.status, headers: res.headers, body: (await res.json()) as KeyEnvelope };
    },
    close: () => sandbox.close(),
  };
}

export interface ReceivedCallback {
  headers: IncomingHttpHeaders;
  rawBody: string;
  json: { event: string; data: Record<string, unknown> };
}

/** a shop's callback endpoint: records what arrives, answers with the statuses it is given */
export async function callbackReceiver(statuses: number[] = []): Promise<{
  url: string;
  received: ReceivedCallback[];
  close(): Promise<void>;
}> {
  const received: ReceivedCallback[] = [];
  const queue = [...statuses];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const rawBody = Buffer.concat(chunks).toString("utf8");
      const status = queue.shift() ?? 200;
      if (status < 300) received.push({ headers: req.headers, rawBody, json: JSON.parse(rawBody) });
      res.writeHead(status, { "content-type": "application/json" }).end('{"ok":true}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/callback`,
    received,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** a phone number whose last three digits pick the sandbox outcome */
export const phone = (last3: string) => `081234567${last3}`;

/** polls until check() returns a value (for the real-time settle loop) */
export async function eventually<T>(check: () => Promise<T | undefined>, tries = 200): Promise<T> {
  for (let i = 0; i < tries; i++) {
    const v = await check();
    if (v !== undefined) return v;
    await new Promise((r) => setTimeout(r, 25));
  }
  throw new Error("condition not met");
}
