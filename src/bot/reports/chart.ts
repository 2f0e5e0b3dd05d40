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
}

/** the Vega-Lite spec: revenue and margin per day, orders and success rate, the top products */
export function chartSpec(
  l: ChartLabels,
  series: DailyFigures[],
  top: TopProduct[],
): vegaLite.TopLevelSpec {
  const days = series.map((d) => ({
    ...d,
    rate: d.orders === 0 ? null : Math.round((d.success / d.orders) * 1000) / 10,
  }));
  const width = 640;
  const x = { field: "day", type: "ordinal" as const, title: l.day, axis: { labelAngle: -45 } };
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
    vconcat: [
      {
        width,
        height: 180,
        data: { values: days },
        layer: [
          {
            mark: { type: "bar", color: "#4c9a6a" },
            encoding: { x, y: { field: "revenue", type: "quantitative", title: l.revenue } },
          },
          {
            mark: { type: "line", color: "#c0392b", point: true },
            encoding: { x, y: { field: "margin", type: "quantitative", title: l.margin } },
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
            mark: { type: "bar", color: "#5b7db1" },
            encoding: { x, y: { field: "orders", type: "quantitative", title: l.orders } },
          },
          {
            mark: { type: "line", color: "#e67e22", point: true },
            encoding: {
              x,
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
