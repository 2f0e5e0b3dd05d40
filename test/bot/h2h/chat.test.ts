import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createSecretBox } from "../../../src/commerce/h2h/cipher.ts";
import { createKey, keyOfUser, updateKeySettings } from "../../../src/commerce/h2h/keys.ts";
import { placeH2hOrder } from "../../../src/commerce/h2h/orders.ts";
import { listUserOrders } from "../../../src/commerce/orders/queries.ts";
import { setTier } from "../../../src/commerce/users.ts";
import { type BotHarness, startBotHarness } from "../../helpers/bot.ts";

// the chat stays in the loop (docs/h2h.md#chat): H2H results come to the reseller's chat only
// when their key asks; /riwayat lists H2H orders; /saldo shows what the server spent today.

describe("H2H orders in the reseller's chat", () => {
  let h: BotHarness;
  beforeAll(async () => {
    h = await startBotHarness();
  });
  afterAll(() => h?.stop());

  it("results stay out of the chat by default, come in when asked; /saldo and /riwayat show them", async () => {
    const r = 5_501;
    h.user(r);
    await h.fund(r, 100_000);
    await setTier(h.db, r, "reseller");
    const issued = await createKey(
      h.db,
      createSecretBox("bot-test-h2h-key-0123456789abcdefghij"),
      r,
    );
    if (!issued.ok) throw new Error(issued.reason);
    // the reseller has talked to the bot: it could write to them
    await h.waitMessage(r, /Halo/, h.say(r, "/start"));
    const key = await keyOfUser(h.db, r);
    const caller = { userId: r, keyId: key!.id };

    const quiet = await placeH2hOrder(h.orders, caller, {
      cmd: "prepaid",
      code: "TSEL10",
      customerNo: "081234567901",
      refId: "srv-1",
    });
    expect(quiet).toMatchObject({ ok: true, order: { status: "success" } });
    const before = h.chat(r).messages.length;
    await h.pump();
    expect(h.chat(r).messages.length).toBe(before);

    await updateKeySettings(h.db, r, { chatResults: true });
    const loud = await placeH2hOrder(h.orders, caller, {
      cmd: "prepaid",
      code: "TSEL10",
      customerNo: "081298765901",
      refId: "srv-2",
    });
    expect(loud).toMatchObject({ ok: true, order: { status: "success" } });
    await h.pump();
    const shown = await h.waitMessage(r, /Berhasil/, h.lastId(r) - 1);
    expect(shown.text).toContain("081298765901");

    const at = h.say(r, "/saldo");
    const saldo = await h.waitMessage(r, /Saldo kamu/, at);
    const [first, second] = (await listUserOrders(h.db, r, { limit: 2, offset: 0 })).items;
    const spent = first!.price + second!.price;
    const rp = `Rp${spent.toLocaleString("id-ID")}`;
    expect(saldo.text).toContain(`Belanja hari ini: ${rp}`);
    expect(saldo.text).toContain(`…lewat H2H (API): ${rp}`);

    // the reseller's own ref_id finds the order too
    const byRef = await h.waitMessage(r, /081234567901/, h.say(r, "/status srv-1"));
    expect(byRef.text).toContain(
      first!.destination === "081234567901" ? first!.refId : second!.refId,
    );
    const asked = h.say(r, "/riwayat");
    const history = await h.waitMessage(r, /081298765901/, asked);
    expect(history.text).toContain("081234567901");
  });
});
