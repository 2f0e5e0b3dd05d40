import type { Clock } from "@kios/kit";
import type { Hono } from "hono";
import type { Logger } from "pino";

// the sandbox speaks the supplier's wire format (snake_case, as the supplier documents
// it), not a client's normalised types.

export type ProductType = "prepaid" | "game" | "pasca";

/** a product record as /v1/products sends it */
export interface WireProduct {
  code: string;
  name: string;
  category: string;
  brand: string;
  type: ProductType;
  /** rupiah; for pasca products the admin fee per bill sheet */
  price: number;
  status: "active" | "inactive";
  desc: string;
  start_cut_off?: string;
  end_cut_off?: string;
}

/** how one sandbox's catalogue differs from another's beyond the seed's prices */
export interface CatalogueVariant {
  /** put before every code ("B" makes TSEL10 "BTSEL10"): a second supplier's own codes */
  codePrefix?: string;
  /**
   * the codes (without the prefix) always inactive here, instead of
   * SANDBOX_PRODUCT_CODES.inactive: what is out at one supplier is sold at another
   */
  inactiveCodes?: readonly string[];
}

export interface SandboxAccountInit {
  apiId: string;
  keys: { apiKey: string; secretKey: string; revoked?: boolean }[];
  balance: number;
  callbackUrl?: string | null;
}

export interface SandboxFaults {
  /** added to every reply, in milliseconds */
  latencyMs: number;
  /** 0..1: share of requests whose reply is held back by slowReplyMs */
  timeoutRate: number;
  /** 0..1: share of requests answered 500 SERVER_ERROR (the work is done first) */
  errorRate: number;
  /** 0..1: share of requests answered 500 SERVER_ERROR before any work is done */
  errorBeforeRate: number;
  /** 0..1: share of connections dropped before the request is handled */
  resetBeforeRate: number;
  /** 0..1: share of connections dropped after the request was handled (an order exists) */
  resetAfterRate: number;
  /** 0..1: share of status queries answered 500 SERVER_ERROR */
  statusErrorRate: number;
  /**
   * 0..1: share of new prepaid and game orders for an active product refused
   * PRODUCT_INACTIVE before anything is done (the product "gangguan" for a moment, while the
   * catalogue still lists it): a refusal that proves no transaction was formed
   */
  productInactiveRate: number;
  /** status queries report a settled transaction as pending for this long (ms) after it settled */
  statusLagMs: number;
  /** no callbacks at all (the same as callbackDropRate 1) */
  dropCallbacks: boolean;
  /** every callback twice (the same as callbackDuplicateRate 1) */
  duplicateCallbacks: boolean;
  /** a stale Pending after every final callback (the same as callbackReorderRate 1) */
  reorderCallbacks: boolean;
  /** 0..1: share of settled transactions whose callbacks are all dropped */
  callbackDropRate: number;
  /** 0..1: share whose callbacks are each sent twice */
  callbackDuplicateRate: number;
  /** 0..1: share that get a stale Pending after the final callback */
  callbackReorderRate: number;
  /** 0..1: share that get a forged callback first (bad signature, the opposite outcome) */
  callbackForgeRate: number;
  /** 0..1: share that get an expired callback last (correctly signed, timestamp 10 minutes old) */
  callbackExpireRate: number;
  /**
   * a failed order's charge is kept, though its reply still says the balance was refunded:
   * the hidden charge a shop finds only by reconciling its balance
   */
  keepFailedCharges: boolean;
}

export interface SandboxOptions {
  /** default: one account with DEFAULT_SANDBOX_CREDENTIALS, balance 5_000_000 */
  accounts?: SandboxAccountInit[];
  /** pending → final after this (default 2000) */
  settleDelayMs?: number;
  /** outcome 906 and timeout faults: the reply is delayed this long (default 30_000) */
  slowReplyMs?: number;
  /** every time check (timestamps, inquiry windows, settle times) reads this clock */
  clock?: Clock;
  faults?: Partial<SandboxFaults>;
  /** per api_id (default 50) */
  rateLimitPerSecond?: number;
  /** catalogue and fault randomness (default 1) */
  seed?: number;
  /** a second sandbox's own codes and inactive products (default: the standard ones) */
  catalogueVariant?: CatalogueVariant;
  /**
   * this sandbox's own outcome table: an ending of customer_no plays another's rule
   * (`{ "902": "901" }`) or "default"; the rest as the standard table
   */
  outcomes?: Readonly<Record<string, string>>;
  logger?: Logger;
  /** waits between callback delivery attempts (default [250, 1000, 3000]) */
  callbackRetryDelaysMs?: number[];
  /** one delivery attempt gives up after this (default 5000) */
  callbackTimeoutMs?: number;
  /**
   * a deprecation warning every key-interface reply carries (headers Deprecation and
   * Warning, body field `warning`); default none. Changeable at run time.
   */
  deprecationWarning?: string;
}

export type TransactionKind = "order" | "bill";
export type TransactionState = "pending" | "success" | "failed";

/** what the sandbox holds about a transaction (a read-only snapshot) */
export interface SandboxTransaction {
  apiId: string;
  kind: TransactionKind;
  refId: string;
  cmd: "prepaid" | "game" | "pay-pasca";
  code: string;
  customerNo: string;
  status: TransactionState;
  /** orders: the product price; bills: the total */
  price: number;
  /** what left the balance and was not refunded (0 in testing mode or after a refund) */
  charged: number;
  testing: boolean;
  sn: string | null;
  /** the outcome rule picked by the customer number's last three digits */
  outcome: OutcomeName;
  createdAt: number;
  /** when a pending transaction becomes final (clock ms); null once final */
  settleAt: number | null;
  /** when it became final (clock ms); null while pending */
  settledAt: number | null;
  /** callbacks the shop's server accepted (2xx), stale ones included */
  callbacksDelivered: number;
}

/** one order or bill-payment request the sandbox received, in arrival order */
export interface SandboxRequest {
  apiId: string;
  refId: string;
  cmd: "prepaid" | "game" | "pay-pasca";
  /** created a transaction, or answered with the one its ref_id already has */
  result: "created" | "repeat";
  /** clock ms */
  at: number;
}

/** a new order the sandbox declined before forming anything (its ref_id stays unused) */
export interface SandboxRefusal {
  apiId: string;
  refId: string;
  /** the error code answered (PRODUCT_INACTIVE, INSUFFICIENT_BALANCE, …) */
  code: string;
  /** clock ms */
  at: number;
}

export interface SandboxAccountHandle {
  readonly apiId: string;
  readonly balance: number;
  setBalance(n: number): void;
  /** where its reports go (null: nowhere) */
  readonly callbackUrl: string | null;
  setCallbackUrl(url: string | null): void;
  revokeKey(apiKey: string): void;
  addKey(key: { apiKey: string; secretKey: string }): void;
}

export interface Sandbox {
  app: Hono;
  clock: Clock;
  /** mutable at run time */
  faults: SandboxFaults;
  /** the key interface's deprecation warning (undefined: none); mutable at run time */
  deprecationWarning: string | undefined;
  /** the first account when apiId is omitted */
  account(apiId?: string): SandboxAccountHandle;
  catalogue(): readonly WireProduct[];
  /** changes what a product costs from now on (a price change the shop may not have synced) */
  setPrice(code: string, price: number): void;
  /** takes a product out (PRODUCT_INACTIVE) or back in, from now on (the shop may not have synced) */
  setActive(code: string, active: boolean): void;
  /** gives a product a daily cut-off window (HH:MM, WIB), or removes it with null */
  setCutOff(code: string, window: { start: string; end: string } | null): void;
  /** settles every pending transaction now and awaits its callback deliveries */
  settleNow(): Promise<void>;
  transactions(): readonly SandboxTransaction[];
  /** every order and bill-payment request received (the sandbox's own books of ref_ids) */
  requests(): readonly SandboxRequest[];
  /** the new orders it declined with nothing formed, in arrival order (for the fault campaign) */
  refusals(): readonly SandboxRefusal[];
  /** stops timers and releases delayed replies */
  close(): Promise<void>;
}

export interface RunningSandbox extends Sandbox {
  /** base URL ending in /v1 */
  url: string;
  port: number;
}

export type OutcomeName =
  | "901-success"
  | "902-failed"
  | "903-pending-success"
  | "904-pending-failed"
  | "905-no-callback"
  | "906-slow-reply"
  | "907-server-error"
  | "908-repeated-callbacks"
  | "941-out-of-stock"
  | "942-disrupted"
  | "943-pending-out-of-stock"
  | "944-pending-disrupted"
  | "945-supplier-error"
  | "946-invalid-customer"
  | "947-wrong-operator"
  | "948-pending-invalid-customer"
  | "default";

/**
 * why a transaction failed, on its failed record (kios's decision, docs/supplier.md): the
 * product's or the supplier's (OUT_OF_STOCK, PRODUCT_DISRUPTED "gangguan", SUPPLIER_ERROR)
 * or the destination's (INVALID_CUSTOMER_NO, WRONG_OPERATOR, WRONG_METER)
 */
export type FailureReason =
  | "OUT_OF_STOCK"
  | "PRODUCT_DISRUPTED"
  | "SUPPLIER_ERROR"
  | "INVALID_CUSTOMER_NO"
  | "WRONG_OPERATOR"
  | "WRONG_METER";

/** the JSON envelope of every signature-interface reply */
export interface Envelope {
  success: boolean;
  code: string;
  message: string;
  data: unknown;
  errors: Record<string, string[]> | null;
  meta: Record<string, unknown> | null;
}

export type HttpStatus = 200 | 400 | 401 | 404 | 405 | 410 | 429 | 500;

/** the key-based interface's envelope: status, rc, message, data (plus errors, meta, warning) */
export interface KeyEnvelope {
  /** "success" for rc 00, "pending" for rc 03, else "failed" */
  status: "success" | "pending" | "failed";
  rc: string;
  message: string;
  data: unknown;
  /** VALIDATION_ERROR (rc 10) only: field → messages */
  errors?: Record<string, string[]>;
  /** product lists only */
  meta?: Record<string, unknown>;
  /** the deprecation warning, when one is set */
  warning?: string;
}

/** a key-interface handler's answer */
export interface KeyReply {
  status: HttpStatus;
  body: KeyEnvelope;
  after?: Reply["after"];
}

/** a handler's answer; the app turns it into a response and applies 906/907 */
export interface Reply {
  status: HttpStatus;
  body: Envelope;
  /** outcome 906 delays the reply; 907 replaces it by a 500 */
  after?: "slow" | "server-error";
}
