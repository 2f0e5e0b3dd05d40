import {
  createHash,
  createHmac,
  createPrivateKey,
  createPublicKey,
  type KeyObject,
  sign,
  timingSafeEqual,
  verify,
} from "node:crypto";

// a Mini App's initData, signed the way Telegram signs it for a bot: a query string whose
// `hash` is HMAC-SHA-256 (key: HMAC-SHA-256 of the bot token keyed with "WebAppData") over the
// other fields sorted as `key=value` lines, and whose `signature` is Ed25519 over
// "<bot id>:WebAppData\n" and the same lines without hash and signature. Exported so the shop's
// tests can build valid and forged initData.

/** a user as Telegram writes them into initData (WebAppUser) */
export interface WebAppUser {
  id: number;
  is_bot?: boolean;
  first_name: string;
  /** Telegram writes "" when the user has none */
  last_name?: string;
  username?: string;
  language_code?: string;
  is_premium?: true;
  added_to_attachment_menu?: true;
  allows_write_to_pm?: true;
  photo_url?: string;
}

/** the fields Telegram may put into initData (WebAppInitData), before signing */
export interface InitDataFields {
  query_id?: string;
  user?: WebAppUser;
  receiver?: WebAppUser;
  chat?: Record<string, unknown>;
  chat_instance?: string;
  chat_type?: string;
  start_param?: string;
  can_send_after?: number;
  /** unix seconds */
  auth_date: number;
}

export interface SignInitDataOptions {
  /** the bot id in the Ed25519 message; default: the number before the token's colon */
  botId?: number;
  /** the Ed25519 key; default the playground's own; null leaves `signature` out */
  signingKey?: KeyObject | null;
}

export type InitDataCheck =
  | {
      ok: true;
      /** every field, decoded, hash included */
      fields: Record<string, string>;
      user?: WebAppUser;
      authDate: number;
    }
  | {
      ok: false;
      reason:
        | "malformed"
        | "no_hash"
        | "hash_mismatch"
        | "no_auth_date"
        | "expired"
        | "from_the_future";
    };

export interface CheckInitDataOptions {
  /** refuse initData older than this; without it the date is not checked */
  maxAgeSeconds?: number;
  /** unix seconds; default now */
  nowSeconds?: number;
}

// the order Telegram's clients write the fields in
const FIELD_ORDER = [
  "query_id",
  "user",
  "receiver",
  "chat",
  "chat_instance",
  "chat_type",
  "start_param",
  "can_send_after",
  "auth_date",
] as const;

/** how far a client's clock may run ahead before its initData counts as from the future */
const CLOCK_SKEW_SECONDS = 60;

// the playground signs with a key of its own (Telegram's private key is Telegram's); derived
// from a fixed seed so its public key is the same on every machine
const SEED = createHash("sha256").update("kios playground: Mini App initData signing key").digest();
const PKCS8_ED25519 = Buffer.from("302e020100300506032b657004220420", "hex");
const SPKI_ED25519 = Buffer.from("302a300506032b6570032100", "hex");
const PLAYGROUND_KEY = createPrivateKey({
  key: Buffer.concat([PKCS8_ED25519, SEED]),
  format: "der",
  type: "pkcs8",
});

/** hex of the Ed25519 public key that verifies the playground's initData signatures */
export const PLAYGROUND_WEB_APP_PUBLIC_KEY = createPublicKey(PLAYGROUND_KEY)
  .export({ format: "der", type: "spki" })
  .subarray(SPKI_ED25519.length)
  .toString("hex");

/** JSON as Telegram writes it: slashes escaped, other characters as they are */
function telegramJson(value: unknown): string {
  return JSON.stringify(value).replaceAll("/", "\\/");
}

/** percent-encoding as Telegram writes it: everything but letters, digits and -_.~ */
function encode(value: string): string {
  return encodeURIComponent(value).replace(
    /[!'()*]/g,
    (ch) => `%${ch.charCodeAt(0).toString(16).toUpperCase()}`,
  );
}

const secretKey = (token: string) => createHmac("sha256", "WebAppData").update(token).digest();

const checkLines = (pairs: [string, string][]) =>
  pairs
    .map(([k, v]) => `${k}=${v}`)
    .sort()
    .join("\n");

/** initData for a bot, with hash (and, unless signingKey is null, signature) */
export function signInitData(
  token: string,
  fields: InitDataFields,
  options: SignInitDataOptions = {},
): string {
  const pairs: [string, string][] = [];
  for (const key of FIELD_ORDER) {
    const value = fields[key];
    if (value === undefined) continue;
    pairs.push([key, typeof value === "object" ? telegramJson(value) : String(value)]);
  }
  const signingKey = options.signingKey === undefined ? PLAYGROUND_KEY : options.signingKey;
  if (signingKey) {
    const botId = options.botId ?? Number(token.split(":")[0]);
    const message = `${botId}:WebAppData\n${checkLines(pairs)}`;
    pairs.push(["signature", sign(null, Buffer.from(message), signingKey).toString("base64url")]);
  }
  const hash = createHmac("sha256", secretKey(token)).update(checkLines(pairs)).digest("hex");
  pairs.push(["hash", hash]);
  return pairs.map(([k, v]) => `${k}=${encode(v)}`).join("&");
}

/** the decoded pairs, or undefined when a key repeats (a forger's trick to confuse parsers) */
function parsePairs(initData: string): [string, string][] | undefined {
  const pairs = [...new URLSearchParams(initData)];
  const keys = new Set(pairs.map(([k]) => k));
  return keys.size === pairs.length ? pairs : undefined;
}

/** Telegram's documented check of initData against the bot token, in constant time */
export function checkInitData(
  token: string,
  initData: string,
  options: CheckInitDataOptions = {},
): InitDataCheck {
  const pairs = parsePairs(initData);
  if (!pairs) return { ok: false, reason: "malformed" };
  const hash = pairs.find(([k]) => k === "hash")?.[1];
  if (hash === undefined) return { ok: false, reason: "no_hash" };
  const expected = createHmac("sha256", secretKey(token))
    .update(checkLines(pairs.filter(([k]) => k !== "hash")))
    .digest();
  const given = Buffer.from(hash, "hex");
  if (given.length !== expected.length || !timingSafeEqual(given, expected))
    return { ok: false, reason: "hash_mismatch" };

  const fields = Object.fromEntries(pairs);
  const authDate = Number(fields.auth_date);
  if (!Number.isSafeInteger(authDate) || authDate <= 0)
    return { ok: false, reason: "no_auth_date" };
  if (options.maxAgeSeconds !== undefined) {
    const now = options.nowSeconds ?? Math.floor(Date.now() / 1000);
    if (now - authDate > options.maxAgeSeconds) return { ok: false, reason: "expired" };
    if (authDate - now > CLOCK_SKEW_SECONDS) return { ok: false, reason: "from_the_future" };
  }
  let user: WebAppUser | undefined;
  if (fields.user !== undefined) {
    try {
      user = JSON.parse(fields.user) as WebAppUser;
    } catch {
      return { ok: false, reason: "malformed" };
    }
  }
  return { ok: true, fields, ...(user ? { user } : {}), authDate };
}

/** the Ed25519 check a party without the bot token makes; default key: the playground's */
export function checkInitDataSignature(
  initData: string,
  botId: number,
  publicKeyHex: string = PLAYGROUND_WEB_APP_PUBLIC_KEY,
): boolean {
  const pairs = parsePairs(initData);
  const signature = pairs?.find(([k]) => k === "signature")?.[1];
  if (!pairs || signature === undefined) return false;
  const rest = pairs.filter(([k]) => k !== "hash" && k !== "signature");
  const key = createPublicKey({
    key: Buffer.concat([SPKI_ED25519, Buffer.from(publicKeyHex, "hex")]),
    format: "der",
    type: "spki",
  });
  const message = Buffer.from(`${botId}:WebAppData\n${checkLines(rest)}`);
  return verify(null, message, key, Buffer.from(signature, "base64url"));
}
