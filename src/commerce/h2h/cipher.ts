import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from "node:crypto";

// the H2H credentials at rest (docs/h2h.md#for-the-owner). api_key and secret_key both enter
// a request's signature, so kios must be able to read them back to verify one: they are
// encrypted (AES-256-GCM) under a key derived from H2H_ENCRYPTION_KEY, which lives in the
// environment, never in the database. A copy of the database alone reveals no key.

export interface SecretBox {
  seal(plain: string): string;
  open(sealed: string): string;
}

const VERSION = "v1";

/** a box keyed by HKDF-SHA256 of the configured secret (at least 32 characters) */
export function createSecretBox(secret: string): SecretBox {
  if (secret.length < 32) throw new Error("H2H_ENCRYPTION_KEY must be at least 32 characters");
  const key = Buffer.from(hkdfSync("sha256", secret, "kios", "h2h credentials v1", 32));
  return {
    seal(plain) {
      const iv = randomBytes(12);
      const cipher = createCipheriv("aes-256-gcm", key, iv);
      const body = Buffer.concat([cipher.update(plain, "utf8"), cipher.final()]);
      const sealed = Buffer.concat([iv, cipher.getAuthTag(), body]).toString("base64url");
      return `${VERSION}:${sealed}`;
    },
    open(sealed) {
      const [version, data] = sealed.split(":");
      if (version !== VERSION || !data) throw new Error("unreadable H2H credential");
      const raw = Buffer.from(data, "base64url");
      const decipher = createDecipheriv("aes-256-gcm", key, raw.subarray(0, 12));
      decipher.setAuthTag(raw.subarray(12, 28));
      return Buffer.concat([decipher.update(raw.subarray(28)), decipher.final()]).toString("utf8");
    },
  };
}
