import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { pauseIfFailing } from "../../../src/commerce/catalogue/pauses.ts";
import { products } from "../../../src/db/schema.ts";
import { labels } from "../../helpers/chat-driver.ts";
import { testDriver } from "../../helpers/db.ts";
import { E2E_ADMIN, type Journey, startJourney } from "../../helpers/e2e.ts";

// a product kios paused (the supplier said inactive, or it kept failing) can be opened
// again by an admin before its time is up: from the pause notice, or with /resume CODE.

describe(`reopening a paused product (${testDriver})`, () => {
  let j: Journey;
  beforeAll(async () => {
    j = await startJourney({ env: { PAYMENT_GATEWAY: "none" }, adminStarted: true });
  });
  afterAll(() => j?.stop());

  const db = () => j.app.app.database.db;
  const pausedUntil = async (code: string) =>
    (await db().select().from(products).where(eq(products.code, code)))[0]?.pausedUntil ?? null;
  const pause = (code: string) =>
    pauseIfFailing(db(), {
      productCode: code,
      supplierCode: "PRODUCT_INACTIVE",
      now: new Date(j.clock.now()),
      adminIds: [E2E_ADMIN],
    });

  it("opens it from the pause notice's button", async () => {
    const at = j.lastId(E2E_ADMIN);
    await pause("TSEL25");
    const notice = await j.waitMessage(E2E_ADMIN, /Produk dijeda[\s\S]*TSEL25/, at);
    expect(await pausedUntil("TSEL25")).not.toBeNull();
    expect(labels(notice)).toEqual(["▶️ Buka lagi sekarang"]);
    j.tap(E2E_ADMIN, notice, /Buka lagi/);
    const done = await j.waitEdit(E2E_ADMIN, notice.message_id, /dibuka lagi oleh Owner/);
    expect(labels(done)).toEqual([]);
    expect(await pausedUntil("TSEL25")).toBeNull();
  });

  it("opens it with /resume CODE, and says when there is nothing to open", async () => {
    await pause("TSEL50");
    let at = j.say(E2E_ADMIN, "/resume tsel50");
    await j.waitMessage(E2E_ADMIN, /▶️ TSEL50 dibuka lagi untuk pembeli/, at);
    expect(await pausedUntil("TSEL50")).toBeNull();
    at = j.say(E2E_ADMIN, "/resume TSEL50");
    await j.waitMessage(E2E_ADMIN, /TSEL50 tidak sedang dijeda/, at);
    at = j.say(E2E_ADMIN, "/resume");
    await j.waitMessage(E2E_ADMIN, /Gunakan: \/resume <KODE>/, at);
    const u = 76_002;
    j.user(u);
    at = j.say(u, "/resume TSEL50");
    await j.waitMessage(u, /Perintah tidak dikenal/, at);
  });
});
