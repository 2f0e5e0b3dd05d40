import { parseArgs } from "node:util";

// the command line: small by default (a CI run under two minutes), --full for the
// documented run.

export interface CampaignOptions {
  orders: number;
  kills: number;
  seed: number;
  customers: number;
  /** the PostgreSQL server the campaign creates its database on */
  databaseUrl: string;
  /** the longest the customers may take before they stop */
  customerSeconds: number;
  settleSeconds: number;
  /** a person's patience for one answer, before tapping again */
  answerSeconds: number;
  /** keep the kios logs' folder (it is printed either way) */
  verbose: boolean;
  /** the protocol of the first supplier: the seed's own (default) or Digiflazz; the second speaks the other */
  first: "seed" | "digiflazz";
}

export const USAGE =
  "usage: npm run campaign -- [--orders 60] [--kills 1] [--seed 1] [--customers 20] [--full]\n" +
  "                           [--database-url postgres://postgres@127.0.0.1:5432/postgres]\n" +
  "                           [--customer-seconds 55] [--settle-seconds 40] [--answer-seconds 12] [--verbose]\n" +
  "                           [--digiflazz-first]";

export function parseOptions(argv: string[]): CampaignOptions {
  const { values } = parseArgs({
    args: argv,
    strict: true,
    options: {
      orders: { type: "string" },
      kills: { type: "string" },
      seed: { type: "string" },
      customers: { type: "string" },
      full: { type: "boolean" },
      "database-url": { type: "string" },
      "customer-seconds": { type: "string" },
      "settle-seconds": { type: "string" },
      "answer-seconds": { type: "string" },
      verbose: { type: "boolean" },
      "digiflazz-first": { type: "boolean" },
      help: { type: "boolean" },
    },
  });
  if (values.help) {
    console.log(USAGE);
    process.exit(0);
  }
  const full = values.full ?? false;
  const num = (name: keyof typeof values, fallback: number) => {
    const raw = values[name];
    if (raw === undefined) return fallback;
    const n = Number(raw);
    if (typeof raw !== "string" || !Number.isSafeInteger(n) || n < 0) {
      throw new Error(`--${name} must be a whole number, not ${String(raw)}\n${USAGE}`);
    }
    return n;
  };
  return {
    orders: num("orders", full ? 5000 : 60),
    kills: num("kills", full ? 24 : 1),
    seed: num("seed", 1),
    customers: Math.max(2, num("customers", full ? 50 : 20)),
    databaseUrl:
      values["database-url"] ??
      process.env.CAMPAIGN_DATABASE_URL ??
      "postgres://postgres@127.0.0.1:5432/postgres",
    customerSeconds: num("customer-seconds", full ? 3600 : 55),
    settleSeconds: num("settle-seconds", full ? 1200 : 90),
    answerSeconds: Math.max(1, num("answer-seconds", 12)),
    verbose: values.verbose ?? false,
    first: values["digiflazz-first"] ? "digiflazz" : "seed",
  };
}
