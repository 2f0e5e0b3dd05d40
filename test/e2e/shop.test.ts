import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { findUser } from "../../src/commerce/users.ts";
import { labels } from "../helpers/chat-driver.ts";
import { testDriver } from "../helpers/db.ts";
import { E2E_ADMIN, type Journey, startJourney } from "../helpers/e2e.ts";
import { resultDelivered } from "../helpers/outbox.ts";
import {
  airtimeCard,
  callbacksFor,
  expectMoney,
  formatRupiah,
  lastOrder,
  rupiahOf,
} from "./steps.ts";

// issue 6, "walk, as a user would": an order only polling settles, the reseller's wallet,
// and the owner's side (supplier balance, credits, confirming a deposit), on kios's full
// start-up. Each journey has its own user; the money is checked after each.

describe(`journeys: polling, resellers, the owner (${testDriver})`, () => {
  let j: Journey;
  const A = E2E_ADMIN;
  beforeAll(async () => {
    j = await startJourney({ env: { PAYMENT_GATEWAY: "none" } }); // the manual transfer: no QR gateway
    // a bot can't write first: the owner has opened it once
    j.user(A, { first_name: "Owner" });
    await j.waitMessage(A, /Halo Owner/, j.say(A, "/start"));
  });
  afterAll(() => j?.stop());

  async function admin(text: string, re: RegExp) {
    const at = j.say(A, text);
    return j.waitMessage(A, re, at);
  }

  it("an admin who opens the bot after kios started gets the admin command menu", async () => {
    // at start Telegram refused this admin's menu (they had never opened the bot); their
    // first /start, in beforeAll, sets it
    await expect
      .poll(() => j.telegram.commandsFor(A).map((c) => c.command), { timeout: 10_000 })
      .toEqual(expect.arrayContaining(["balance", "credit", "pending", "start"]));
    // a customer's menu never lists them
    j.user(61_999);
    expect(j.telegram.commandsFor(61_999).map((c) => c.command)).not.toContain("balance");
  });

  it("an order whose callback never comes is settled by the resolver's status poll", async () => {
    const u = 63_001;
    j.user(u);
    await j.fund(u, 50_000);
    const card = await airtimeCard(j, u, "081234567905");
    const price = rupiahOf(card.text, "Harga");
    j.tap(u, card, /Bayar/);
    const waiting = await j.waitEdit(u, card.message_id, /⏳ Diproses/);
    expect(waiting.text).toContain("Hasilnya akan muncul di pesan ini.");
    // the first status check runs about 5 s after the order; allow for a slow machine
    const settled = await j.telegram.waitFor(
      u,
      (c) =>
        /✅ Berhasil/.test(c.messages.find((m) => m.message_id === card.message_id)?.text ?? ""),
      30_000,
    );
    const done = settled.messages.find((m) => m.message_id === card.message_id)!;
    const order = await lastOrder(j, u);
    expect(order.status).toBe("success");
    expect(done.text).toContain(`SN: ${order.sn}`);
    // the card in view shows the result in place: no separate notice
    await resultDelivered(j.app.app.database.db, order.id);
    expect(j.chat(u).messages.filter((m) => m.message_id > card.message_id)).toEqual([]);
    // nothing came from the supplier: only the status poll knew
    expect(await callbacksFor(j, order.refId)).toEqual([]);
    await expectMoney(j, u, 50_000 - price);
  }, 45_000);

  it("a reseller (made so by /role) quick-orders and sees balance and today's spend in /saldo", async () => {
    const r = 63_002;
    j.user(r, { first_name: "Rina" });
    await j.waitMessage(r, /Halo Rina/, j.say(r, "/start"));
    const role = await admin(`/role ${r} reseller`, /sekarang/);
    expect(role.text).toBe(`✅ User ${r} sekarang reseller.`);
    expect((await findUser(j.app.app.database.db, r))?.tier).toBe("reseller");
    await j.fund(r, 100_000);

    let at = j.say(r, "TSEL10.081234567901");
    const card = await j.waitMessage(r, /Konfirmasi pembelian/, at);
    const price = rupiahOf(card.text, "Harga");
    j.tap(r, card, /Bayar/);
    await j.waitEdit(r, card.message_id, /✅ Berhasil/);
    // a failed order is refunded and is not spend
    at = j.say(r, "TSEL10.081234567902");
    const failing = await j.waitMessage(r, /Konfirmasi pembelian/, at);
    j.tap(r, failing, /Bayar/);
    await j.waitEdit(r, failing.message_id, /❌ Gagal/);

    at = j.say(r, "/saldo");
    const saldo = await j.waitMessage(r, /Saldo kamu/, at);
    expect(saldo.text).toBe(
      [
        `💰 Saldo kamu: ${formatRupiah(100_000 - price)}`,
        `Belanja hari ini: ${formatRupiah(price)}`,
        "Isi saldo: /deposit <jumlah>, misalnya /deposit 100000.",
      ].join("\n"),
    );
    expect(labels(saldo)).toEqual(["💳 Isi saldo"]);
    await expectMoney(j, r, 100_000 - price);
  });

  it("the owner's /balance shows the supplier balance", async () => {
    const sandbox = j.app.app.supplier!.sandbox!;
    const balance = sandbox.account().balance;
    // the orders above were charged at the supplier
    expect(balance).toBeLessThan(5_000_000);
    const m = await admin("/balance", /Saldo supplier/);
    const [now, ...rest] = (m.text ?? "").split("\n");
    expect(now).toMatch(
      new RegExp(
        `^🏦 Saldo supplier: ${formatRupiah(balance).replaceAll(".", "\\.")} \\(jawaban supplier barusan, \\d\\d:\\d\\d WIB\\)$`,
      ),
    );
    // the shop's own balance check may have run since the start (its schedule, on a busy
    // machine): then its line follows, and nothing else does
    expect(
      rest.every((line) => /^(Cek|Bacaan) terakhir #\d+ \(/.test(line)),
      m.text,
    ).toBe(true);
    expect(rest.length).toBeLessThanOrEqual(1);
  });

  it("the owner's /balance passes on a supplier's deprecation warning", async () => {
    const sandbox = j.app.app.supplier!.sandbox!;
    sandbox.deprecationWarning = "v1 retires on 1 March 2027; move to v2";
    try {
      const m = await admin("/balance", /Pemberitahuan supplier/);
      expect(m.text).toContain(
        "⚠️ Pemberitahuan supplier: POST /balance: v1 retires on 1 March 2027; move to v2",
      );
    } finally {
      sandbox.deprecationWarning = undefined;
    }
  });

  it("the owner's /credit grows a user's wallet through the ledger and tells them", async () => {
    const u = 63_003;
    j.user(u);
    await j.waitMessage(u, /Halo/, j.say(u, "/start"));
    await j.fund(u, 5_000);
    const m = await admin(`/credit ${u} 25.000 transfer BCA`, /ditambah/);
    expect(m.text).toBe(`✅ Saldo user ${u} ditambah Rp25.000. Saldo: Rp30.000`);
    const told = await j.waitMessage(u, /oleh admin/);
    expect(told.text).toBe(
      "💰 Saldo kamu ditambah Rp25.000 oleh admin (catatan: transfer BCA). Saldo sekarang Rp30.000.",
    );
    await expectMoney(j, u, 30_000);
  });

  it("a deposit asked with /deposit 50000 and confirmed by the owner from their notice", async () => {
    const u = 63_004;
    j.user(u, { first_name: "Sari", username: "sari" });
    const at = j.say(u, "/deposit 50000");
    const request = await j.waitMessage(u, /Permintaan isi saldo/, at);
    expect(request.text).toMatch(/^💳 Permintaan isi saldo D[A-Z0-9]{7}\nJumlah: Rp50\.000\n/);
    const pay = rupiahOf(request.text, "Transfer tepat");
    expect(pay).toBeGreaterThanOrEqual(50_000);
    expect(pay).toBeLessThan(51_000);
    const reference = /isi saldo (D[A-Z0-9]{7})/.exec(request.text!)![1]!;
    await expectMoney(j, u, 0);

    const notice = await j.waitMessage(A, new RegExp(`Ref: ${reference}`));
    expect(notice.text).toContain(`Dari: Sari (@sari, ${u})`);
    expect(notice.text).toContain(`Jumlah: Rp50.000 · transfer ${formatRupiah(pay)}`);
    expect(notice.text).toContain("Status: menunggu");
    j.tap(A, notice, /Konfirmasi/);
    const decided = await j.waitEdit(A, notice.message_id, /Status: ✅ dikonfirmasi/);
    expect(decided.reply_markup).toBeUndefined();
    expect(await j.waitToast(A, /Dikonfirmasi/)).toBe("Dikonfirmasi, saldo user ditambah.");

    const told = await j.waitMessage(u, /berhasil/, request.message_id);
    expect(told.text).toBe(
      `✅ Isi saldo ${formatRupiah(pay)} (${reference}) berhasil. Saldo sekarang ${formatRupiah(pay)}.`,
    );
    await expectMoney(j, u, pay);
  });
});
