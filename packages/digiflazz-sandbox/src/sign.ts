import { createHash, createHmac } from "node:crypto";

// Digiflazz's two signatures: the md5 `sign` a buyer puts in each request body, and the
// HMAC-SHA1 of a webhook's raw body that Digiflazz puts in X-Hub-Signature.

/** md5(username + apiKey + what): `what` is "depo", "pricelist", "deposit" or the ref_id */
export function md5Sign(username: string, apiKey: string, what: string): string {
  return createHash("md5").update(`${username}${apiKey}${what}`).digest("hex");
}

/** the X-Hub-Signature header's value for a raw webhook body */
export function hubSignature(secret: string, rawBody: string): string {
  return `sha1=${createHmac("sha1", secret).update(rawBody).digest("hex")}`;
}
