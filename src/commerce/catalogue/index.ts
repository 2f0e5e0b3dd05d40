// the catalogue: supplier sync, selling prices and markup rules, what the bot lists, and
// indonesian phone numbers and operators.

export * from "./categories.ts";
export * from "./errors.ts";
export * from "./markup-rules.ts";
export * from "./operators.ts";
export * from "./price-list.ts";
export * from "./prices.ts";
export * from "./pricing.ts";
export * from "./queries.ts";
export * from "./round-step.ts";
export * from "./sync.ts";
export * from "./sync-job.ts";
