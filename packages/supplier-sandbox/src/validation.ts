import { z } from "zod";
import { validationError } from "./envelope.ts";
import type { Reply } from "./types.ts";

// business parameters per endpoint and cmd; every problem becomes VALIDATION_ERROR with
// errors: { field: [messages] }.

const say = (what: string) => ({
  error: (issue: { input?: unknown }) =>
    issue.input === undefined ? "is required" : `must be ${what}`,
});

const text = () => z.string(say("a string")).min(1, { error: "must not be empty" });
const refId = () => z.string(say("a string")).max(64, { error: "must be at most 64 characters" });
const testing = () => z.boolean(say("true or false")).optional();

const ORDER_CMDS = ["prepaid", "game", "inquiry", "pay-pasca"] as const;

export const productsParams = z.object({
  cmd: z.enum(["prepaid", "game", "pasca"], say("one of prepaid, game, pasca")),
});

export const orderCmd = z.object({
  cmd: z.enum(ORDER_CMDS, say(`one of ${ORDER_CMDS.join(", ")}`)),
});

export const orderParams = z.object({
  cmd: z.enum(["prepaid", "game"]),
  code: text(),
  customer_no: text(),
  ref_id: refId().optional(),
  testing: testing(),
});

export const inquiryParams = z.object({
  cmd: z.literal("inquiry"),
  code: text(),
  customer_no: text(),
  ref_id: refId().optional(),
});

export const payParams = z.object({
  cmd: z.literal("pay-pasca"),
  code: text(),
  customer_no: text(),
  ref_id: refId().min(1, { error: "must not be empty" }),
  testing: testing(),
});

export const statusParams = z.object({
  ref_id: refId().min(1, { error: "must not be empty" }),
});

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

// ---- the key-based interface (newer release: customer_id, never phone) ----

const requiredRefId = () => refId().min(1, { error: "must not be empty" });

export const keyTransactionParams = z.object({
  product_code: text(),
  customer_id: text(),
  ref_id: requiredRefId(),
  testing: testing(),
});

export const keyInquiryParams = z.object({
  product_code: text(),
  customer_id: text(),
  ref_id: requiredRefId(),
});

export const keyLookupParams = z.object({
  ref_id: requiredRefId(),
});
