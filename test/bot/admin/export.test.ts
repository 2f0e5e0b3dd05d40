import { parse } from "csv-parse/sync";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { airtimeCard, lastOrder } from "../../e2e/steps.ts";
import { testDriver } from "../../helpers/db.ts";
import { E2E_ADMIN, type Journey, startJourney } from "../../helpers/e2e.ts";

// /export <month> in chat: the admin gets the month's orders as a CSV document that parses
// back to them; a bad month gets the usage, an empty one says so, a customer gets nothing.

describe(`/export in chat (${testDriver})`, () => {
  let j: Journey;
  beforeAll(async () => {
    j = await startJourney({ env: { PAYMENT_GATEWAY: "none" }, adminStarted: true });
  });
  afterAll(() => j?.stop());

  /** the WIB month of an instant, as /export takes it */
  const monthOf = (ms: number) => new Date(ms + 7 * 3_600_000).toISOString().slice(0, 7);

  it("sends the month's orders as a CSV document", async () => {
    const u = 73_001;
    j.user(u);
    await j.fund(u, 50_000);
    const card = await airtimeCard(j, u, "081234567901");
    j.tap(u, card, /Bayar/);
    await j.waitEdit(u, card.message_id, /Berhasil/);
    const order = await lastOrder(j, u);

    const month = monthOf(j.clock.now());
    const at = j.say(E2E_ADMIN, `/export ${month}`);
    const doc = await j.waitMessage(E2E_ADMIN, /Pesanan \d{4}-\d{2}: \d+ baris/, at);
    expect(doc.document?.file_name).toBe(`orders-${month}.csv`);
    const file = await fetch(`${j.telegram.url}/control/files/${doc.document!.file_id}`);
    const rows = parse(await file.text(), { columns: true }) as Record<string, string>[];
    const row = rows.find((r) => r.ref_id === order.refId);
    expect(row).toMatchObject({
      status: "success",
      price: String(order.price),
      destination: "081234567901",
    });
    // and where it went: its one attempt, at the first supplier
    expect(JSON.parse(row!.attempts!)).toMatchObject([
      { seq: 1, ref_id: order.refId, supplier_code: "TSEL10", state: "success" },
    ]);
  });

  it("answers a bad or empty month, and not a customer", async () => {
    let at = j.say(E2E_ADMIN, "/export November");
    await j.waitMessage(E2E_ADMIN, /Gunakan: \/export <YYYY-MM>/, at);
    at = j.say(E2E_ADMIN, "/export 2001-01");
    await j.waitMessage(E2E_ADMIN, /Tidak ada pesanan pada 2001-01/, at);
    const u = 73_002;
    j.user(u);
    at = j.say(u, "/export 2026-11");
    await j.waitMessage(u, /Perintah tidak dikenal/, at);
  });
});
