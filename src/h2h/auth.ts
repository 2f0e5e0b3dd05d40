import { hexEquals, signRequest } from "@kios/kit";
import type { SecretBox } from "../commerce/h2h/cipher.ts";
import { type H2hKeyRow, keyByApiId, openKey } from "../commerce/h2h/keys.ts";
import type { Executor } from "../db/client.ts";
import { failure, type Reply, validationError } from "./envelope.ts";
import type { RateLimiter } from "./rate-limit.ts";

// who is calling (design rule 17: trust is checked at the door). The failures come in the
// order docs/design.md#decisions-where-the-suppliers-document-is-silent gives: an unknown
// api_id, a timestamp more than 5 minutes off, a revoked or disabled key, then a signature
// that does not match; the key's rate limit counts only requests that passed all of them. The signing is the kit's, the very code kios's client signs with.

const TOLERANCE_SECONDS = 5 * 60;

export type AuthResult =
  | { ok: true; key: H2hKeyRow; secretKey: string }
  | { ok: false; reply: Reply };

function envelopeErrors(body: Record<string, unknown>): Record<string, string[]> | null {
  const errors: Record<string, string[]> = {};
  const need = (field: string, message: string) => {
    errors[field] = [body[field] === undefined ? "is required" : message];
  };
  if (typeof body.api_id !== "string" || body.api_id === "")
    need("api_id", "must be a non-empty string");
  if (typeof body.timestamp !== "number" || !Number.isSafeInteger(body.timestamp)) {
    need("timestamp", "must be an integer (Unix seconds)");
  }
  if (typeof body.signature !== "string" || body.signature === "") {
    need("signature", "must be a non-empty string");
  }
  return Object.keys(errors).length > 0 ? errors : null;
}

export interface AuthDeps {
  db: Executor;
  box: SecretBox;
  nowMs: number;
  limiter: RateLimiter;
  /** the caller's address (client-address.ts: normalised, TRUST_PROXY's hops peeled off) */
  ip: string | undefined;
}

export async function authenticate(
  deps: AuthDeps,
  body: Record<string, unknown>,
): Promise<AuthResult> {
  const invalid = envelopeErrors(body);
  if (invalid) return { ok: false, reply: validationError(invalid) };
  const apiId = body.api_id as string;
  const timestamp = body.timestamp as number;
  const signature = body.signature as string;

  const key = await keyByApiId(deps.db, apiId);
  if (!key) return { ok: false, reply: failure(401, "UNAUTHORIZED", "api_id not found") };
  if (Math.abs(deps.nowMs / 1000 - timestamp) > TOLERANCE_SECONDS) {
    return {
      ok: false,
      reply: failure(
        401,
        "TIMESTAMP_EXPIRED",
        "timestamp is more than 5 minutes off; check the server clock",
      ),
    };
  }
  if (key.revokedAt !== null || !key.enabled) {
    return { ok: false, reply: failure(401, "INVALID_API_KEY", "api_key is revoked or disabled") };
  }
  // the allowlist before the signature's work: a flood from an address the reseller did not
  // allow costs kios no HMAC
  if (key.ipAllowlist.length > 0 && !(deps.ip && key.ipAllowlist.includes(deps.ip))) {
    return {
      ok: false,
      reply: failure(403, "UNAUTHORIZED", "this address is not allowed for this api_id"),
    };
  }
  const open = openKey(deps.box, key);
  const expected = signRequest(
    { apiId, apiKey: open.apiKey, secretKey: open.secretKey },
    timestamp,
    body,
  );
  if (!hexEquals(expected, signature)) {
    return { ok: false, reply: failure(401, "INVALID_SIGNATURE", "signature does not match") };
  }
  // a demoted reseller's access ends with their tier (design rule 19); the key stays, and
  // works again only if an admin makes them a reseller again. Said only to the key's owner
  if (!key.holderIsReseller) {
    return {
      ok: false,
      reply: failure(401, "INVALID_API_KEY", "this account is no longer a reseller"),
    };
  }
  // only a request the key's owner signed spends its limit: anyone who knows an api_id (it
  // travels in every body) could otherwise keep its reseller at 429
  const wait = deps.limiter.take(key.id, key.ratePerMinute, deps.nowMs);
  if (wait > 0) {
    const reply = failure(429, "RATE_LIMITED", "too many requests; slow down");
    return {
      ok: false,
      reply: { ...reply, headers: { "Retry-After": String(Math.ceil(wait / 1000)) } },
    };
  }
  return { ok: true, key, secretKey: open.secretKey };
}
