import { createHash, createHmac, timingSafeEqual } from "node:crypto";

// the wire-level signing of the supplier's API (its "Signature algorithm") and of its callbacks
// (kios's docs/supplier.md). Shared by the client, which signs, and the sandbox, which verifies.

export interface SigningCredentials {
  apiId: string;
  apiKey: string;
  secretKey: string;
}

/** the envelope fields that are not business parameters */
export const ENVELOPE_FIELDS = ["api_id", "timestamp", "signature"] as const;

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

function sortKeysDeep(value: unknown): Json {
  if (Array.isArray(value)) return value.map(sortKeysDeep);
  if (value !== null && typeof value === "object") {
    const out: Record<string, Json> = {};
    for (const key of Object.keys(value).sort()) {
      const v = (value as Record<string, unknown>)[key];
      if (v !== undefined) out[key] = sortKeysDeep(v);
    }
    return out;
  }
  return value as Json;
}

/**
 * the canonical body: business parameters, keys sorted A→Z recursively, compact JSON with
 * slashes and non-ASCII left unescaped (JSON.stringify does neither), "" when there are none.
 */
export function canonicalBody(params: Record<string, unknown>): string {
  const business = Object.fromEntries(
    Object.entries(params).filter(
      ([k, v]) => !(ENVELOPE_FIELDS as readonly string[]).includes(k) && v !== undefined,
    ),
  );
  if (Object.keys(business).length === 0) return "";
  return JSON.stringify(sortKeysDeep(business));
}

export function sha256Hex(text: string): string {
  return createHash("sha256").update(text, "utf8").digest("hex");
}

export function hmacHex(key: string, text: string): string {
  return createHmac("sha256", key).update(text, "utf8").digest("hex");
}

export function stringToSign(apiId: string, apiKey: string, timestamp: number, bodyHash: string) {
  return `${apiId}|${apiKey}|${timestamp}|${bodyHash}`;
}

/** lowercase hex HMAC-SHA256 of api_id|api_key|timestamp|sha256(canonical body). */
export function signRequest(
  creds: SigningCredentials,
  timestamp: number,
  params: Record<string, unknown>,
): string {
  const bodyHash = sha256Hex(canonicalBody(params));
  return hmacHex(creds.secretKey, stringToSign(creds.apiId, creds.apiKey, timestamp, bodyHash));
}

/** the full request body: business parameters plus api_id, timestamp (seconds), signature. */
export function signedBody(
  creds: SigningCredentials,
  params: Record<string, unknown>,
  nowMs: number = Date.now(),
): Record<string, unknown> {
  const timestamp = Math.floor(nowMs / 1000);
  return {
    ...params,
    api_id: creds.apiId,
    timestamp,
    signature: signRequest(creds, timestamp, params),
  };
}

/** constant-time comparison of two hex strings (false on any length or format mismatch). */
export function hexEquals(a: string, b: string): boolean {
  if (!/^[0-9a-f]*$/i.test(a) || !/^[0-9a-f]*$/i.test(b)) return false;
  const x = Buffer.from(a.toLowerCase(), "hex");
  const y = Buffer.from(b.toLowerCase(), "hex");
  return x.length === y.length && x.length > 0 && timingSafeEqual(x, y);
}

// ---- callbacks: X-Callback-Timestamp, X-Callback-Signature ----

export const CALLBACK_TIMESTAMP_HEADER = "x-callback-timestamp";
export const CALLBACK_SIGNATURE_HEADER = "x-callback-signature";
export const CALLBACK_TOLERANCE_SECONDS = 300;

/** hex HMAC-SHA256 keyed with secret_key over "<timestamp>.<raw body>". */
export function signCallback(secretKey: string, timestamp: number, rawBody: string): string {
  return hmacHex(secretKey, `${timestamp}.${rawBody}`);
}

export type CallbackVerdict =
  | { ok: true }
  | { ok: false; reason: "missing_headers" | "bad_timestamp" | "stale" | "bad_signature" };

/** checks a callback's signature on the raw body, in constant time, within 5 minutes. */
export function verifyCallback(
  secretKey: string,
  rawBody: string,
  timestampHeader: string | null | undefined,
  signatureHeader: string | null | undefined,
  nowMs: number = Date.now(),
): CallbackVerdict {
  if (!timestampHeader || !signatureHeader) return { ok: false, reason: "missing_headers" };
  if (!/^\d{1,12}$/.test(timestampHeader.trim())) return { ok: false, reason: "bad_timestamp" };
  const timestamp = Number(timestampHeader.trim());
  if (Math.abs(nowMs / 1000 - timestamp) > CALLBACK_TOLERANCE_SECONDS) {
    return { ok: false, reason: "stale" };
  }
  const expected = signCallback(secretKey, timestamp, rawBody);
  return hexEquals(expected, signatureHeader.trim())
    ? { ok: true }
    : { ok: false, reason: "bad_signature" };
}
