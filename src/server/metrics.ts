import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from "prom-client";

export interface Metrics {
  readonly registry: Registry;
  /** supplier reports (the supplier's callbacks) by what became of them */
  readonly supplierReports: Counter<"result">;
  /** stored supplier reports acted on by the report drain, by what became of them */
  readonly supplierReportsActed: Counter<"result">;
  /** notification sends by result */
  readonly notifications: Counter<"result">;
  /** Telegram updates taken from the inbox, by what became of them */
  readonly updates: Counter<"result">;
  /** Pay to final, by final status */
  readonly orderLatency: Histogram<"status">;
  /** the supplier's refusals and failures, by its code */
  readonly supplierErrors: Counter<"code">;
  /** the last supplier balance check, read from the database at scrape time */
  watchSupplier(
    read: () => Promise<{ balance: number; drift: number | null; readAt: Date } | undefined>,
  ): void;
  /** orders this process sent to the supplier (submitted) or settled (success, failed) */
  readonly orders: Counter<"status">;
  /**
   * open orders by state, read at scrape time through the open orders' index: its cost
   * grows with the orders open now, never with every order the shop has had
   */
  watchOpenOrders(count: () => Promise<Record<string, number>>): void;
  /** the update inbox's depth and the age of its oldest update, read at scrape time */
  watchInbox(read: () => Promise<{ depth: number; oldestAgeSeconds: number }>): void;
  /** statements this process has sent to PostgreSQL, read at scrape time */
  watchStatements(read: () => number): void;
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
  const supplierReportsActed = new Counter({
    name: "kios_supplier_reports_acted_total",
    help: "Stored supplier reports acted on by the report drain, by result (settled, retried, abandoned).",
    labelNames: ["result"],
    registers: [registry],
  });
  const notifications = new Counter({
    name: "kios_notifications_total",
    help: "Chat notifications sent, by result (sent, gone, failed).",
    labelNames: ["result"],
    registers: [registry],
  });
  const updates = new Counter({
    name: "kios_updates_total",
    help: "Telegram updates handled from the inbox, by result (handled, failed, retried, abandoned).",
    labelNames: ["result"],
    registers: [registry],
  });
  const orderLatency = new Histogram({
    name: "kios_order_latency_seconds",
    help: "From Pay to the order's final state, by that state (success, failed).",
    labelNames: ["status"],
    // most orders settle in seconds; pending ones within minutes, stuck ones in hours
    buckets: [0.25, 0.5, 1, 2, 5, 10, 30, 60, 300, 900, 3600, 14_400],
    registers: [registry],
  });
  const orders = new Counter({
    name: "kios_orders_total",
    help: "Orders this process sent to the supplier (submitted) or settled (success, failed).",
    labelNames: ["status"],
    registers: [registry],
  });
  const supplierErrors = new Counter({
    name: "kios_supplier_errors_total",
    help: "Supplier refusals and failures, by the supplier's (or the client's) code.",
    labelNames: ["code"],
    registers: [registry],
  });
  return {
    registry,
    supplierReports,
    supplierReportsActed,
    notifications,
    updates,
    orderLatency,
    orders,
    supplierErrors,
    watchSupplier(read) {
      let last: ReturnType<typeof read> | undefined;
      const reading = () => {
        last ??= read().finally(() => {
          setImmediate(() => {
            last = undefined;
          });
        });
        return last;
      };
      new Gauge({
        name: "kios_supplier_balance_rupiah",
        help: "The supplier balance at its last reading.",
        registers: [registry],
        async collect() {
          const check = await reading();
          if (check) this.set(check.balance);
        },
      });
      new Gauge({
        name: "kios_reconciliation_drift_rupiah",
        help: "The last balance check's difference from kios's records (0: they agree).",
        registers: [registry],
        async collect() {
          const check = await reading();
          if (check) this.set(check.drift ?? 0);
        },
      });
      new Gauge({
        name: "kios_reconciliation_last_check_timestamp_seconds",
        help: "When the supplier balance was last read.",
        registers: [registry],
        async collect() {
          const check = await reading();
          if (check) this.set(check.readAt.getTime() / 1000);
        },
      });
    },
    watchOpenOrders(count) {
      new Gauge({
        name: "kios_open_orders",
        help: "Open orders by state (created, submitted, unknown, pending).",
        labelNames: ["status"],
        registers: [registry],
        async collect() {
          const counts = await count();
          for (const [status, n] of Object.entries(counts)) this.set({ status }, n);
        },
      });
    },
    watchStatements(read) {
      // a counter read at scrape time: the driver counts, prom-client only reports it
      new Counter({
        name: "kios_db_statements_total",
        help: "Statements this process sent to PostgreSQL (pg-boss's own pool apart).",
        registers: [registry],
        collect() {
          this.reset();
          this.inc(read());
        },
      });
    },
    watchInbox(read) {
      // one read per scrape feeds both gauges
      let last: Promise<{ depth: number; oldestAgeSeconds: number }> | undefined;
      const reading = () => {
        last ??= read().finally(() => {
          setImmediate(() => {
            last = undefined;
          });
        });
        return last;
      };
      new Gauge({
        name: "kios_inbox_depth",
        help: "Telegram updates stored and not yet handled.",
        registers: [registry],
        async collect() {
          this.set((await reading()).depth);
        },
      });
      new Gauge({
        name: "kios_inbox_oldest_age_seconds",
        help: "How long the oldest unhandled update has waited.",
        registers: [registry],
        async collect() {
          this.set((await reading()).oldestAgeSeconds);
        },
      });
    },
  };
}
