import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { routesOfCode } from "../../../src/commerce/catalogue/routes.ts";
import { productRoutes, unlinkedSupplierProducts } from "../../../src/db/schema.ts";
import { ADMIN_ID, type BotHarness, startBotHarness } from "../../helpers/bot.ts";

// /routes <product>: its routes in the order they are tried, with buttons to move and
// switch them (docs/suppliers.md#routes)

describe("/routes", () => {
  let h: BotHarness;
  const A = ADMIN_ID;
  beforeAll(async () => {
    h = await startBotHarness();
    h.user(A, { first_name: "Owner" });
    await h.waitMessage(A, /Halo Owner/, h.say(A, "/start"));
    // a backup route, as a sync of a second supplier would link it
    await h.db.insert(productRoutes).values({
      productCode: "TSEL10",
      supplier: "backup",
      supplierCode: "BTSEL10",
      name: "Telkomsel 10.000",
      cost: 10_000,
      active: true,
      position: 1,
    });
  });
  afterAll(() => h?.stop());

  it("lists the routes, moves the backup up, and switches it off", async () => {
    const m = await h.waitMessage(A, /Rute/, h.say(A, "/routes tsel10"));
    expect(m.text).toMatch(
      /1\. main · TSEL10 · Rp[\d.]+ · aktif\n2\. backup · BTSEL10 · Rp10\.000 · aktif/,
    );
    h.tap(A, m, /⬆️ backup/);
    const moved = await h.waitEdit(A, m.message_id, /1\. backup/);
    expect(moved.text).toMatch(/1\. backup · BTSEL10 · Rp10\.000 · aktif\n2\. main/);
    const routes = await routesOfCode(h.db, "TSEL10", "main");
    expect(routes?.map((r) => r.supplier)).toEqual(["backup", "main"]);
    h.tap(A, moved, /⏸/);
    await h.waitEdit(A, m.message_id, /backup · BTSEL10 · Rp10\.000 · dimatikan/);
  });

  it("shows a route paused for failing until when", async () => {
    await h.db
      .update(productRoutes)
      .set({ enabled: true, pausedUntil: new Date(h.clock.now() + 30 * 60_000) })
      .where(and(eq(productRoutes.productCode, "TSEL10"), eq(productRoutes.supplier, "backup")));
    const m = await h.waitMessage(A, /Rute/, h.say(A, "/routes TSEL10"));
    expect(m.text).toMatch(/backup · BTSEL10 · Rp10\.000 · dijeda sampai \d\d:\d\d/);
  });

  it("/routeorder switches to cost order, /routes says so, and a move is refused until manual again", async () => {
    await h.waitMessage(A, /urutan <b>manual<\/b>|urutan manual/, h.say(A, "/routeorder"));
    await h.db
      .update(productRoutes)
      .set({ enabled: true, pausedUntil: null, cost: 1_000 })
      .where(and(eq(productRoutes.productCode, "TSEL10"), eq(productRoutes.supplier, "backup")));
    // the main dearer than the backup: by cost, the backup goes first
    await h.db
      .update(productRoutes)
      .set({ position: 0 })
      .where(and(eq(productRoutes.productCode, "TSEL10"), eq(productRoutes.supplier, "main")));
    await h.db
      .update(productRoutes)
      .set({ position: 1 })
      .where(and(eq(productRoutes.productCode, "TSEL10"), eq(productRoutes.supplier, "backup")));
    await h.waitMessage(A, /menurut modal/, h.say(A, "/routeorder cost"));
    const m = await h.waitMessage(A, /Rute/, h.say(A, "/routes TSEL10"));
    expect(m.text).toMatch(/1\. backup · BTSEL10 · Rp1\.000 · aktif/);
    expect(m.text).toContain("Urutan: menurut modal");
    h.tap(A, m, /⬆️ main/);
    await h.waitToast(A, /diurutkan menurut modal/);
    expect((await routesOfCode(h.db, "TSEL10", "main"))?.map((r) => r.supplier)).toEqual([
      "backup",
      "main",
    ]);
    await h.waitMessage(A, /Gunakan: \/routeorder/, h.say(A, "/routeorder sometimes"));
    await h.waitMessage(A, /urutan <b>manual<\/b>|urutan manual/, h.say(A, "/routeorder manual"));
    const again = await h.waitMessage(A, /Rute/, h.say(A, "/routes TSEL10"));
    expect(again.text).toContain("Urutan: manual");
  });

  it("says how to use it, and when there is no such product", async () => {
    await h.waitMessage(A, /Gunakan: \/routes/, h.say(A, "/routes"));
    await h.waitMessage(A, /Tidak ada produk NOPE/, h.say(A, "/routes nope"));
  });

  it("/unlinked lists what waits for a link, /link links it, and says what is wrong", async () => {
    await h.waitMessage(A, /Semua produk pemasok lain sudah tertaut/, h.say(A, "/unlinked"));
    await h.db.insert(unlinkedSupplierProducts).values({
      supplier: "backup",
      supplierCode: "BISAT10",
      name: "Indosat 10.000",
      brand: "INDOSAT",
      category: "Pulsa",
      candidates: ["ISAT10", "ISAT10-TWIN"],
      cost: 10_200,
      active: true,
    });
    const listed = await h.waitMessage(A, /menunggu ditautkan/, h.say(A, "/unlinked backup"));
    expect(listed.text).toContain(
      "backup · BISAT10 · Indosat 10.000 · Rp10.200: cocok dengan ISAT10, ISAT10-TWIN",
    );
    await h.waitMessage(A, /Gunakan: \/link/, h.say(A, "/link ISAT10"));
    await h.waitMessage(A, /tidak sedang menunggu/, h.say(A, "/link ISAT10 backup BNOPE"));
    const linked = await h.waitMessage(A, /Rute/, h.say(A, "/link isat10 backup BISAT10"));
    expect(linked.text).toMatch(
      /1\. main · ISAT10 · Rp[\d.]+ · aktif\n2\. backup · BISAT10 · Rp10\.200 · aktif/,
    );
    await h.waitMessage(A, /Semua produk pemasok lain/, h.say(A, "/unlinked"));
  });
});
