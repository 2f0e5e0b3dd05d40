import { Counter, collectDefaultMetrics, Gauge, Registry } from "prom-client";

export interface Metrics {
  readonly registry: Registry;
  /** supplier reports (the supplier's callbacks) by what became of them */
  readonly supplierReports: Counter<"result">;
  /** notification sends by result */
  readonly notifications: Counter<"result">;
  /** orders by status, read from the database at scrape time */
  watchOrders(count: () => Promise<Record<string, number>>): void;
}

/** a registry of the app's own (not prom-client's global one), so tests and apps don't share state. */
export function createMetrics(): Metrics {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry, prefix: "kios_" });
  const supplierReports = new Counter({
    name: "kios_supplier_reports_total",
    help: "Supplier reports received, by result (accepted, duplicate, unauthorized, malformed).",
    labelNames: ["result"],
    registers: [registry],
  });
  const notifications = new Counter({
    name: "kios_notifications_total",
    help: "Chat notifications sent, by result (sent, gone, failed).",
    labelNames: ["result"],
    registers: [registry],
  });
  return {
    registry,
    supplierReports,
    notifications,
    watchOrders(count) {
      new Gauge({
        name: "kios_orders",
        help: "Orders by status.",
        labelNames: ["status"],
        registers: [registry],
        async collect() {
          const counts = await count();
          for (const [status, n] of Object.entries(counts)) this.set({ status }, n);
        },
      });
    },
  };
}
