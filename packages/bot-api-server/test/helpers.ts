import type { ApiResponse, Message, Update } from "@grammyjs/types";
import { expect } from "vitest";
import {
  type BotApiServerOptions,
  DEFAULT_BOT,
  type RunningBotApiServer,
  startBotApiServer,
} from "../index.ts";

export const TOKEN = DEFAULT_BOT.token;
const BOT_ID = DEFAULT_BOT.id;

/** a listening server; rate limits are off unless a test turns them on */
export function start(options: BotApiServerOptions = {}): Promise<RunningBotApiServer> {
  return startBotApiServer({ rateLimits: { enabled: false }, ...options });
}

export interface Call<T> {
  status: number;
  body: ApiResponse<T> & { description?: string };
}

/** a raw Bot API call with a JSON body */
export async function call<T = unknown>(
  server: { url: string },
  method: string,
  params: Record<string, unknown> = {},
  token = TOKEN,
): Promise<Call<T>> {
  const res = await fetch(`${server.url}/bot${token}/${method}`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(params),
  });
  return { status: res.status, body: (await res.json()) as Call<T>["body"] };
}

/** the result of a call that must succeed */
export async function ok<T = unknown>(
  server: { url: string },
  method: string,
  params: Record<string, unknown> = {},
): Promise<T> {
  const res = await call<T>(server, method, params);
  if (!res.body.ok) throw new Error(`${method} failed: ${res.body.description}`);
  expect(res.status).toBe(200);
  return res.body.result;
}

/** a call that must fail with this status and description */
export async function fails(
  server: { url: string },
  method: string,
  params: Record<string, unknown>,
  status: number,
  description: string,
): Promise<void> {
  const res = await call(server, method, params);
  expect(res).toEqual({
    status,
    body: expect.objectContaining({ ok: false, error_code: status, description }),
  });
}

/** run-time checks of a Message's key fields, next to the compile-time Message type */
export function expectBotMessage(m: Message, chatId: number): void {
  expect(Number.isInteger(m.message_id)).toBe(true);
  expect(m.from).toEqual({
    id: BOT_ID,
    is_bot: true,
    first_name: DEFAULT_BOT.firstName,
    username: DEFAULT_BOT.username,
  });
  expect(m.chat).toMatchObject({ id: chatId, type: "private" });
  expect(typeof m.chat.first_name).toBe("string");
  // seconds, not milliseconds
  expect(Number.isInteger(m.date)).toBe(true);
  expect(Math.abs(m.date - Date.now() / 1000)).toBeLessThan(3600);
}

export function expectUpdate(u: Update): void {
  expect(Number.isInteger(u.update_id)).toBe(true);
  const kinds = Object.keys(u).filter((k) => k !== "update_id");
  expect(kinds).toHaveLength(1);
}

/** a PNG header with the given size: enough for the server to read the dimensions */
export function pngHeader(width: number, height: number): Uint8Array {
  const b = Buffer.alloc(33);
  Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]).copy(b, 0);
  b.writeUInt32BE(13, 8);
  b.write("IHDR", 12, "ascii");
  b.writeUInt32BE(width, 16);
  b.writeUInt32BE(height, 20);
  b.writeUInt8(8, 24);
  b.writeUInt8(2, 25);
  return new Uint8Array(b);
}

/** resolves after `ms` with a label: for asserting the order of events, not durations */
export function later<T extends string>(ms: number, label: T): Promise<T> {
  return new Promise((resolve) => setTimeout(() => resolve(label), ms));
}
