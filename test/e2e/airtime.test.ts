import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { walletBalance } from "../../src/commerce/wallet/ledger.ts";
import { testDriver } from "../helpers/db.ts";
import { type Journey, startJourney } from "../helpers/e2e.ts";

describe(`journey: buy airtime (${testDriver})`, () => {
  let j: Journey;
  beforeAll(async () => {
    j = await startJourney();
  });
  afterAll(() => j?.stop());

  it("a customer buys pulsa and receives the SN in the message they paid from", async () => {
    const u = 61_001;
    j.user(u);
    await j.fund(u, 100_000);
    const at = j.say(u, "/start");
    const menu = await j.waitMessage(u, /Halo/, at);
    j.tap(u, menu, /Pulsa & Data/);
    await j.waitMessage(u, /nomor HP/, menu.message_id);
    const typed = j.say(u, "0812 3456 7901");
    const which = await j.waitMessage(u, /pulsa atau paket data/, typed);
    j.tap(u, which, /^Pulsa$/);
    const list = await j.waitMessage(u, /Pulsa Telkomsel untuk 081234567901/, which.message_id);
    await j.tapItem(u, list, /^Telkomsel 10\.000 ·/);
    const card = await j.waitMessage(u, /Konfirmasi pembelian/, list.message_id);
    const price = Number(/Harga: Rp([\d.]+)/.exec(card.text ?? "")?.[1]?.replaceAll(".", ""));
    j.tap(u, card, /Bayar/);
    const done = await j.waitEdit(u, card.message_id, /✅/);
    expect(done.text).toMatch(/SN/);
    expect(await walletBalance(j.app.app.database.db, u)).toBe(100_000 - price);
  });
});
