import { parse } from "csv-parse/sync";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { airtimeCard, formatRupiah, lastOrder } from "../../e2e/steps.ts";
import { labels } from "../../helpers/chat-driver.ts";
import { testDriver } from "../../helpers/db.ts";
import { E2E_ADMIN, type Journey, startJourney } from "../../helpers/e2e.ts";

// /laporan in chat: the chart as a picture with a summary, its figures as CSV one tap away.

describe(`/laporan in chat (${testDriver})`, () => {
  let j: Journey;
  beforeAll(async () => {
    j = await startJourney({ env: { PAYMENT_GATEWAY: "none" }, adminStarted: true });
  });
  afterAll(() => j?.stop());

  it("sends the chart and, on 📄 CSV, today's figures", async () => {
    const u = 75_001;
    j.user(u);
    await j.fund(u, 50_000);
    const card = await airtimeCard(j, u, "081234567901");
    j.tap(u, card, /Bayar/);
    await j.waitEdit(u, card.message_id, /Berhasil/);
    const order = await lastOrder(j, u);
    const margin = order.price - (order.supplierPrice ?? order.cost);

    let at = j.say(E2E_ADMIN, "/laporan 30");
    const chart = await j.waitMessage(E2E_ADMIN, /📈 30 hari: 1 pesanan, 100% berhasil/, at);
    expect(chart.photo?.length).toBeGreaterThan(0);
    expect(chart.caption).toBe(
      `📈 30 hari: 1 pesanan, 100% berhasil, pendapatan ${formatRupiah(order.price)}, margin ${formatRupiah(margin)}.`,
    );
    expect(labels(chart)).toEqual(["📄 CSV"]);
    j.tap(E2E_ADMIN, chart, /CSV/);
    const doc = await j.telegram.waitFor(
      E2E_ADMIN,
      (v) => v.messages.some((m) => m.document && m.message_id > chart.message_id),
      20_000,
    );
    const file = doc.messages.find((m) => m.document && m.message_id > chart.message_id)!;
    expect(file.document?.file_name).toBe("laporan-30.csv");
    const text = await (
      await fetch(`${j.telegram.url}/control/files/${file.document!.file_id}`)
    ).text();
    const rows = parse(text, { columns: true }) as Record<string, string>[];
    expect(rows).toHaveLength(30);
    expect(rows.at(-1)).toMatchObject({
      orders: "1",
      success: "1",
      revenue: "10400",
      margin: String(margin),
    });

    at = j.say(E2E_ADMIN, "/laporan 12");
    await j.waitMessage(E2E_ADMIN, /Gunakan: \/laporan \[7\|30\|90\]/, at);
  });
});
