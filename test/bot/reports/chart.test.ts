import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { parse } from "csv-parse/sync";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  type ChartLabels,
  chartPng,
  chartSpec,
  chartSvg,
  dailyCsv,
  dayLabel,
} from "../../../src/bot/reports/chart.ts";
import { dailyFigures } from "../../../src/commerce/orders/daily.ts";
import { orders, products, users } from "../../../src/db/schema.ts";
import { createTestDatabase, type TestDatabase, testDriver } from "../../helpers/db.ts";
import { pngSize } from "../../helpers/png.ts";

// /laporan's chart from known data: 30 WIB days of orders, the figures per day and the top
// products, drawn as SVG (the spec's fields are in it) and as a PNG that decodes in bounds.

const NOW = new Date("2026-11-24T05:00:00Z"); // 12:00 WIB
const DAY = 86_400_000;

describe(`the owner's chart (${testDriver})`, () => {
  let t: TestDatabase;
  beforeAll(async () => {
    t = await createTestDatabase();
    const db = t.handle.db;
    await db.insert(users).values({ telegramId: 900 });
    await db.insert(products).values([
      {
        code: "TSEL10",
        name: "Telkomsel 10.000",
        category: "Pulsa",
        brand: "TELKOMSEL",
        type: "prepaid",
        supplierPrice: 10_100,
        active: true,
      },
      {
        code: "PLN50",
        name: "PLN 50.000",
        category: "PLN",
        brand: "PLN",
        type: "prepaid",
        supplierPrice: 50_200,
        active: true,
      },
    ]);
    // day i (0 = 29 days ago … 29 = today): i + 1 orders of Telkomsel, the third failed;
    // every fifth day one PLN order; and one order a day before the period
    const rows = [];
    let n = 0;
    for (let i = -1; i < 30; i++) {
      const at = new Date(NOW.getTime() - (29 - i) * DAY - 3_600_000);
      const count = i < 0 ? 1 : i + 1;
      for (let k = 0; k < count; k++) {
        n++;
        rows.push({
          refId: `K-CHART-${n}`,
          confirmKey: `Q-CHART-${n}`,
          userId: 900,
          chatId: 900,
          kind: "prepaid" as const,
          productCode: "TSEL10",
          productName: "Telkomsel 10.000",
          destination: "081234567901",
          price: 10_400,
          cost: 10_100,
          status: k === 2 ? ("failed" as const) : ("success" as const),
          createdAt: at,
          updatedAt: at,
        });
      }
      if (i >= 0 && i % 5 === 0) {
        n++;
        rows.push({
          refId: `K-CHART-${n}`,
          confirmKey: `Q-CHART-${n}`,
          userId: 900,
          chatId: 900,
          kind: "prepaid" as const,
          productCode: "PLN50",
          productName: "PLN 50.000",
          destination: "12345678901",
          price: 51_000,
          cost: 50_200,
          status: "success" as const,
          createdAt: at,
          updatedAt: at,
        });
      }
    }
    await db.insert(orders).values(rows);
  });
  afterAll(() => t?.destroy());

  it("sums each WIB day, zero days included, and ranks the products by revenue", async () => {
    const { series, top } = await dailyFigures(t.handle.db, NOW, 30);
    expect(series).toHaveLength(30);
    expect(series[29]!.day).toBe("2026-11-24");
    expect(series[0]!.day).toBe("2026-10-26");
    // today: 30 Telkomsel (one failed), no PLN (29 % 5 ≠ 0)
    expect(series[29]).toEqual({
      day: "2026-11-24",
      orders: 30,
      success: 29,
      revenue: 29 * 10_400,
      margin: 29 * 300,
    });
    // the first day: 1 Telkomsel and 1 PLN
    expect(series[0]).toEqual({
      day: "2026-10-26",
      orders: 2,
      success: 2,
      revenue: 10_400 + 51_000,
      margin: 300 + 800,
    });
    expect(top.map((p) => p.name)).toEqual(["Telkomsel 10.000", "PLN 50.000"]);
    expect(top[1]).toEqual({ name: "PLN 50.000", orders: 6, revenue: 6 * 51_000 });
    const csv = parse(dailyCsv(series), { columns: true }) as Record<string, string>[];
    expect(csv).toHaveLength(30);
    expect(csv[29]).toEqual({
      day: "2026-11-24",
      orders: "30",
      success: "29",
      revenue: "301600",
      margin: "8700",
    });
  });

  it("draws revenue, margin, orders, success rate and the top products", async () => {
    const { series, top } = await dailyFigures(t.handle.db, NOW, 30);
    const labels = {
      title: "Laporan 30 hari",
      revenue: "Pendapatan (Rp)",
      margin: "Margin (Rp)",
      orders: "Pesanan",
      successRate: "Berhasil (%)",
      top: "Produk terlaris",
      day: "Hari (WIB)",
      rupiah: "Rp",
      weekdays: ["Min", "Sen", "Sel", "Rab", "Kam", "Jum", "Sab"],
    };
    const svg = await chartSvg(chartSpec(labels, series, top));
    const { weekdays: _, ...texts } = labels;
    for (const text of [...Object.values(texts), "Telkomsel 10.000", "PLN 50.000", "Sel 24/11"]) {
      expect(svg).toContain(text);
    }
    // amounts as kios writes them: a dot per thousand
    expect(svg).toContain("300.000");
    expect(svg).not.toContain("300,000");
    const png = await chartPng(svg);
    const { width, height } = pngSize(png);
    expect(width).toBeGreaterThan(900);
    expect(height).toBeGreaterThan(600);
    expect(png.length).toBeLessThan(400 * 1024);
    mkdirSync("test-results", { recursive: true });
    writeFileSync(join("test-results", "laporan-30.png"), png);
  });

  it("names each series in a legend, draws the success rate as a line, labels days by weekday", async () => {
    const { series, top } = await dailyFigures(t.handle.db, NOW, 7);
    const labels: ChartLabels = {
      title: "Report, 7 days",
      revenue: "Revenue (Rp)",
      margin: "Margin (Rp)",
      orders: "Orders",
      successRate: "Successful (%)",
      top: "Top products",
      day: "Day (WIB)",
      rupiah: "Rp",
      weekdays: ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"],
    };
    const spec = chartSpec(labels, series, top) as unknown as {
      vconcat: { layer?: { mark: { type: string }; encoding: Record<string, unknown> }[] }[];
    };
    const [money, counts] = spec.vconcat;
    const named = (layers: NonNullable<typeof money>["layer"]) =>
      layers!.map((l) => [l.mark.type, (l.encoding.color as { datum?: string })?.datum]);
    expect(named(money!.layer)).toEqual([
      ["bar", "Revenue (Rp)"],
      ["line", "Margin (Rp)"],
    ]);
    expect(named(counts!.layer)).toEqual([
      ["bar", "Orders"],
      ["line", "Successful (%)"],
    ]);
    const svg = await chartSvg(chartSpec(labels, series, top));
    // two legends, one per chart of two series, each naming its series
    const legends = svg.split('class="mark-group role-legend"').slice(1);
    expect(legends).toHaveLength(2);
    expect(legends[0]).toContain("Revenue (Rp)");
    expect(legends[0]).toContain("Margin (Rp)");
    expect(legends[1]).toContain("Orders");
    expect(legends[1]).toContain("Successful (%)");
    // the days: 18/11 (Wed) … 24/11 (Tue)
    for (const day of ["Wed 18/11", "Sun 22/11", "Tue 24/11"]) expect(svg).toContain(day);
    expect(svg).not.toContain("2026-11-24");
    const png = await chartPng(svg);
    mkdirSync("test-results", { recursive: true });
    writeFileSync(join("test-results", "laporan-7-en.png"), png);
  });

  it("labels a day by its weekday and date", () => {
    const id = ["Min", "Sen", "Sel", "Rab", "Kam", "Jum", "Sab"];
    expect(dayLabel("2026-11-30", id)).toBe("Sen 30/11");
    expect(dayLabel("2026-11-29", id)).toBe("Min 29/11");
    expect(dayLabel("2026-01-03", id)).toBe("Sab 03/01");
  });

  it("draws a product name stored with a control character", async () => {
    const { series } = await dailyFigures(t.handle.db, NOW, 7);
    const labels = {
      title: "Laporan 7 hari",
      revenue: "Pendapatan (Rp)",
      margin: "Margin (Rp)",
      orders: "Pesanan",
      successRate: "Berhasil (%)",
      top: "Produk terlaris",
      day: "Hari (WIB)",
      rupiah: "Rp",
      weekdays: ["Min", "Sen", "Sel", "Rab", "Kam", "Jum", "Sab"],
    };
    const top = [{ name: "Telkomsel\u0001 10.000", orders: 3, revenue: 31_200 }];
    const png = await chartPng(await chartSvg(chartSpec(labels, series, top)));
    expect(pngSize(png).width).toBeGreaterThan(900);
  });
});
