import type { Clock } from "@kios/kit";
import { hexEquals, signRequest } from "@kios/kit";
import type { Account, AccountKey, Accounts } from "./accounts.ts";
import { failure, validationError } from "./envelope.ts";
import type { Reply } from "./types.ts";

// the signature check of docs/supplier.md#requests, in this order (README.md): unknown api_id, stale timestamp,
// a revoked key's signature, then no match at all.

const TOLERANCE_SECONDS = 5 * 60;

export type AuthResult =
  | { ok: true; account: Account; key: AccountKey }
  | { ok: false; reply: Reply };

/** the envelope fields must be there and of the right type before anything is checked */
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

export function authenticate(
  accounts: Accounts,
  clock: Clock,
  body: Record<string, unknown>,
): AuthResult {
  const invalid = envelopeErrors(body);
  if (invalid) return { ok: false, reply: validationError(invalid) };
  const apiId = body.api_id as string;
  const timestamp = body.timestamp as number;
  const signature = body.signature as string;

  const account = accounts.get(apiId);
  if (!account) return { ok: false, reply: failure(401, "UNAUTHORIZED", "api_id not found") };

  if (Math.abs(clock.now() / 1000 - timestamp) > TOLERANCE_SECONDS) {
    return {
      ok: false,
      reply: failure(401, "TIMESTAMP_EXPIRED", "timestamp is more than 5 minutes off"),
    };
  }

  // every key is tried so a revoked key's signature can be told from a wrong one
  let revokedMatch = false;
  for (const key of account.keys) {
    const expected = signRequest(
      { apiId, apiKey: key.apiKey, secretKey: key.secretKey },
      timestamp,
      body,
    );
    if (!hexEquals(expected, signature)) continue;
    if (!key.revoked) return { ok: true, account, key };
    revokedMatch = true;
  }
  return revokedMatch
    ? { ok: false, reply: failure(401, "INVALID_API_KEY", "api_key is revoked or disabled") }
    : { ok: false, reply: failure(401, "INVALID_SIGNATURE", "signature does not match") };
}
