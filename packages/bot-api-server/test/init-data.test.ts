import { createHmac } from "node:crypto";
import { describe, expect, it } from "vitest";
import {
  checkInitData,
  checkInitDataSignature,
  DEFAULT_BOT,
  PLAYGROUND_WEB_APP_PUBLIC_KEY,
  signInitData,
} from "../index.ts";

// Telegram's own initData, as published in the test fixtures of the Go library
// Telegram-Mini-Apps/init-data-golang (validate_test.go and validate_third_party_test.go):
// real output of Telegram's servers, so the checker is held to Telegram's algorithm and not
// only to our signer
const FIXTURE_TOKEN = "7342037359:AAHI25ES9xCOMPokpYoz-p8XVrZUdygo2J4";
const FIXTURE_BOT_ID = 7342037359;
const FIXTURE_USER =
  "user=%7B%22id%22%3A279058397%2C%22first_name%22%3A%22Vladislav%20%2B%20-%20%3F%20%5C%2F%22%2C" +
  "%22last_name%22%3A%22Kibenko%22%2C%22username%22%3A%22vdkfrost%22%2C%22language_code%22%3A%22ru%22%2C" +
  "%22is_premium%22%3Atrue%2C%22allows_write_to_pm%22%3Atrue%2C%22photo_url%22%3A%22https%3A%5C%2F%5C%2F" +
  "t.me%5C%2Fi%5C%2Fuserpic%5C%2F320%5C%2F4FPEE4tmP3ATHa57u6MqTDih13LTOiMoKoLDRG4PnSA.svg%22%7D";
const FIXTURE_HASHED =
  `${FIXTURE_USER}&chat_instance=8134722200314281151&chat_type=private&auth_date=1733509682` +
  "&signature=TYJxVcisqbWjtodPepiJ6ghziUL94-KNpG8Pau-X7oNNLNBM72APCpi_RKiUlBvcqo5L-LAxIc3dnTzcZX_PDg" +
  "&hash=a433d8f9847bd6addcc563bff7cc82c89e97ea0d90c11fe5729cae6796a36d73";
const FIXTURE_SIGNED =
  `${FIXTURE_USER}&chat_instance=8134722200314281151&chat_type=private&auth_date=1733584787` +
  "&hash=2174df5b000556d044f3f020384e879c8efcab55ddea2ced4eb752e93e7080d6" +
  "&signature=zL-ucjNyREiHDE8aihFwpfR9aggP2xiAo3NSpfe-p7IbCisNlDKlo7Kb6G4D0Ao2mBrSgEk4maLSdv6MLIlADQ";
/** Telegram's production Ed25519 key for initData signatures (the same fixtures use it) */
const TELEGRAM_PUBLIC_KEY = "e7bf03a2fa4602af4580703d88dda5bb59f32ed8b02a56c187fe7d34caed242d";

const DAY = 86_400;
const NOW = 1_750_000_000;

const BUDI = {
  id: 5001,
  first_name: "Budi / Santoso",
  last_name: "",
  username: "budi",
  language_code: "id",
  allows_write_to_pm: true as const,
};

/** the documented check, written out here on its own so signer and checker can't share a bug */
function independentHash(token: string, initData: string): string {
  const pairs = [...new URLSearchParams(initData)]
    .filter(([k]) => k !== "hash")
    .map(([k, v]) => `${k}=${v}`)
    .sort();
  const secret = createHmac("sha256", "WebAppData").update(token).digest();
  return createHmac("sha256", secret).update(pairs.join("\n")).digest("hex");
}

/** initData with one field's raw value replaced, the hash kept */
function tamper(initData: string, key: string, value: string): string {
  return initData
    .split("&")
    .map((pair) => (pair.startsWith(`${key}=`) ? `${key}=${encodeURIComponent(value)}` : pair))
    .join("&");
}

describe("initData", () => {
  it("checks initData Telegram signed (a published fixture)", () => {
    const check = checkInitData(FIXTURE_TOKEN, FIXTURE_HASHED, {
      maxAgeSeconds: DAY,
      nowSeconds: 1733509682 + 60,
    });
    expect(check).toMatchObject({
      ok: true,
      authDate: 1733509682,
      user: { id: 279058397, first_name: "Vladislav + - ? /", username: "vdkfrost" },
      fields: { chat_type: "private", chat_instance: "8134722200314281151" },
    });
    // another bot's token does not make it valid
    expect(checkInitData(DEFAULT_BOT.token, FIXTURE_HASHED)).toEqual({
      ok: false,
      reason: "hash_mismatch",
    });
  });

  it("checks Telegram's Ed25519 signature (a published fixture)", () => {
    expect(checkInitDataSignature(FIXTURE_SIGNED, FIXTURE_BOT_ID, TELEGRAM_PUBLIC_KEY)).toBe(true);
    expect(checkInitDataSignature(FIXTURE_SIGNED, 1, TELEGRAM_PUBLIC_KEY)).toBe(false);
    expect(
      checkInitDataSignature(
        tamper(FIXTURE_SIGNED, "chat_type", "group"),
        FIXTURE_BOT_ID,
        TELEGRAM_PUBLIC_KEY,
      ),
    ).toBe(false);
  });

  it("signs as Telegram does: field order, encoding, hash and signature", () => {
    const initData = signInitData(DEFAULT_BOT.token, {
      user: BUDI,
      chat_instance: "-4908992446394523843",
      chat_type: "private",
      auth_date: NOW,
    });
    expect([...new URLSearchParams(initData).keys()]).toEqual([
      "user",
      "chat_instance",
      "chat_type",
      "auth_date",
      "signature",
      "hash",
    ]);
    // spaces as %20 and slashes escaped in the JSON, as Telegram writes them
    expect(initData).toContain("%22first_name%22%3A%22Budi%20%5C%2F%20Santoso%22");
    expect(initData.split("&").pop()).toBe(`hash=${independentHash(DEFAULT_BOT.token, initData)}`);
    expect(
      checkInitData(DEFAULT_BOT.token, initData, { maxAgeSeconds: DAY, nowSeconds: NOW }),
    ).toMatchObject({ ok: true, authDate: NOW, user: { ...BUDI } });
    // the signature is the playground's own: it verifies with its key, not with Telegram's
    expect(checkInitDataSignature(initData, DEFAULT_BOT.id, PLAYGROUND_WEB_APP_PUBLIC_KEY)).toBe(
      true,
    );
    expect(checkInitDataSignature(initData, DEFAULT_BOT.id, TELEGRAM_PUBLIC_KEY)).toBe(false);
    expect(checkInitDataSignature(initData, DEFAULT_BOT.id + 1)).toBe(false);
  });

  it("refuses forged, foreign, old and malformed initData", () => {
    const initData = signInitData(DEFAULT_BOT.token, {
      query_id: "AAHdF6IQAAAAAN0XohDhrOrc",
      user: BUDI,
      auth_date: NOW,
    });
    const check = (data: string, nowSeconds = NOW) =>
      checkInitData(DEFAULT_BOT.token, data, { maxAgeSeconds: DAY, nowSeconds });

    expect(check(initData).ok).toBe(true);
    // another user's id under the same hash
    const forged = tamper(initData, "user", JSON.stringify({ ...BUDI, id: 5002 }));
    expect(check(forged)).toEqual({ ok: false, reason: "hash_mismatch" });
    // signed with another bot's token
    const foreign = signInitData("7000000002:another-bot-token", { user: BUDI, auth_date: NOW });
    expect(check(foreign)).toEqual({ ok: false, reason: "hash_mismatch" });
    // a day and a second old; then from the future
    expect(check(initData, NOW + DAY + 1)).toEqual({ ok: false, reason: "expired" });
    expect(check(initData, NOW + DAY).ok).toBe(true);
    expect(check(initData, NOW - 120)).toEqual({ ok: false, reason: "from_the_future" });
    // no hash, a field twice, no auth_date, a user that isn't JSON
    expect(check(initData.replace(/&hash=.*$/, ""))).toEqual({ ok: false, reason: "no_hash" });
    expect(check(`${initData}&auth_date=${NOW}`)).toEqual({ ok: false, reason: "malformed" });
    const noDate = signInitData(DEFAULT_BOT.token, { user: BUDI, auth_date: NOW }).replace(
      `auth_date=${NOW}&`,
      "",
    );
    expect(check(noDate)).toEqual({ ok: false, reason: "hash_mismatch" });
    expect(check("")).toEqual({ ok: false, reason: "no_hash" });
    expect(check("user=%7Bnot-json&auth_date=1&hash=00")).toEqual({
      ok: false,
      reason: "hash_mismatch",
    });
  });
});
