import { eq } from "drizzle-orm";
import type { Update } from "grammy/types";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { deleteDueMessages } from "../../../src/bot/service.ts";
import { dueMessages } from "../../../src/bot/storage/expiring.ts";
import { centerKeyOfUser, openCenterKey } from "../../../src/commerce/center/keys.ts";
import { createSecretBox } from "../../../src/commerce/h2h/cipher.ts";
import { setTier } from "../../../src/commerce/users.ts";
import { setFirstPin } from "../../../src/commerce/wallet/pin.ts";
import { telegramUpdates } from "../../../src/db/schema.ts";
import { type BotHarness, copyTexts, labels, startBotHarness } from "../../helpers/bot.ts";
import { findInDatabase } from "../../helpers/secrets.ts";

// /api center: the OtomaX door's credentials in the chat, the operations of
// `kios center-key` (show, create, rotate, revoke, report URL, IPs), each behind the PIN;
// the pin and password shown once, in a message deleted after a minute

const box = createSecretBox("bot-center-key-test-h2h-key-0123456789");

describe("/api center", () => {
  let h: BotHarness;
  beforeAll(async () => {
    h = await startBotHarness({
      h2h: { box, apiUrl: "https://shop.example/h2h/v1", allowLoopbackHttp: false },
    });
  });
  afterAll(() => h?.stop());

  const messageOf = (u: number, id: number) => h.chat(u).messages.find((m) => m.message_id === id)!;
  const header = (u: number, id: number) =>
    labels(messageOf(u, id))
      .filter((l) => l.startsWith("🔒"))
      .join();

  /** types digits on the keypad a message carries, each after the last one landed */
  async function typePin(u: number, id: number, digits: string): Promise<void> {
    await expect.poll(() => header(u, id), { timeout: 8_000 }).toMatch(/^🔒 PIN ○/);
    for (const d of digits) {
      const before = header(u, id);
      h.tap(u, messageOf(u, id), new RegExp(`^${d}$`));
      await expect.poll(() => header(u, id), { timeout: 8_000 }).not.toBe(before);
    }
    h.tap(u, messageOf(u, id), /^✅$/);
  }

  it("create, report URL and IPs, rotate and revoke, each only after the PIN", async () => {
    const r = 6_101;
    h.user(r);
    await setTier(h.db, r, "reseller");
    await setFirstPin(h.db, r, "4826");
    const none = await h.waitMessage(r, /belum punya akses pusat/, h.say(r, "/api center"));
    h.tap(r, none, /Buat akses pusat/);
    await expect
      .poll(() => labels(messageOf(r, none.message_id)), { timeout: 8_000 })
      .toContain("✅");
    expect(await centerKeyOfUser(h.db, r)).toBeUndefined();
    await typePin(r, none.message_id, "4826");
    const secrets = await h.waitMessage(r, /Akses pusat kamu/, none.message_id);
    const key = (await centerKeyOfUser(h.db, r))!;
    const opened = openCenterKey(box, key);
    expect(copyTexts(secrets)).toEqual({
      "📋 memberID": key.memberId,
      "📋 pin": opened.pin,
      "📋 password": opened.password,
    });
    // deleted after a minute, not before (its row is written just after it is sent)
    const later = () => new Date(h.clock.now() + 3_600_000);
    await expect.poll(async () => (await dueMessages(h.db, later())).length).toBe(1);
    expect(await deleteDueMessages(h.bot.api, h.db, new Date(h.clock.now()))).toBe(0);
    h.clock.advance(60_000);
    expect(await deleteDueMessages(h.bot.api, h.db, new Date(h.clock.now()))).toBe(1);
    expect(messageOf(r, secrets.message_id).deleted).toBe(true);

    // the report URL: the URL rules, then the PIN
    const refused = await h.waitMessage(
      r,
      /ditolak/,
      h.say(r, "/api center report http://10.0.0.1/x"),
    );
    // the URL rule's reason in the chat's language, never the commerce layer's English
    expect(refused.text).toBe("URL callback ditolak: harus https.");
    const ask = await h.waitMessage(
      r,
      /URL laporan ke https:\/\/reseller\.example\/report/,
      h.say(r, "/api center report https://reseller.example/report"),
    );
    expect((await centerKeyOfUser(h.db, r))!.reportUrl).toBeNull();
    await typePin(r, ask.message_id, "4826");
    await h.waitEdit(r, ask.message_id, /URL laporan: https:\/\/reseller\.example\/report/);
    const ips = await h.waitMessage(
      r,
      /Izinkan hanya IP/,
      h.say(r, "/api center ips 203.0.113.7,203.0.113.8"),
    );
    await typePin(r, ips.message_id, "4826");
    await h.waitEdit(r, ips.message_id, /IP yang diizinkan: 203\.0\.113\.7, 203\.0\.113\.8/);
    expect((await centerKeyOfUser(h.db, r))!.ipAllowlist).toEqual(["203.0.113.7", "203.0.113.8"]);

    // rotate: a new pin and password, behind the PIN
    const status = await h.waitMessage(r, /memberID:/, h.say(r, "/api center"));
    h.tap(r, status, /Ganti kunci/);
    await typePin(r, status.message_id, "4826");
    const again = await h.waitMessage(r, /Akses pusat kamu/, status.message_id);
    expect(copyTexts(again)["📋 memberID"]).toBe(key.memberId);
    expect(copyTexts(again)["📋 password"]).not.toBe(opened.password);
    // revoke
    const last = await h.waitMessage(r, /memberID:/, h.say(r, "/api center"));
    h.tap(r, last, /Cabut/);
    await typePin(r, last.message_id, "4826");
    await h.waitToast(r, /Akses pusat dicabut/);
    expect((await centerKeyOfUser(h.db, r))!.revokedAt).not.toBeNull();
  });

  it("a reply quoting the credentials' message stores none of them: the quoted message's ids only", async () => {
    const r = 6_103;
    h.user(r);
    await setTier(h.db, r, "reseller");
    await setFirstPin(h.db, r, "4826");
    const none = await h.waitMessage(r, /belum punya akses pusat/, h.say(r, "/api center"));
    h.tap(r, none, /Buat akses pusat/);
    await typePin(r, none.message_id, "4826");
    const secrets = await h.waitMessage(r, /Akses pusat kamu/, none.message_id);
    const { pin, password } = openCenterKey(box, (await centerKeyOfUser(h.db, r))!);
    // Telegram sends the quoted message whole: its text and its copy buttons
    const sent = h.telegram.sendText(r, "ini dipakai di mana?", { replyTo: secrets.message_id });
    expect(JSON.stringify(sent.message.reply_to_message)).toContain(password);
    await h.waitMessage(r, /./, sent.message.message_id);
    const [row] = await h.db
      .select({ payload: telegramUpdates.payload })
      .from(telegramUpdates)
      .where(eq(telegramUpdates.updateId, sent.update_id ?? -1));
    const stored = (row!.payload as Update).message!;
    expect(stored.text).toBe("ini dipakai di mana?");
    expect(stored.reply_to_message).toEqual({
      message_id: secrets.message_id,
      date: expect.any(Number),
      chat: expect.objectContaining({ id: r }),
      from: expect.objectContaining({ is_bot: true }),
    });
    expect(JSON.stringify(row)).not.toContain(pin);
    expect(JSON.stringify(row)).not.toContain(password);
    expect(await findInDatabase(h.db, password)).toEqual([]);
  });

  it("a customer is told it is for resellers", async () => {
    const c = 6_102;
    h.user(c);
    await h.waitMessage(c, /hanya untuk reseller/, h.say(c, "/api center"));
  });
});
