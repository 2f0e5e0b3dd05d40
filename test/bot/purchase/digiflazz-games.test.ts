import {
  DIGIFLAZZ_SANDBOX_ACCOUNT,
  type PrepaidItem,
  type RunningDigiflazzSandbox,
  startDigiflazzSandbox,
} from "@kios/digiflazz-sandbox";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { linkSupplierCatalogue } from "../../../src/commerce/catalogue/link.ts";
import { listUserOrders } from "../../../src/commerce/orders/queries.ts";
import { products } from "../../../src/db/schema.ts";
import { createDigiflazzSupplier } from "../../../src/supplier/digiflazz/client.ts";
import { type BotHarness, startBotHarness } from "../../helpers/bot.ts";

// a game only Digiflazz sells (docs/suppliers.md#games-at-digiflazz): Digiflazz has no game
// list, its games are prepaid items, and not every one is in its category "Games" (a game's
// shells in "Voucher", a region's top-ups in a region's category). kios reads them as games
// by their category or their game's brand, so they are where a buyer looks: the games menu

function item(
  sku: string,
  name: string,
  category: string,
  brand: string,
  price: number,
): PrepaidItem {
  return {
    product_name: name,
    category,
    brand,
    type: "Umum",
    seller_name: "SANDBOX SELLER",
    price,
    buyer_sku_code: sku,
    buyer_product_status: true,
    seller_product_status: true,
    unlimited_stock: true,
    stock: 0,
    multi: true,
    start_cut_off: "0:0",
    end_cut_off: "0:0",
    desc: name,
  };
}

describe("a game only Digiflazz sells, in the games menu", { timeout: 120_000 }, () => {
  let h: BotHarness;
  let digiflazz: RunningDigiflazzSandbox;
  beforeAll(async () => {
    h = await startBotHarness();
    digiflazz = await startDigiflazzSandbox({
      clock: h.clock,
      settleDelayMs: 60 * 60_000,
      prepaid: [
        // a game the main sandbox does not sell, where Digiflazz lists games
        item("hd30m", "Higgs Domino 30M Koin", "Games", "HIGGS DOMINO", 6_000),
        // a game's top-up in another of Digiflazz's categories: known by its game's brand
        item("garena33", "Garena 33 Shell", "Voucher", "GARENA", 9_000),
        // not a game: a store's voucher stays a prepaid product
        item("gplay20", "Google Play 20.000", "Voucher", "GOOGLE PLAY INDONESIA", 20_500),
      ],
    });
    const backup = createDigiflazzSupplier({
      baseUrl: digiflazz.url,
      username: DIGIFLAZZ_SANDBOX_ACCOUNT.username,
      apiKey: DIGIFLAZZ_SANDBOX_ACCOUNT.apiKey,
      clock: h.clock,
      readRetries: 0,
    });
    h.orders.firstSupplier = "main";
    h.orders.suppliers = new Map([["backup", backup]]);
    await linkSupplierCatalogue(h.db, { name: "backup", supplier: backup, firstSupplier: "main" });
  });
  afterAll(async () => {
    await h?.stop();
    await digiflazz?.stop();
  });

  it("is a kios product of type game, in category Games; a store voucher is not", async () => {
    const made = await h.db
      .select({ code: products.code, type: products.type, category: products.category })
      .from(products)
      .where(eq(products.originSupplier, "backup"));
    expect(made.sort((a, b) => a.code.localeCompare(b.code))).toEqual([
      { code: "GARENA33", type: "game", category: "Games" },
      { code: "GPLAY20", type: "prepaid", category: "Voucher" },
      { code: "HD30M", type: "game", category: "Games" },
    ]);
  });

  it("is listed in the games menu and bought from Digiflazz in one tap", async () => {
    const u = 4701;
    h.user(u);
    await h.fund(u, 100_000);
    const at = h.say(u, "/start");
    const menu = await h.waitMessage(u, /Halo/, at);
    h.tap(u, menu, /Voucher Game/);
    const games = await h.waitMessage(u, /Pilih game/, menu.message_id);
    await h.tapItem(u, games, /^Garena$/);
    const items = await h.waitMessage(u, /Pilih item Garena/, games.message_id);
    expect(items.text ?? "").not.toContain("Google Play");
    h.tap(u, items, "i:0");
    await h.waitMessage(u, /Masukkan ID akun Garena/, items.message_id);
    const said = h.say(u, "12345678");
    const card = await h.waitMessage(u, /Konfirmasi pembelian/, said);
    expect(card.text).toContain("Garena 33 Shell");
    h.tap(u, card, /Bayar/);
    await h.waitEdit(u, card.message_id, /Berhasil/);
    const [order] = (await listUserOrders(h.db, u, { limit: 1, offset: 0 })).items;
    expect(order).toMatchObject({ status: "success", supplier: "backup", productCode: "GARENA33" });
    expect(digiflazz.state.requests.filter((b) => b.ref_id === order!.refId)).toHaveLength(1);
  });
});
