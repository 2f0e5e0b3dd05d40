import { createHash, timingSafeEqual } from "node:crypto";

// the OtomaX-family sign (docs/center.md#the-sign): base64url without padding of SHA-1 over
// "OtomaX|memberID|product|dest|refID|pin|password". A balance request signs the same string
// with product, dest and refID empty. SHA-1 is the software's choice, not kios's: the
// password's 128 random bits carry the strength.

export interface SignFields {
  memberId: string;
  product: string;
  dest: string;
  refId: string;
  pin: string;
  password: string;
}

export function otomaxSign(f: SignFields): string {
  const text = ["OtomaX", f.memberId, f.product, f.dest, f.refId, f.pin, f.password].join("|");
  return createHash("sha1").update(text, "utf8").digest("base64url");
}

/** compares in constant time (hashing first, so a wrong length tells nothing either) */
export function signEquals(expected: string, given: string): boolean {
  const digest = (s: string) => createHash("sha256").update(s, "utf8").digest();
  return timingSafeEqual(digest(expected), digest(given));
}
