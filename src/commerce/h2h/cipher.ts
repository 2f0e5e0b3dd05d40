import { createBox, type SecretBox } from "../secrets/box.ts";

// the H2H credentials at rest (docs/h2h.md#for-the-owner). api_key and secret_key both enter
// a request's signature, so kios must be able to read them back to verify one: they are
// sealed (secrets/box.ts) under a key derived from H2H_ENCRYPTION_KEY, which lives in the
// environment, never in the database. A copy of the database alone reveals no key.

export type { SecretBox };

/** a box keyed by HKDF-SHA256 of the configured secret (at least 32 characters) */
export function createSecretBox(secret: string): SecretBox {
  if (secret.length < 32) throw new Error("H2H_ENCRYPTION_KEY must be at least 32 characters");
  return createBox(secret, "h2h credentials v1");
}
