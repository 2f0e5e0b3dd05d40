import { z } from "zod";
import { hasControlCharacters } from "./commerce/plain-text.ts";
import { MIDTRANS_BASE_URLS } from "./gateway/midtrans.ts";
import { isAddressOrBlock } from "./h2h/client-address.ts";
import { SUPPLIER_INTERFACES, type SupplierInterface } from "./supplier/types.ts";

// one place reads the environment; everything else receives a typed Config.

const LOG_LEVELS = ["fatal", "error", "warn", "info", "debug", "trace", "silent"] as const;

const emptyToUndefined = (v: unknown) => (typeof v === "string" && v.trim() === "" ? undefined : v);

const optionalString = z.preprocess(emptyToUndefined, z.string().trim().optional());

const optionalUrl = z.preprocess(
  emptyToUndefined,
  z
    .string()
    .trim()
    .url({ message: "must be an http(s) URL" })
    .refine((v) => /^https?:\/\//.test(v), { message: "must be an http(s) URL" })
    .optional(),
);

const booleanFlag = (fallback: boolean) =>
  z.preprocess(
    (v) => emptyToUndefined(v) ?? String(fallback),
    z
      .string()
      .trim()
      .toLowerCase()
      .refine((v) => ["true", "false", "1", "0", "yes", "no"].includes(v), {
        message: "must be true or false",
      })
      .transform((v) => v === "true" || v === "1" || v === "yes"),
  );

/** chats one worker handles at once: each mostly waits on the Bot API (grammY runner's own is 500) */
export const INBOX_CONCURRENCY_DEFAULT = 256;

/** a whole number from min to max (a port, a pool's size) */
function wholeNumberIn(min: number, max: number) {
  const between = { message: `must be between ${min} and ${max}` };
  return z.coerce
    .number({ message: "must be a whole number" })
    .int({ message: "must be a whole number" })
    .min(min, between)
    .max(max, between);
}

/** how many of something one process works on at once: 1 to 1000 */
function concurrency(fallback: string, of: string) {
  return z.preprocess(
    (v) => emptyToUndefined(v) ?? fallback,
    z
      .string()
      .trim()
      .regex(/^\d{1,4}$/, { message: `must be a whole number of ${of}` })
      .transform(Number)
      .refine((n) => n >= 1 && n <= 1000, { message: "must be between 1 and 1000" }),
  );
}

/** a rupiah amount setting: a whole number, 0 or more */
function rupiahSetting(fallback: string) {
  return z.preprocess(
    (v) => emptyToUndefined(v) ?? fallback,
    z
      .string()
      .trim()
      .regex(/^\d{1,15}$/, { message: "must be a whole number of rupiah" })
      .transform(Number),
  );
}

/** a supplier's name: in its callback path (/supplier/<name>/callback), logs and admin views */
const SUPPLIER_NAME_PATTERN = /^[a-z0-9][a-z0-9-]{0,31}$/;

const optionalSupplierName = z.preprocess(
  emptyToUndefined,
  z
    .string()
    .trim()
    .toLowerCase()
    .regex(SUPPLIER_NAME_PATTERN, {
      message: "must be 1 to 32 of a-z, 0-9 and -, starting with a letter or digit",
    })
    .refine((v) => v !== "callback", { message: 'must not be "callback" (a path of its own)' })
    .optional(),
);

const supplierInterface = z.preprocess(
  (v) => emptyToUndefined(v) ?? "signature",
  z.enum(SUPPLIER_INTERFACES, { message: "must be signature, key or digiflazz" }),
);

type SupplierInterfaceName = SupplierInterface;

/** Digiflazz's buyer API, where SUPPLIER_BASE_URL points when it is not set */
export const DIGIFLAZZ_DEFAULT_BASE_URL = "https://api.digiflazz.com/v1";

/**
 * the settings (after SUPPLIER_ or SUPPLIER_<n>_) a supplier of this interface must have, all
 * or none; the key interface sends no api_id, and Digiflazz has a username, its key and the
 * webhook's secret (its base URL has a default)
 */
function requiredSupplierSettings(kind: SupplierInterfaceName): readonly string[] {
  if (kind === "digiflazz") return ["USERNAME", "API_KEY", "WEBHOOK_SECRET"];
  if (kind === "key") return ["BASE_URL", "API_KEY", "SECRET_KEY"];
  return ["BASE_URL", "API_ID", "API_KEY", "SECRET_KEY"];
}

/** settings another interface has, which this one does not read: set by mistake */
function foreignSupplierSettings(kind: SupplierInterfaceName): readonly string[] {
  return kind === "digiflazz" ? ["API_ID", "SECRET_KEY"] : ["USERNAME", "WEBHOOK_SECRET"];
}

// per request. A status read makes up to four attempts, which must end inside its job's
// 120 s lease (order-check, supplier-report): 4 × 25 s plus the backoff does. A timed-out
// order stays unknown and is asked about later (design rule 2)
const supplierTimeoutMs = z.preprocess(
  (v) => emptyToUndefined(v) ?? "15000",
  z
    .string()
    .trim()
    .regex(/^\d{1,6}$/, { message: "must be a whole number of milliseconds" })
    .transform(Number)
    .refine((n) => n >= 1000 && n <= 25_000, { message: "must be between 1000 and 25000" }),
);

const supplierBaseUrl = optionalUrl.transform((v) => (v ? normaliseSupplierBaseUrl(v) : undefined));

const schema = z.object({
  BOT_TOKEN: z.preprocess(
    emptyToUndefined,
    z
      .string()
      .trim()
      .regex(/^\d+:[A-Za-z0-9_-]{20,}$/, { message: "is not a bot token (from @BotFather)" })
      .optional(),
  ),
  BOT_MODE: z.preprocess(
    (v) => emptyToUndefined(v) ?? "polling",
    z.enum(["polling", "webhook"], { message: "must be polling or webhook" }),
  ),
  TELEGRAM_API_ROOT: z.preprocess(
    (v) => emptyToUndefined(v) ?? "https://api.telegram.org",
    z
      .string()
      .trim()
      .refine((v) => /^https?:\/\/[^\s]+$/.test(v), { message: "must be an http(s) URL" })
      .transform((v) => v.replace(/\/+$/, "")),
  ),
  PUBLIC_URL: optionalUrl.transform((v) => v?.replace(/\/+$/, "")),
  WEBHOOK_SECRET: z.preprocess(
    emptyToUndefined,
    z
      .string()
      .regex(/^[A-Za-z0-9_-]{1,256}$/, {
        message: "may hold only A-Z, a-z, 0-9, _ and - (1 to 256 characters)",
      })
      .optional(),
  ),
  HOST: z.preprocess(
    emptyToUndefined,
    z
      .string()
      .trim()
      .regex(/^[A-Za-z0-9.:-]{1,253}$/, { message: "must be an IP address or a host name" })
      .optional(),
  ),
  PORT: z.preprocess((v) => emptyToUndefined(v) ?? "8080", wholeNumberIn(0, 65535)),
  // metrics and the detailed health on a listener of their own; unset: none
  METRICS_PORT: z.preprocess(emptyToUndefined, wholeNumberIn(0, 65535).optional()),
  METRICS_HOST: z.preprocess(
    (v) => emptyToUndefined(v) ?? "127.0.0.1",
    z
      .string()
      .trim()
      .regex(/^[A-Za-z0-9.:-]{1,253}$/, { message: "must be an IP address or a host name" }),
  ),
  DATABASE_URL: z.preprocess(
    emptyToUndefined,
    z
      .string()
      .trim()
      .refine((v) => /^postgres(ql)?:\/\//.test(v), {
        message: "must start with postgres:// or postgresql://",
      })
      .optional(),
  ),
  PGLITE_DIR: z.preprocess((v) => emptyToUndefined(v) ?? "./data/pglite", z.string().trim()),
  DATABASE_PREPARE: booleanFlag(true),
  DATABASE_POOL_SIZE: z.preprocess((v) => emptyToUndefined(v) ?? "10", wholeNumberIn(1, 100)),
  SUPPLIER_BASE_URL: supplierBaseUrl,
  SUPPLIER_API_ID: optionalString,
  SUPPLIER_API_KEY: optionalString,
  SUPPLIER_SECRET_KEY: optionalString,
  SUPPLIER_USERNAME: optionalString,
  SUPPLIER_WEBHOOK_SECRET: optionalString,
  SUPPLIER_INTERFACE: supplierInterface,
  SUPPLIER_NAME: optionalSupplierName,
  SUPPLIER_TESTING: booleanFlag(false),
  SUPPLIER_TIMEOUT_MS: supplierTimeoutMs,
  // the H2H API for resellers (docs/h2h.md): on when set; it seals the resellers' keys at rest
  H2H_ENCRYPTION_KEY: z.preprocess(
    emptyToUndefined,
    z.string().trim().min(32, { message: "must be at least 32 characters" }).optional(),
  ),
  // a staging shop (real-looking SUPPLIER_*) whose resellers' test servers run on this machine
  H2H_CALLBACK_ALLOW_LOOPBACK: booleanFlag(false),
  // the TLS proxies in front of kios whose X-Forwarded-For is believed (the H2H allowlists)
  TRUST_PROXY: z.preprocess(
    (v) => emptyToUndefined(v) ?? "",
    z
      .string()
      .transform((v) =>
        v
          .split(",")
          .map((e) => e.trim())
          .filter((e) => e !== ""),
      )
      .refine((entries) => entries.every(isAddressOrBlock), {
        message:
          "must be IP addresses or CIDR blocks (e.g. 127.0.0.1,10.0.0.0/8) separated by commas",
      }),
  ),
  ADMIN_IDS: z.preprocess(
    (v) => emptyToUndefined(v) ?? "",
    z
      .string()
      .refine((v) => v.split(",").every((id) => id.trim() === "" || /^\d{1,20}$/.test(id.trim())), {
        message: "must be Telegram user ids (digits) separated by commas",
      })
      .transform((v) =>
        v
          .split(",")
          .map((id) => id.trim())
          .filter((id) => id !== "")
          .map((id) => Number(id)),
      ),
  ),
  MAX_AMOUNT: z.preprocess(
    (v) => emptyToUndefined(v) ?? "100000000",
    z
      .string()
      .trim()
      .regex(/^\d{1,15}$/, { message: "must be a whole number of rupiah" })
      .transform(Number)
      .refine((n) => n >= 1000, { message: "must be at least 1000" }),
  ),
  RECON_TOLERANCE: rupiahSetting("0"),
  MIN_MARGIN: rupiahSetting("0"),
  SUPPLIER_LOW_BALANCE: rupiahSetting("0"),
  PRODUCT_PAUSE_AFTER: z.preprocess(
    (v) => emptyToUndefined(v) ?? "3/5",
    z
      .string()
      .trim()
      .regex(/^\d{1,3}\/\d{1,3}$/, { message: "must be <failures>/<orders>, e.g. 3/5" })
      .transform((v) => v.split("/").map(Number) as [number, number])
      .refine(([f, of]) => f >= 1 && f <= of, {
        message: "failures must be at least 1 and at most the orders counted",
      }),
  ),
  PRODUCT_PAUSE_MINUTES: concurrency("30", "minutes"),
  PAYMENT_GATEWAY: z.preprocess(
    (v) => (typeof v === "string" ? v.trim().toLowerCase() || undefined : v),
    z.enum(["none", "midtrans"], { message: "must be none or midtrans" }).optional(),
  ),
  MIDTRANS_SERVER_KEY: optionalString,
  MIDTRANS_IS_PRODUCTION: booleanFlag(false),
  MIDTRANS_BASE_URL: optionalUrl.transform((v) => v?.replace(/\/+$/, "")),
  PAYMENT_GATEWAY_TESTING: booleanFlag(false),
  PAYMENT_EXPIRY_MINUTES: concurrency("15", "minutes"),
  // 0 would make every "deposit and buy" amount NaN; above the largest deposit, every one
  // would be too large
  PAYMENT_TOPUP_STEP: rupiahSetting("10000").refine((n) => n >= 1 && n <= 100_000_000, {
    message: "must be between 1 and 100000000",
  }),
  DEPOSIT_MANUAL: booleanFlag(true),
  SHOP_NAME: z.preprocess(
    emptyToUndefined,
    z
      .string()
      .trim()
      .max(40, { message: "must be at most 40 characters" })
      // drawn on receipts and price lists (SVG), which a control character breaks
      .refine((v) => !hasControlCharacters(v), { message: "must not hold control characters" })
      .optional(),
  ),
  SHOP_LOGO: optionalString,
  INBOX_CONCURRENCY: concurrency(String(INBOX_CONCURRENCY_DEFAULT), "chats"),
  SETTLE_CONCURRENCY: concurrency("50", "orders"),
  LOG_LEVEL: z.preprocess(
    (v) => (typeof v === "string" ? v.trim().toLowerCase() || undefined : v) ?? "info",
    z.enum(LOG_LEVELS, { message: `must be one of ${LOG_LEVELS.join(", ")}` }),
  ),
});

/** the supplier document's {base_url} ends in /v1; a value given without it is completed. */
export function normaliseSupplierBaseUrl(url: string): string {
  const trimmed = url.replace(/\/+$/, "");
  return /\/v1$/.test(trimmed) ? trimmed : `${trimmed}/v1`;
}

const EXAMPLES: Record<string, string> = {
  BOT_TOKEN: "123456789:AAH-your-token-from-BotFather",
  BOT_MODE: "polling",
  TELEGRAM_API_ROOT: "https://api.telegram.org",
  PUBLIC_URL: "https://shop.example.com",
  WEBHOOK_SECRET: "a-long-random-string",
  PORT: "8080",
  HOST: "0.0.0.0",
  METRICS_PORT: "9464",
  METRICS_HOST: "127.0.0.1",
  DATABASE_URL: "postgres://user:password@localhost:5432/kios",
  PGLITE_DIR: "./data/pglite",
  DATABASE_PREPARE: "false",
  DATABASE_POOL_SIZE: "10",
  SUPPLIER_BASE_URL: "https://supplier.example/v1",
  SUPPLIER_API_ID: "your-api-id",
  SUPPLIER_API_KEY: "your-api-key",
  SUPPLIER_SECRET_KEY: "your-secret-key",
  SUPPLIER_USERNAME: "your-digiflazz-username",
  SUPPLIER_WEBHOOK_SECRET: "the-secret-set-in-digiflazz-webhook-panel",
  SUPPLIER_INTERFACE: "signature",
  SUPPLIER_NAME: "main",
  SUPPLIER_TESTING: "false",
  SUPPLIER_TIMEOUT_MS: "15000",
  H2H_ENCRYPTION_KEY: "$(openssl rand -hex 32)",
  ADMIN_IDS: "11111111,22222222",
  MAX_AMOUNT: "100000000",
  PRODUCT_PAUSE_AFTER: "3/5",
  PRODUCT_PAUSE_MINUTES: "30",
  PAYMENT_GATEWAY: "midtrans",
  MIDTRANS_SERVER_KEY: "Mid-server-your-key",
  MIDTRANS_IS_PRODUCTION: "true",
  MIDTRANS_BASE_URL: "https://api.midtrans.com",
  PAYMENT_GATEWAY_TESTING: "false",
  PAYMENT_EXPIRY_MINUTES: "15",
  PAYMENT_TOPUP_STEP: "10000",
  DEPOSIT_MANUAL: "true",
  SHOP_NAME: "Toko Kios",
  RECON_TOLERANCE: "0",
  MIN_MARGIN: "200",
  SUPPLIER_LOW_BALANCE: "500000",
  INBOX_CONCURRENCY: String(INBOX_CONCURRENCY_DEFAULT),
  SETTLE_CONCURRENCY: "50",
  LOG_LEVEL: "info",
};

type Parsed = z.infer<typeof schema>;

/**
 * what each variable is when unset, by its name: the one source of the defaults the README's
 * configuration table states (test/config-defaults.test.ts compares them)
 */
export function environmentDefaults(): Record<string, unknown> {
  const parsed: Record<string, unknown> = schema.parse({});
  // the one default parseConfig applies itself
  parsed.SUPPLIER_NAME ??= FIRST_SUPPLIER_NAME;
  return Object.fromEntries(Object.keys(schema.shape).map((name) => [name, parsed[name]]));
}

/** SUPPLIER_<n>_*: a second, third, … supplier, the same settings as the first's plus NAME */
const numberedSupplierSchema = z.object({
  BASE_URL: supplierBaseUrl,
  API_ID: optionalString,
  API_KEY: optionalString,
  SECRET_KEY: optionalString,
  USERNAME: optionalString,
  WEBHOOK_SECRET: optionalString,
  INTERFACE: supplierInterface,
  TIMEOUT_MS: supplierTimeoutMs,
  NAME: optionalSupplierName,
});

const NUMBERED_SUPPLIER_VAR = /^SUPPLIER_(\d{1,2})_([A-Z_]+)$/;

/** the first supplier's name when SUPPLIER_NAME is not set */
const FIRST_SUPPLIER_NAME = "main";

export interface SupplierCredentials {
  baseUrl: string;
  apiId: string;
  apiKey: string;
  secretKey: string;
}

/** one configured supplier: SUPPLIER_* for the first, SUPPLIER_<n>_* for the others */
export interface SupplierSettings {
  /** unique; its reports arrive at /supplier/callback (the first) or /supplier/<name>/callback */
  name: string;
  credentials: SupplierCredentials;
  interface: SupplierInterfaceName;
  /** how long one request may take before it is given up (ms) */
  timeoutMs: number;
  /** where it is configured, for messages: "SUPPLIER_" or "SUPPLIER_2_" */
  envPrefix: string;
}

type PaymentsConfig =
  | {
      gateway: "midtrans";
      serverKey: string;
      baseUrl: string;
      production: boolean;
      /**
       * set when a test gateway runs beside a real supplier because PAYMENT_GATEWAY_TESTING
       * allows it (a staging shop): what makes it a test gateway, for the start-up warning
       */
      testing: string | undefined;
    }
  /** the embedded gateway sandbox: never beside a real supplier (design rule 8) */
  | { gateway: "sandbox" };

export interface Config {
  botToken: string | undefined;
  botMode: "polling" | "webhook";
  telegramApiRoot: string;
  publicUrl: string | undefined;
  webhookSecret: string | undefined;
  port: number;
  /**
   * the interface HTTP listens on; undefined: every interface for a shop, 127.0.0.1 for
   * the playground (its control API credits wallets without asking who you are)
   */
  host: string | undefined;
  /**
   * where /metrics and the detailed /healthz are served, apart from the public port;
   * undefined (METRICS_PORT unset): nowhere
   */
  metrics: { port: number; host: string } | undefined;
  databaseUrl: string | undefined;
  /** named prepared statements on PostgreSQL (DATABASE_PREPARE; off behind a pooler in transaction mode) */
  databasePrepare: boolean;
  /** each process's connections to PostgreSQL (DATABASE_POOL_SIZE) */
  databasePoolSize: number;
  pgliteDir: string;
  /** undefined when no supplier is configured: kios then talks to its embedded sandbox. */
  supplier: SupplierCredentials | undefined;
  /** the first supplier's name (SUPPLIER_NAME, default "main"), the embedded sandbox's too */
  supplierName: string;
  /**
   * every configured supplier, the first (SUPPLIER_*) first, then SUPPLIER_2_*, SUPPLIER_3_*, …
   * in their numbers' order; empty when none is configured (the embedded sandboxes)
   */
  suppliers: SupplierSettings[];
  supplierInterface: SupplierInterfaceName;
  supplierTesting: boolean;
  /** how long one supplier request may take before it is given up (ms) */
  supplierTimeoutMs: number;
  /**
   * the H2H API for resellers (docs/h2h.md), served by the web role at /h2h/v1 when
   * H2H_ENCRYPTION_KEY is set; undefined: off
   */
  h2h:
    | {
        encryptionKey: string;
        /**
         * H2H_CALLBACK_ALLOW_LOOPBACK: plain http:// callbacks to 127.0.0.1/localhost even
         * with a supplier configured (a staging shop; logged loudly at every start)
         */
        callbackAllowLoopback: boolean;
      }
    | undefined;
  /** TRUST_PROXY: proxy addresses (or CIDR blocks) whose X-Forwarded-For names the caller */
  trustProxy: string[];
  adminIds: number[];
  /** the most one admin credit/debit or deposit may move (rupiah) */
  maxAmount: number;
  /** a product with this many failures among its last orders is closed for a while */
  productPause: { failures: number; of: number; minutes: number };
  /** a supplier balance check's difference up to this is not drift (rupiah) */
  reconTolerance: number;
  /** a route is tried only when it leaves at least this over its cost (rupiah; /minmargin overrides) */
  minMargin: number;
  /** admins are alerted when the supplier balance falls below this (rupiah; 0: only when short) */
  supplierLowBalance: number;
  /**
   * how deposits are paid by QR: Midtrans with the shop's key; the embedded gateway sandbox
   * when neither a supplier nor a gateway is configured (the playground); undefined: none
   */
  payments: PaymentsConfig | undefined;
  /** how long a QR can be paid (minutes) */
  paymentExpiryMinutes: number;
  /** "deposit and buy" asks for the shortfall rounded up to this (rupiah) */
  paymentDepositStep: number;
  /** the manual transfer (an admin confirms it) is offered for deposits */
  depositManual: boolean;
  /** the shop's name on receipts; undefined: the bot's name */
  shopName: string | undefined;
  /** a PNG, JPEG or SVG file shown above the shop's name on receipts and price lists */
  shopLogo: string | undefined;
  /** how many chats' updates one worker process handles at once */
  inboxConcurrency: number;
  /** how many orders one worker process settles at once (status checks, supplier reports) */
  settleConcurrency: number;
  logLevel: (typeof LOG_LEVELS)[number];
}

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`invalid configuration:\n${problems.map((p) => `  ${p}`).join("\n")}`);
    this.name = "ConfigError";
  }
}

/** validates an environment; throws ConfigError with one line per bad variable. */
export function parseConfig(env: Record<string, string | undefined>): Config {
  const result = schema.safeParse(env);
  const problems: string[] = [];
  if (!result.success) {
    const seen = new Set<string>();
    for (const issue of result.error.issues) {
      const name = String(issue.path[0] ?? "environment");
      if (seen.has(name)) continue;
      seen.add(name);
      problems.push(describe(name, issue.message, env[name]));
    }
    throw new ConfigError(problems);
  }
  const p: Parsed = result.data;

  // the key interface sends no api_id; the secret key still verifies its callbacks
  const needed = requiredSupplierSettings(p.SUPPLIER_INTERFACE).map(
    (k) => `SUPPLIER_${k}` as keyof Parsed,
  );
  const given = needed.filter((name) => p[name] !== undefined);
  for (const k of foreignSupplierSettings(p.SUPPLIER_INTERFACE)) {
    if (p[`SUPPLIER_${k}` as keyof Parsed] !== undefined) {
      problems.push(
        `SUPPLIER_${k} is not read on SUPPLIER_INTERFACE=${p.SUPPLIER_INTERFACE}; that interface has ${needed.join(", ")}`,
      );
    }
  }
  if (given.length > 0 && given.length < needed.length) {
    for (const name of needed.filter((n) => p[n] === undefined)) {
      problems.push(
        describe(name, `is missing; set all of ${needed.join(", ")} or none`, undefined),
      );
    }
  }
  if (p.BOT_MODE === "webhook" && p.BOT_TOKEN) {
    if (!p.PUBLIC_URL)
      problems.push(describe("PUBLIC_URL", "is required when BOT_MODE=webhook", undefined));
    if (!p.WEBHOOK_SECRET)
      problems.push(describe("WEBHOOK_SECRET", "is required when BOT_MODE=webhook", undefined));
  }
  if (p.PAYMENT_GATEWAY === "midtrans" && !p.MIDTRANS_SERVER_KEY) {
    problems.push(
      describe("MIDTRANS_SERVER_KEY", "is required when PAYMENT_GATEWAY=midtrans", undefined),
    );
  }
  // one port can't be both (0 picks a free port for each)
  if (p.METRICS_PORT !== undefined && p.METRICS_PORT !== 0 && p.METRICS_PORT === p.PORT) {
    problems.push(describe("METRICS_PORT", "must differ from PORT", String(p.METRICS_PORT)));
  }
  const firstName = p.SUPPLIER_NAME ?? FIRST_SUPPLIER_NAME;
  const more = parseNumberedSuppliers(env, problems);
  if (more.length > 0 && given.length < needed.length) {
    problems.push(
      `${more[0]!.envPrefix}* is set but the first supplier is not: set SUPPLIER_BASE_URL, ` +
        "SUPPLIER_API_ID, SUPPLIER_API_KEY and SUPPLIER_SECRET_KEY first (the others are its backups)",
    );
  }
  const names = new Map<string, string>([[firstName, "SUPPLIER_NAME"]]);
  for (const s of more) {
    const taken = names.get(s.name);
    if (taken) {
      problems.push(
        `${s.envPrefix}NAME "${s.name}" is already the name of ${taken === "SUPPLIER_NAME" ? "the first supplier" : taken.replace(/NAME$/, "*")}; ` +
          `give each supplier its own, for example ${s.envPrefix}NAME=backup`,
      );
    }
    names.set(s.name, `${s.envPrefix}NAME`);
  }
  if (problems.length > 0) throw new ConfigError(problems);

  const supplierGiven = given.length === needed.length;
  const firstCredentials = credentialsOf(p.SUPPLIER_INTERFACE, {
    BASE_URL: p.SUPPLIER_BASE_URL,
    API_ID: p.SUPPLIER_API_ID,
    API_KEY: p.SUPPLIER_API_KEY,
    SECRET_KEY: p.SUPPLIER_SECRET_KEY,
    USERNAME: p.SUPPLIER_USERNAME,
    WEBHOOK_SECRET: p.SUPPLIER_WEBHOOK_SECRET,
  });
  let payments: PaymentsConfig | undefined;
  if (p.PAYMENT_GATEWAY !== "none" && p.MIDTRANS_SERVER_KEY) {
    const baseUrl =
      p.MIDTRANS_BASE_URL ??
      (p.MIDTRANS_IS_PRODUCTION ? MIDTRANS_BASE_URLS.production : MIDTRANS_BASE_URLS.sandbox);
    // anyone can "pay" a test gateway's QR in its simulator: beside a supplier that charges
    // real money that is free products, so only a staging shop that says so runs it
    // (design rule 8, as for the playground)
    const test = supplierGiven
      ? testGatewayReasons(p.MIDTRANS_SERVER_KEY, p.MIDTRANS_IS_PRODUCTION, p.MIDTRANS_BASE_URL)
      : undefined;
    if (test && !p.PAYMENT_GATEWAY_TESTING) {
      throw new ConfigError([
        `PAYMENT_GATEWAY_TESTING is not set: with SUPPLIER_* set kios sells for real, and a test ` +
          `gateway (${test}) would credit wallets for QRs anyone can pay in its simulator; ` +
          "set your production MIDTRANS_SERVER_KEY and MIDTRANS_IS_PRODUCTION=true " +
          "(a staging shop that means it: PAYMENT_GATEWAY_TESTING=true)",
      ]);
    }
    payments = {
      gateway: "midtrans",
      serverKey: p.MIDTRANS_SERVER_KEY,
      production: p.MIDTRANS_IS_PRODUCTION,
      baseUrl,
      testing: test,
    };
  } else if (p.PAYMENT_GATEWAY === undefined && !supplierGiven) {
    payments = { gateway: "sandbox" };
  }

  return {
    botToken: p.BOT_TOKEN,
    botMode: p.BOT_MODE,
    telegramApiRoot: p.TELEGRAM_API_ROOT,
    publicUrl: p.PUBLIC_URL,
    webhookSecret: p.WEBHOOK_SECRET,
    port: p.PORT,
    host: p.HOST,
    metrics:
      p.METRICS_PORT === undefined ? undefined : { port: p.METRICS_PORT, host: p.METRICS_HOST },
    databaseUrl: p.DATABASE_URL,
    pgliteDir: p.PGLITE_DIR,
    databasePrepare: p.DATABASE_PREPARE,
    databasePoolSize: p.DATABASE_POOL_SIZE,
    supplier: supplierGiven ? firstCredentials : undefined,
    supplierName: firstName,
    suppliers: supplierGiven
      ? [
          {
            name: firstName,
            credentials: firstCredentials,
            interface: p.SUPPLIER_INTERFACE,
            timeoutMs: p.SUPPLIER_TIMEOUT_MS,
            envPrefix: "SUPPLIER_",
          },
          ...more,
        ]
      : [],
    supplierInterface: p.SUPPLIER_INTERFACE,
    supplierTesting: p.SUPPLIER_TESTING,
    supplierTimeoutMs: p.SUPPLIER_TIMEOUT_MS,
    h2h: p.H2H_ENCRYPTION_KEY
      ? {
          encryptionKey: p.H2H_ENCRYPTION_KEY,
          callbackAllowLoopback: p.H2H_CALLBACK_ALLOW_LOOPBACK,
        }
      : undefined,
    trustProxy: p.TRUST_PROXY,
    adminIds: p.ADMIN_IDS,
    maxAmount: p.MAX_AMOUNT,
    payments,
    paymentExpiryMinutes: p.PAYMENT_EXPIRY_MINUTES,
    paymentDepositStep: p.PAYMENT_TOPUP_STEP,
    depositManual: p.DEPOSIT_MANUAL,
    shopName: p.SHOP_NAME,
    shopLogo: p.SHOP_LOGO,
    inboxConcurrency: p.INBOX_CONCURRENCY,
    settleConcurrency: p.SETTLE_CONCURRENCY,
    productPause: {
      failures: p.PRODUCT_PAUSE_AFTER[0],
      of: p.PRODUCT_PAUSE_AFTER[1],
      minutes: p.PRODUCT_PAUSE_MINUTES,
    },
    reconTolerance: p.RECON_TOLERANCE,
    minMargin: p.MIN_MARGIN,
    supplierLowBalance: p.SUPPLIER_LOW_BALANCE,
    logLevel: p.LOG_LEVEL,
  };
}

/**
 * SUPPLIER_2_*, SUPPLIER_3_*, …: each complete (the four credentials, or three on the key
 * interface) or absent. Problems are added to `problems`; the valid ones are returned in
 * their numbers' order.
 */
function parseNumberedSuppliers(
  env: Record<string, string | undefined>,
  problems: string[],
): SupplierSettings[] {
  const byNumber = new Map<number, Record<string, string | undefined>>();
  for (const [name, value] of Object.entries(env)) {
    const m = NUMBERED_SUPPLIER_VAR.exec(name);
    if (!m || emptyToUndefined(value) === undefined) continue;
    const n = Number(m[1]);
    const setting = m[2]!;
    if (n < 2) {
      problems.push(`${name} is not read: the first supplier is SUPPLIER_* (without a number)`);
      continue;
    }
    if (!(setting in numberedSupplierSchema.shape)) {
      problems.push(
        `${name} is not a supplier setting; a supplier has ${Object.keys(
          numberedSupplierSchema.shape,
        )
          .map((k) => `SUPPLIER_${n}_${k}`)
          .join(", ")}`,
      );
      continue;
    }
    const fields = byNumber.get(n) ?? {};
    fields[setting] = value;
    byNumber.set(n, fields);
  }
  const settings: SupplierSettings[] = [];
  for (const n of [...byNumber.keys()].sort((a, b) => a - b)) {
    const prefix = `SUPPLIER_${n}_`;
    const fields = byNumber.get(n)!;
    const result = numberedSupplierSchema.safeParse(fields);
    if (!result.success) {
      const seen = new Set<string>();
      for (const issue of result.error.issues) {
        const key = String(issue.path[0]);
        if (seen.has(key)) continue;
        seen.add(key);
        problems.push(describe(`${prefix}${key}`, issue.message, fields[key]));
      }
      continue;
    }
    const v = result.data;
    const required = requiredSupplierSettings(v.INTERFACE) as (keyof typeof v)[];
    const missing = required.filter((k) => v[k] === undefined);
    const foreign = foreignSupplierSettings(v.INTERFACE).filter(
      (k) => v[k as keyof typeof v] !== undefined,
    );
    for (const k of foreign) {
      problems.push(
        `${prefix}${k} is not read on ${prefix}INTERFACE=${v.INTERFACE}; that interface has ${required.map((r) => prefix + String(r)).join(", ")}`,
      );
    }
    if (foreign.length > 0) continue;
    if (missing.length > 0) {
      for (const k of missing) {
        problems.push(
          describe(
            `${prefix}${k}`,
            `is missing; set all of ${required.map((r) => prefix + String(r)).join(", ")} or none`,
            undefined,
          ),
        );
      }
      continue;
    }
    settings.push({
      name: v.NAME ?? `supplier${n}`,
      credentials: credentialsOf(v.INTERFACE, v),
      interface: v.INTERFACE,
      timeoutMs: v.TIMEOUT_MS,
      envPrefix: prefix,
    });
  }
  return settings;
}

/**
 * one supplier's credentials in the shape every adapter takes: Digiflazz's username is its
 * api id and its webhook's secret the key its reports are verified with
 */
function credentialsOf(
  kind: SupplierInterfaceName,
  v: {
    BASE_URL?: string | undefined;
    API_ID?: string | undefined;
    API_KEY?: string | undefined;
    SECRET_KEY?: string | undefined;
    USERNAME?: string | undefined;
    WEBHOOK_SECRET?: string | undefined;
  },
): SupplierCredentials {
  if (kind === "digiflazz") {
    return {
      baseUrl: v.BASE_URL ?? DIGIFLAZZ_DEFAULT_BASE_URL,
      apiId: v.USERNAME ?? "",
      apiKey: v.API_KEY ?? "",
      secretKey: v.WEBHOOK_SECRET ?? "",
    };
  }
  return {
    baseUrl: v.BASE_URL ?? "",
    apiId: v.API_ID ?? "",
    apiKey: v.API_KEY ?? "",
    secretKey: v.SECRET_KEY ?? "",
  };
}

/** what makes a Midtrans setting a test gateway (its sandbox or a local one); undefined: none */
function testGatewayReasons(
  serverKey: string,
  production: boolean,
  /** MIDTRANS_BASE_URL as given (without it, MIDTRANS_IS_PRODUCTION chooses) */
  baseUrl: string | undefined,
): string | undefined {
  const reasons: string[] = [];
  // Midtrans's sandbox keys are "SB-Mid-server-…" (the gateway sandbox's too)
  if (/^SB-/i.test(serverKey)) reasons.push("a sandbox server key (SB-Mid-server-…)");
  if (!production) reasons.push("MIDTRANS_IS_PRODUCTION=false");
  if (baseUrl && isTestHost(new URL(baseUrl).hostname)) {
    reasons.push("MIDTRANS_BASE_URL at a sandbox or local address");
  }
  return reasons.length > 0 ? reasons.join(", ") : undefined;
}

/** the sandbox API, or an address on this machine (where the gateway sandbox listens) */
function isTestHost(hostname: string): boolean {
  const host = hostname.toLowerCase().replace(/^\[|\]$/g, "");
  return (
    host === new URL(MIDTRANS_BASE_URLS.sandbox).hostname ||
    host === "localhost" ||
    host.endsWith(".localhost") ||
    /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(host) ||
    host === "0.0.0.0" ||
    host === "::1" ||
    host === "::"
  );
}

function describe(name: string, message: string, value: string | undefined): string {
  // values of secret variables are never echoed back
  const secret = /TOKEN|KEY|SECRET|DATABASE_URL/.test(name);
  const got = value === undefined || secret ? "" : ` (got "${value}")`;
  const example = EXAMPLES[name] ?? EXAMPLES[name.replace(/^SUPPLIER_\d+_/, "SUPPLIER_")] ?? "…";
  return `${name} ${message}${got}; for example ${name}=${example}`;
}

/**
 * whether reseller callbacks may go to plain http://127.0.0.1 / localhost: on a shop beside
 * simulators (no SUPPLIER_* set: tests, the playground), or where the owner said so
 * (H2H_CALLBACK_ALLOW_LOOPBACK, a staging shop)
 */
export function callbackLoopbackAllowed(config: Pick<Config, "supplier" | "h2h">): boolean {
  return !config.supplier || config.h2h?.callbackAllowLoopback === true;
}

/** loads .env (without overriding the real environment) and validates it. */
export async function loadConfig(env: NodeJS.ProcessEnv = process.env): Promise<Config> {
  const dotenv = await import("dotenv");
  dotenv.config({ quiet: true });
  return parseConfig(env);
}

/** every secret value the app holds, for scrubbing logs. */
export function secretsOf(config: Config): string[] {
  return [
    config.botToken,
    config.webhookSecret,
    // the first supplier's are config.supplier's; the others' follow
    config.supplier?.apiKey,
    config.supplier?.secretKey,
    config.h2h?.encryptionKey,
    ...config.suppliers.slice(1).flatMap((s) => [s.credentials.apiKey, s.credentials.secretKey]),
    config.payments?.gateway === "midtrans" ? config.payments.serverKey : undefined,
  ].filter((s): s is string => typeof s === "string" && s.length >= 4);
}
