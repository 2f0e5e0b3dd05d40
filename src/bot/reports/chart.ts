import type * as vegaLite from "vega-lite";
import type { DailyFigures, TopProduct } from "../../commerce/orders/daily.ts";
import { xmlSafe } from "../../commerce/plain-text.ts";
import { INTER_FILES } from "../ui/pictures/layout.ts";

// the owner's chart, drawn server-side: a Vega-Lite spec compiled to Vega, rendered to SVG
// (no canvas needed), rasterised by resvg with the Inter font from npm.

const FONTS = Object.values(INTER_FILES);

export interface ChartLabels {
  title: string;
  revenue: string;
  margin: string;
  orders: string;
  successRate: string;
  top: string;
  day: string;
  rupiah: string;
  /** the short weekday names, Sunday first ("Min Sen … Sab"), for the day labels */
  weekdays: readonly string[];
}

/** "2026-11-30" → "Sen 30/11": the day as the owner says it, weekday and date */
export function dayLabel(day: string, weekdays: readonly string[]): string {
  const [y, m, d] = day.split("-").map(Number) as [number, number, number];
  const weekday = weekdays[new Date(Date.UTC(y, m - 1, d)).getUTCDay()] ?? "";
  return `${weekday} ${String(d).padStart(2, "0")}/${String(m).padStart(2, "0")}`.trim();
}

const COLORS = {
  revenue: "#4c9a6a",
  margin: "#c0392b",
  orders: "#5b7db1",
  rate: "#d35400",
};

/**
 * a layer's colour as a named series: the layers of one chart share the colour scale, so
 * its legend names each series (two axes alone leave the reader guessing which is which)
 */
function series(name: string, names: readonly string[], colors: readonly string[]) {
  return {
    datum: name,
    scale: { domain: [...names], range: [...colors] },
    legend: { title: null, orient: "top" as const, direction: "horizontal" as const },
  };
}

/** the Vega-Lite spec: revenue and margin per day, orders and success rate, the top products */
export function chartSpec(
  l: ChartLabels,
  figures: DailyFigures[],
  top: TopProduct[],
): vegaLite.TopLevelSpec {
  const days = figures.map((d) => ({
    ...d,
    label: dayLabel(d.day, l.weekdays),
    rate: d.orders === 0 ? null : Math.round((d.success / d.orders) * 1000) / 10,
  }));
  const width = 640;
  // the labels in the data's order (by date), not sorted as text
  const x = {
    field: "label",
    type: "ordinal" as const,
    sort: null,
    title: l.day,
    axis: { labelAngle: -45 },
  };
  const money = [l.revenue, l.margin];
  const moneyColors = [COLORS.revenue, COLORS.margin];
  const counts = [l.orders, l.successRate];
  const countColors = [COLORS.orders, COLORS.rate];
  return {
    $schema: "https://vega.github.io/schema/vega-lite/v5.json",
    title: { text: l.title, fontSize: 18 },
    config: {
      font: "Inter",
      view: { stroke: null },
      axis: { labelFontSize: 11, titleFontSize: 12 },
    },
    background: "white",
    padding: 16,
    // each chart's own legend of its own two series
    resolve: { scale: { color: "independent" }, legend: { color: "independent" } },
    vconcat: [
      {
        width,
        height: 180,
        data: { values: days },
        layer: [
          {
            mark: { type: "bar" },
            encoding: {
              x,
              y: { field: "revenue", type: "quantitative", title: l.revenue },
              color: series(l.revenue, money, moneyColors),
            },
          },
          {
            mark: { type: "line", strokeWidth: 2.5, point: { filled: true, size: 40 } },
            encoding: {
              x,
              y: { field: "margin", type: "quantitative", title: l.margin },
              color: series(l.margin, money, moneyColors),
            },
          },
        ],
        resolve: { scale: { y: "independent" } },
      },
      {
        width,
        height: 140,
        data: { values: days },
        layer: [
          {
            mark: { type: "bar", opacity: 0.85 },
            encoding: {
              x,
              y: { field: "orders", type: "quantitative", title: l.orders },
              color: series(l.orders, counts, countColors),
            },
          },
          {
            // a day without orders has no rate: the line joins the days that have one
            transform: [{ filter: "datum.rate != null" }],
            mark: { type: "line", strokeWidth: 3, point: { filled: true, size: 50 } },
            encoding: {
              x,
              color: series(l.successRate, counts, countColors),
              y: {
                field: "rate",
                type: "quantitative",
                title: l.successRate,
                scale: { domain: [0, 100] },
              },
            },
          },
        ],
        resolve: { scale: { y: "independent" } },
      },
      {
        width,
        height: Math.max(40, top.length * 28),
        title: { text: l.top, fontSize: 14 },
        data: { values: top },
        mark: { type: "bar", color: "#8e6bb5" },
        encoding: {
          y: { field: "name", type: "nominal", sort: "-x", title: null },
          x: { field: "revenue", type: "quantitative", title: l.rupiah },
        },
      },
    ],
  };
}

/**
 * vega and vega-lite, loaded on the first chart: several MiB of code a start does not need
 * (docs/performance.md, cold start)
 */
let charting: Promise<{ vega: typeof import("vega"); vegaLite: typeof import("vega-lite") }>;
function loadCharting() {
  charting ??= Promise.all([import("vega"), import("vega-lite")]).then(([vega, vegaLite]) => {
    // numbers as kios writes rupiah everywhere (Rp10.000), in either language: a dot per thousand
    vega.formatLocale({ decimal: ",", thousands: ".", grouping: [3], currency: ["Rp", ""] });
    return { vega, vegaLite };
  });
  return charting;
}

/** the spec drawn as SVG (tests read it) */
export async function chartSvg(spec: vegaLite.TopLevelSpec): Promise<string> {
  const { vega, vegaLite } = await loadCharting();
  const compiled = vegaLite.compile(spec).spec;
  const view = new vega.View(vega.parse(compiled), { renderer: "none" });
  try {
    return await view.toSVG();
  } finally {
    view.finalize();
  }
}

/** the SVG as a PNG, drawn on libuv's pool so the bot's thread stays free */
export async function chartPng(svg: string): Promise<Buffer> {
  // a product name stored with a control character must not stop the drawing
  const { renderAsync } = await import("@resvg/resvg-js");
  const image = await renderAsync(xmlSafe(svg), {
    font: { fontFiles: FONTS, loadSystemFonts: false, defaultFontFamily: "Inter" },
    fitTo: { mode: "zoom", value: 1.5 },
  });
  return image.asPng();
}

/** the daily figures as CSV: the chart's data, to open in a spreadsheet */
export function dailyCsv(series: DailyFigures[]): string {
  const lines = ["day,orders,success,revenue,margin"];
  for (const d of series) lines.push([d.day, d.orders, d.success, d.revenue, d.margin].join(","));
  return `${lines.join("\n")}\n`;
}
