import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SECRETS_TTL_MS } from "../../../src/bot/api-keys/api.ts";
import { deleteDueMessages } from "../../../src/bot/service.ts";
import { deliverDueCallbacks, queueFinalCallbacks } from "../../../src/commerce/h2h/callbacks.ts";
import { createSecretBox } from "../../../src/commerce/h2h/cipher.ts";
import {
  createKey,
  keyOfUser,
  openKey,
  updateKeySettings,
} from "../../../src/commerce/h2h/keys.ts";
import { placeH2hOrder } from "../../../src/commerce/h2h/orders.ts";
import { setTier } from "../../../src/commerce/users.ts";
import { setFirstPin as setPin } from "../../../src/commerce/wallet/pin.ts";
import {
  ADMIN_ID,
  type BotHarness,
  copyTexts,
  labels,
  startBotHarness,
} from "../../helpers/bot.ts";

// /api: a reseller's H2H key in the chat, shown once with copy buttons in a message that
// deletes itself; rotate and revoke by button.

const box = createSecretBox("bot-api-test-h2h-key-0123456789abcdef");

describe("/api", () => {
  let h: BotHarness;
  beforeAll(async () => {
    h = await startBotHarness({
      h2h: { box, apiUrl: "https://shop.example/h2h/v1", allowLoopbackHttp: false },
    });
  });
  afterAll(() => h?.stop());
  const labelsOf = (u: number, id: number) => {
    const m = h.chat(u).messages.find((x) => x.message_id === id);
    return m ? labels(m) : [];
  };
  const messageOf = (u: number, id: number) => h.chat(u).messages.find((m) => m.message_id === id)!;

  it("customers are told it is for resellers", async () => {
    const u = 6_001;
    h.user(u);
    const reply = await h.waitMessage(u, /hanya untuk reseller/, h.say(u, "/api"));
    expect(reply.text).toContain("Hubungi admin");
  });

  it("a reseller creates a key: shown once with copy buttons, deleted after a minute; rotate and revoke", async () => {
    const r = 6_002;
    h.user(r);
    await setTier(h.db, r, "reseller");
    const none = await h.waitMessage(r, /belum punya kunci API/, h.say(r, "/api"));
    expect(none.text).toContain("https://shop.example/h2h/v1");
    h.tap(r, none, /Buat kunci API/);
    const secrets = await h.waitMessage(r, /Kunci API kamu/, none.message_id);
    const stored = openKey(box, (await keyOfUser(h.db, r))!);
    expect(copyTexts(secrets)).toEqual({
      "📋 api_id": stored.row.apiId,
      "📋 api_key": stored.apiKey,
      "📋 secret_key": stored.secretKey,
    });
    const status = await h.waitEdit(r, none.message_id, /Status: aktif/);
    expect(status.text).toContain(`api_id: ${stored.row.apiId}`);
    expect(status.text).toContain("Status: aktif");
    expect(labels(status)).toEqual(["🔄 Ganti kunci", "⛔ Cabut", "💬 Kirim hasil ke chat"]);

    // the secrets' message goes after a minute, not before
    expect(await deleteDueMessages(h.bot.api, h.db, new Date(h.clock.now()))).toBe(0);
    h.clock.advance(SECRETS_TTL_MS);
    expect(await deleteDueMessages(h.bot.api, h.db, new Date(h.clock.now()))).toBe(1);
    expect(h.chat(r).messages.find((m) => m.message_id === secrets.message_id)?.deleted).toBe(true);

    h.tap(r, status, /Ganti kunci/);
    const rotated = await h.waitMessage(r, /Kunci API kamu/, secrets.message_id);
    const after = openKey(box, (await keyOfUser(h.db, r))!);
    expect(after.secretKey).not.toBe(stored.secretKey);
    expect(copyTexts(rotated)["📋 secret_key"]).toBe(after.secretKey);

    h.tap(r, status, /Cabut/);
    await h.waitEdit(r, status.message_id, /dicabut/);
    expect((await keyOfUser(h.db, r))!.revokedAt).not.toBeNull();
  });

  it("with a wallet PIN, creating, rotating or revoking a key asks for it first", async () => {
    const r = 6_010;
    h.user(r);
    await setTier(h.db, r, "reseller");
    await setPin(h.db, r, "4826");
    const none = await h.waitMessage(r, /belum punya kunci API/, h.say(r, "/api"));
    h.tap(r, none, /Buat kunci API/);
    const pad = await h.waitEdit(r, none.message_id, /./);
    await expect.poll(() => labelsOf(r, none.message_id), { timeout: 8_000 }).toContain("✅");
    expect(await keyOfUser(h.db, r)).toBeUndefined();
    for (const d of "4826") {
      const before = labelsOf(r, pad.message_id)
        .filter((l) => l.startsWith("🔒"))
        .join();
      h.tap(r, messageOf(r, pad.message_id), new RegExp(`^${d}$`));
      await expect
        .poll(
          () =>
            labelsOf(r, pad.message_id)
              .filter((l) => l.startsWith("🔒"))
              .join(),
          {
            timeout: 8_000,
          },
        )
        .not.toBe(before);
    }
    h.tap(r, messageOf(r, pad.message_id), /^✅$/);
    const secrets = await h.waitMessage(r, /Kunci API kamu/, none.message_id);
    expect(copyTexts(secrets)["📋 api_id"]).toBe((await keyOfUser(h.db, r))!.apiId);
  });

  /** types digits on the keypad a message carries, each after the last one landed */
  async function typePin(u: number, id: number, digits: string): Promise<void> {
    const header = () =>
      labelsOf(u, id)
        .filter((l) => l.startsWith("🔒"))
        .join();
    await expect.poll(header, { timeout: 8_000 }).toMatch(/^🔒 PIN ○/);
    for (const d of digits) {
      const before = header();
      h.tap(u, messageOf(u, id), new RegExp(`^${d}$`));
      await expect.poll(header, { timeout: 8_000 }).not.toBe(before);
    }
    h.tap(u, messageOf(u, id), /^✅$/);
  }

  it("with a wallet PIN, the callback URL and results in chat change only after it", async () => {
    const r = 6_011;
    h.user(r);
    await setTier(h.db, r, "reseller");
    const issued = await createKey(h.db, box, r);
    if (!issued.ok) throw new Error(issued.reason);
    await setPin(h.db, r, "5173");
    // /api callback: a keypad first; nothing changes before the PIN
    const ask = await h.waitMessage(
      r,
      /Ubah alamat callback ke https:\/\/other\.example\/steal/,
      h.say(r, "/api callback https://other.example/steal"),
    );
    expect(labels(ask)).toContain("✅");
    expect((await keyOfUser(h.db, r))!.callbackUrl).toBeNull();
    await typePin(r, ask.message_id, "5173");
    await h.waitEdit(r, ask.message_id, /Callback: https:\/\/other\.example\/steal/);
    expect((await keyOfUser(h.db, r))!.callbackUrl).toBe("https://other.example/steal");

    // the results-in-chat switch: a keypad on the card, and only the PIN switches it
    const status = await h.waitMessage(r, /Hasil H2H di chat/, h.say(r, "/api"));
    const before = (await keyOfUser(h.db, r))!.chatResults;
    h.tap(r, status, /hasil ke chat/);
    await expect.poll(() => labelsOf(r, status.message_id), { timeout: 8_000 }).toContain("✅");
    expect((await keyOfUser(h.db, r))!.chatResults).toBe(before);
    await typePin(r, status.message_id, "5173");
    await expect
      .poll(async () => (await keyOfUser(h.db, r))!.chatResults, { timeout: 8_000 })
      .toBe(!before);
  });

  it("/api callback sets where results are POSTed: https only, no private addresses", async () => {
    const r = 6_003;
    h.user(r);
    await setTier(h.db, r, "reseller");
    await h.waitMessage(
      r,
      /Buat kunci API dulu/,
      h.say(r, "/api callback https://reseller.example/cb"),
    );
    const none = await h.waitMessage(r, /belum punya kunci API/, h.say(r, "/api"));
    h.tap(r, none, /Buat kunci API/);
    await h.waitEdit(r, none.message_id, /Status: aktif/);
    await h.waitMessage(
      r,
      /^URL callback ditolak: harus https\.$/,
      h.say(r, "/api callback http://reseller.example/cb"),
    );
    await h.waitMessage(
      r,
      /^URL callback ditolak: tidak boleh alamat privat, loopback atau link-local\.$/,
      h.say(r, "/api callback https://10.0.0.8/cb"),
    );
    const set = await h.waitMessage(
      r,
      /Callback: https:\/\/reseller\.example\/cb/,
      h.say(r, "/api callback https://reseller.example/cb"),
    );
    expect(set.text).toContain("Status: aktif");
    // the switch in the chat's language, not the code's "on"/"off"
    const chat = (await keyOfUser(h.db, r))!.chatResults ? "aktif" : "mati";
    expect(set.text).toContain(`Hasil H2H di chat: ${chat}`);
    expect((await keyOfUser(h.db, r))!.callbackUrl).toBe("https://reseller.example/cb");
    await h.waitMessage(r, /Callback: —/, h.say(r, "/api callback none"));
    await h.waitMessage(r, /Pakai \/api/, h.say(r, "/api whatever"));
  });

  it("failed callbacks: the reseller sees theirs in /api, an admin sees everyone's", async () => {
    const r = 6_004;
    h.user(r);
    await setTier(h.db, r, "reseller");
    await h.fund(r, 100_000);
    const issued = await createKey(h.db, box, r);
    if (!issued.ok) throw new Error(issued.reason);
    const key = (await keyOfUser(h.db, r))!;
    await updateKeySettings(h.db, r, { callbackUrl: "https://reseller.example/cb" });
    await placeH2hOrder(
      h.orders,
      { userId: r, keyId: key.id },
      {
        cmd: "prepaid",
        code: "TSEL10",
        customerNo: "081234555901",
        refId: "FAILCB-1",
      },
    );
    const deps = {
      db: h.db,
      box,
      clock: h.clock,
      logger: h.logger,
      policy: { allowLoopbackHttp: false },
    };
    await queueFinalCallbacks(deps);
    await deliverDueCallbacks({
      ...deps,
      post: async () => ({ ok: false, status: 502, error: "HTTP 502" }),
    });
    const mine = await h.waitMessage(r, /Callback gagal terakhir/, h.say(r, "/api"));
    // the delivery's diagnostic in the shop's language, not the log's English
    expect(mine.text).toMatch(/FAILCB-1: server menjawab HTTP 502/);
    h.user(ADMIN_ID);
    const admin = await h.waitMessage(ADMIN_ID, /semua reseller/, h.say(ADMIN_ID, "/api"));
    expect(admin.text).toMatch(/FAILCB-1: server menjawab HTTP 502/);
  });
});

describe("/api in a shop without H2H_ENCRYPTION_KEY", () => {
  let h: BotHarness;
  beforeAll(async () => {
    h = await startBotHarness();
  });
  afterAll(() => h?.stop());

  it("tells an admin how to turn it on, and a reseller only that it is off", async () => {
    h.user(ADMIN_ID);
    const admin = await h.waitMessage(ADMIN_ID, /belum aktif/, h.say(ADMIN_ID, "/api"));
    expect(admin.text).toContain("openssl rand -hex 32");
    expect(admin.text).toContain("H2H_ENCRYPTION_KEY");

    const r = 6_101;
    h.user(r);
    await setTier(h.db, r, "reseller");
    const reseller = await h.waitMessage(r, /belum aktif/, h.say(r, "/api"));
    expect(reseller.text).not.toContain("openssl");
    expect(reseller.text).not.toContain("H2H_ENCRYPTION_KEY");
  });
});
