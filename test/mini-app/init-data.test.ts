import { DEFAULT_BOT, signInitData } from "@kios/bot-api-server";
import { describe, expect, it } from "vitest";
import {
  checkInitData,
  INIT_DATA_MAX_AGE_SECONDS,
  initDataKey,
} from "../../src/mini-app/init-data.ts";

// kios's own check of a Mini App's initData (Telegram's documented HMAC with the bot
// token), against initData the playground's Telegram signs as Telegram does

const TOKEN = DEFAULT_BOT.token;
const NOW = 1_800_000_000;
const user = { id: 100_001, first_name: "Sari", last_name: "", language_code: "id" };
const key = initDataKey(TOKEN);
const check = (initData: string, now = NOW) => checkInitData(key, initData, now);

describe("initData", () => {
  it("accepts initData Telegram signed for this bot, with its signature field", () => {
    const initData = signInitData(TOKEN, { user, auth_date: NOW - 60, query_id: "AAE1" });
    expect(initData).toMatch(/signature=/);
    expect(check(initData)).toEqual({
      ok: true,
      authDate: NOW - 60,
      buyer: { id: 100_001, firstName: "Sari", username: undefined, languageCode: "id" },
    });
    // a chat's fields (an inline button) are signed too
    const inline = signInitData(TOKEN, {
      user,
      chat_instance: "-123",
      chat_type: "private",
      auth_date: NOW,
    });
    expect(check(inline).ok).toBe(true);
  });

  it("refuses a wrong hash: a field changed after signing, or the hash itself", () => {
    const initData = signInitData(TOKEN, { user, auth_date: NOW });
    const otherUser = encodeURIComponent(JSON.stringify({ ...user, id: 100_002 }));
    const forged = initData.replace(/user=[^&]+/, `user=${otherUser}`);
    expect(check(forged)).toEqual({ ok: false, reason: "bad_hash" });
    const flipped = initData.replace(
      /hash=([0-9a-f])/,
      (_, c: string) => `hash=${c === "0" ? "1" : "0"}`,
    );
    expect(check(flipped)).toEqual({ ok: false, reason: "bad_hash" });
    // the signature is part of what the hash covers
    const unsigned = initData.replace(/signature=[^&]+&?/, "");
    expect(check(unsigned)).toEqual({ ok: false, reason: "bad_hash" });
  });

  it("refuses another bot's initData", () => {
    const other = signInitData("987654321:AAOtherBotTokenOtherBotTokenOtherBot", {
      user,
      auth_date: NOW,
    });
    expect(check(other)).toEqual({ ok: false, reason: "bad_hash" });
  });

  it("refuses initData older than a day, or from the future", () => {
    const old = signInitData(TOKEN, { user, auth_date: NOW - INIT_DATA_MAX_AGE_SECONDS - 1 });
    expect(check(old)).toEqual({ ok: false, reason: "expired" });
    const dayOld = signInitData(TOKEN, { user, auth_date: NOW - INIT_DATA_MAX_AGE_SECONDS });
    expect(check(dayOld).ok).toBe(true);
    const ahead = signInitData(TOKEN, { user, auth_date: NOW + 3600 });
    expect(check(ahead)).toEqual({ ok: false, reason: "expired" });
  });

  it("refuses what Telegram never writes", () => {
    expect(check("")).toEqual({ ok: false, reason: "malformed" });
    expect(check("user=x&auth_date=1")).toEqual({ ok: false, reason: "malformed" });
    const initData = signInitData(TOKEN, { user, auth_date: NOW });
    // a field twice: the first copy is what a careless parser would read
    expect(check(`auth_date=${NOW}&${initData}`)).toEqual({ ok: false, reason: "malformed" });
    expect(check("x".repeat(5000))).toEqual({ ok: false, reason: "malformed" });
    // signed, but no user: an app opened from a keyboard button gets none
    expect(check(signInitData(TOKEN, { auth_date: NOW }))).toEqual({
      ok: false,
      reason: "no_user",
    });
    const notJson = signInitData(TOKEN, {
      user: { id: -5, first_name: "x" } as unknown as typeof user,
      auth_date: NOW,
    });
    expect(check(notJson)).toEqual({ ok: false, reason: "malformed" });
  });
});
