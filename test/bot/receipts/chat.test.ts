import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { airtimeCard } from "../../e2e/steps.ts";
import { labels } from "../../helpers/chat-driver.ts";
import { testDriver } from "../../helpers/db.ts";
import { type Journey, startJourney } from "../../helpers/e2e.ts";

// 🧾 Struk under a successful purchase: the receipt comes as a picture in reply to it, with
// the shop's name (SHOP_NAME).

describe(`receipts in chat (${testDriver})`, () => {
  let j: Journey;
  beforeAll(async () => {
    j = await startJourney({ env: { SHOP_NAME: "Toko Sari" } });
  });
  afterAll(() => j?.stop());

  it("a successful order offers 🧾 Struk; a failed one does not", async () => {
    const u = 74_001;
    j.user(u);
    await j.fund(u, 50_000);
    const card = await airtimeCard(j, u, "081234567901");
    j.tap(u, card, /Bayar/);
    const done = await j.waitEdit(u, card.message_id, /Berhasil/);
    expect(labels(done)).toEqual(["📋 Salin SN", "🧾 Struk"]);

    j.tap(u, done, /Struk/);
    const receipt = await j.telegram.waitFor(
      u,
      (v) =>
        v.messages.some((m) => m.sender === "bot" && m.photo && m.message_id > done.message_id),
      20_000,
    );
    const photo = receipt.messages.find((m) => m.photo && m.message_id > done.message_id)!;
    expect(photo.reply_to_message_id).toBe(done.message_id);
    const file = await fetch(`${j.telegram.url}/control/files/${photo.photo!.at(-1)!.file_id}`);
    const png = Buffer.from(await file.arrayBuffer());
    expect(png.subarray(1, 4).toString("latin1")).toBe("PNG");
    expect(png.length).toBeLessThan(100 * 1024);

    // one receipt: the one asked for (a customer's do not come by themselves)
    await new Promise((r) => setTimeout(r, 1_000));
    expect(j.chat(u).messages.filter((m) => m.photo)).toHaveLength(1);

    const failed = await airtimeCard(j, u, "081234567902");
    j.tap(u, failed, /Bayar/);
    const gagal = await j.waitEdit(u, failed.message_id, /Gagal/);
    expect(labels(gagal)).toEqual([]);
  });
});
