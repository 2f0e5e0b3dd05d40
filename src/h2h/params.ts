import { z } from "zod";
import { type Reply, validationError } from "./envelope.ts";

// the business parameters of each endpoint and cmd (docs/supplier.md#requests); every
// problem is VALIDATION_ERROR with errors: { field: [messages] }.

const say = (what: string) => ({
  error: (issue: { input?: unknown }) =>
    issue.input === undefined ? "is required" : `must be ${what}`,
});

const text = () =>
  z
    .string(say("a string"))
    .trim()
    .min(1, { error: "must not be empty" })
    .max(64, { error: "must be at most 64 characters" });
/** a reseller's ref_id: required here (kios can't look an order up by one it made up) */
const refId = () =>
  z
    .string(say("a string"))
    .trim()
    .regex(/^[A-Za-z0-9._/-]{1,64}$/, { error: "must be 1 to 64 of A-Z a-z 0-9 . _ / -" });
const testing = () => z.boolean(say("true or false")).optional();

export const productsParams = z.object({
  cmd: z.enum(["prepaid", "game", "pasca"], say("one of prepaid, game, pasca")),
});

const ORDER_CMDS = ["prepaid", "game", "inquiry", "pay-pasca"] as const;
export const orderCmd = z.object({
  cmd: z.enum(ORDER_CMDS, say(`one of ${ORDER_CMDS.join(", ")}`)),
});

export const orderParams = z.object({
  cmd: z.enum(["prepaid", "game"]),
  code: text(),
  customer_no: text(),
  ref_id: refId(),
  testing: testing(),
});

export const inquiryParams = z.object({
  cmd: z.literal("inquiry"),
  code: text(),
  customer_no: text(),
  ref_id: refId(),
});

export const payParams = z.object({
  cmd: z.literal("pay-pasca"),
  code: text(),
  customer_no: text(),
  ref_id: refId(),
  testing: testing(),
});

export const statusParams = z.object({ ref_id: refId() });

/** how deep a body may nest: every parameter is a scalar, the signature sorts nested keys */
export const MAX_BODY_DEPTH = 8;

/**
 * true for a body that nests objects or arrays deeper than `MAX_BODY_DEPTH`. A loop: the
 * signature's canonical form recurses, and a few KB nested thousands deep would overflow
 * its stack (a 500) for anyone who knows an api_id.
 */
export function nestedTooDeep(body: unknown): boolean {
  const stack: [unknown, number][] = [[body, 0]];
  while (stack.length > 0) {
    const [value, depth] = stack.pop()!;
    if (value === null || typeof value !== "object") continue;
    if (depth >= MAX_BODY_DEPTH) return true;
    for (const inner of Object.values(value)) stack.push([inner, depth + 1]);
  }
  return false;
}

export type Parsed<T> = { ok: true; value: T } | { ok: false; reply: Reply };

export function parseParams<S extends z.ZodType>(
  schema: S,
  body: Record<string, unknown>,
): Parsed<z.infer<S>> {
  const result = schema.safeParse(body);
  if (result.success) return { ok: true, value: result.data };
  const errors: Record<string, string[]> = {};
  for (const issue of result.error.issues) {
    const field = issue.path.map(String).join(".") || "body";
    errors[field] = [...(errors[field] ?? []), issue.message];
  }
  return { ok: false, reply: validationError(errors) };
}
