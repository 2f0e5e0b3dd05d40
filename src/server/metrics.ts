import { Counter, collectDefaultMetrics, Gauge, Registry } from "prom-client";

export interface Metrics {
  readonly registry: Registry;
  /** supplier callbacks by what became of them */
  readonly callbacks: Counter<"result">;
  /** notification deliveries by result */
  readonly notifications: Counter<"result">;
  /** orders by status, read from the database at scrape time */
  watchOrders(count: () => Promise<Record<string, number>>): void;
}

/** a registry of the app's own (not prom-client's global one), so tests and apps don't share state. */
export function createMetrics(): Metrics {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry, prefix: "kios_" });
  const callbacks = new Counter({
    name: "kios_supplier_callbacks_total",
    help: "Supplier callbacks received, by result (accepted, duplicate, unauthorized, malformed).",
    labelNames: ["result"],
    registers: [registry],
  });
  const notifications = new Counter({
    name: "kios_notifications_total",
    help: "Chat notifications delivered, by result (sent, gone, failed).",
    labelNames: ["result"],
    registers: [registry],
  });
  return {
    registry,
    callbacks,
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
