import { createHmac, timingSafeEqual } from "node:crypto";

// a Mini App's initData, checked the way Telegram documents it for the bot that opened the
// app: `hash` is HMAC-SHA-256, keyed with HMAC-SHA-256("WebAppData", bot token), over every
// other field as sorted `key=value` lines. Only initData that passes, and is at most a day
// old, names a user (design rule 17).

/** the user initData names: the only user id the Mini App's API trusts */
export interface WebAppBuyer {
  id: number;
  firstName: string;
  username?: string | undefined;
  languageCode?: string | undefined;
}

type InitDataRefusal =
  /** not a query string Telegram writes: a field twice, no hash, a user that is not JSON */
  | "malformed"
  /** signed with another token, or changed after signing */
  | "bad_hash"
  /** auth_date missing, older than the limit, or ahead of the clock */
  | "expired"
  /** signed, but names no user (an app opened from a keyboard button or inline mode) */
  | "no_user";

export type InitDataCheck =
  | { ok: true; buyer: WebAppBuyer; authDate: number }
  | { ok: false; reason: InitDataRefusal };

/** Telegram's limit for the app's server: a day */
export const INIT_DATA_MAX_AGE_SECONDS = 86_400;
/** a client's clock may run this far ahead */
const CLOCK_SKEW_SECONDS = 60;
/** initData is a few hundred bytes; far more is not Telegram's */
const MAX_INIT_DATA_LENGTH = 4096;

/** the HMAC key of a bot's initData, computed once per token */
export function initDataKey(botToken: string): Buffer {
  return createHmac("sha256", "WebAppData").update(botToken).digest();
}

function pairsOf(initData: string): [string, string][] | undefined {
  if (initData.length === 0 || initData.length > MAX_INIT_DATA_LENGTH) return undefined;
  const pairs = [...new URLSearchParams(initData)];
  // a field twice could be read one way here and another way by a parser elsewhere
  return new Set(pairs.map(([k]) => k)).size === pairs.length ? pairs : undefined;
}

function buyerOf(json: string | undefined): WebAppBuyer | "malformed" | undefined {
  if (json === undefined) return undefined;
  let user: unknown;
  try {
    user = JSON.parse(json);
  } catch {
    return "malformed";
  }
  if (typeof user !== "object" || user === null) return "malformed";
  const u = user as Record<string, unknown>;
  if (typeof u.id !== "number" || !Number.isSafeInteger(u.id) || u.id <= 0) return "malformed";
  return {
    id: u.id,
    firstName: typeof u.first_name === "string" ? u.first_name : "",
    username: typeof u.username === "string" ? u.username : undefined,
    languageCode: typeof u.language_code === "string" ? u.language_code : undefined,
  };
}

/** checks initData against the bot's key (initDataKey), in constant time */
export function checkInitData(
  key: Buffer,
  initData: string,
  nowSeconds: number,
  maxAgeSeconds = INIT_DATA_MAX_AGE_SECONDS,
): InitDataCheck {
  const pairs = pairsOf(initData);
  const hash = pairs?.find(([k]) => k === "hash")?.[1];
  if (!pairs || hash === undefined || !/^[0-9a-f]{64}$/.test(hash)) {
    return { ok: false, reason: "malformed" };
  }
  const checkString = pairs
    .filter(([k]) => k !== "hash")
    .map(([k, v]) => `${k}=${v}`)
    .sort()
    .join("\n");
  const expected = createHmac("sha256", key).update(checkString).digest();
  if (!timingSafeEqual(Buffer.from(hash, "hex"), expected))
    return { ok: false, reason: "bad_hash" };

  const fields = Object.fromEntries(pairs);
  const authDate = Number(fields.auth_date);
  if (!Number.isSafeInteger(authDate) || authDate <= 0) return { ok: false, reason: "expired" };
  if (nowSeconds - authDate > maxAgeSeconds || authDate - nowSeconds > CLOCK_SKEW_SECONDS) {
    return { ok: false, reason: "expired" };
  }
  const buyer = buyerOf(fields.user);
  if (buyer === "malformed") return { ok: false, reason: "malformed" };
  if (!buyer) return { ok: false, reason: "no_user" };
  return { ok: true, buyer, authDate };
}
