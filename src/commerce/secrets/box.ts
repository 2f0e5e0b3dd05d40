import { createCipheriv, createDecipheriv, createHmac, hkdfSync, randomBytes } from "node:crypto";

// secrets at rest (docs/design.md, "secrets at rest are sealed"): what kios must read back
// later (H2H credentials, a keypad's presses, a PIN typed in a message) is stored sealed
// (AES-256-GCM) under a key that lives in the process's configuration, never in the
// database, so a copy of the database alone (backups, stored updates included) reveals none
// of it. One box per purpose: its key is derived (HKDF-SHA256) from the secret and the
// purpose, so a value sealed for one purpose never opens as another's.

export interface SecretBox {
  seal(plain: string): string;
  open(sealed: string): string;
}

/** a box that also derives keyed, unguessable bytes (a keypad's shuffled layout) */
export interface Sealer extends SecretBox {
  /** `length` bytes that only the holder of the key can compute from `label` */
  derive(label: string, length: number): Buffer;
}

const VERSION = "v1";

export function createBox(secret: string, purpose: string): Sealer {
  const key = Buffer.from(hkdfSync("sha256", secret, "kios", purpose, 32));
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
      if (version !== VERSION || !data) throw new Error(`unreadable sealed value (${purpose})`);
      const raw = Buffer.from(data, "base64url");
      const decipher = createDecipheriv("aes-256-gcm", key, raw.subarray(0, 12));
      decipher.setAuthTag(raw.subarray(12, 28));
      return Buffer.concat([decipher.update(raw.subarray(28)), decipher.final()]).toString("utf8");
    },
    derive(label, length) {
      const out: Buffer[] = [];
      for (let block = 0; out.length * 32 < length; block++) {
        out.push(createHmac("sha256", key).update(`${block}:${label}`).digest());
      }
      return Buffer.concat(out).subarray(0, length);
    },
  };
}
