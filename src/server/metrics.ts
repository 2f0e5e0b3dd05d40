import { collectDefaultMetrics, Registry } from "prom-client";

export interface Metrics {
  readonly registry: Registry;
}

/** a registry of the app's own (not prom-client's global one), so tests and apps don't share state. */
export function createMetrics(): Metrics {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry, prefix: "kios_" });
  return { registry };
}
