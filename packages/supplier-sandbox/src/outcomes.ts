import type { FailureReason, OutcomeName } from "./types.ts";

// the outcome table (README.md, "Outcomes"): the last three digits of customer_no pick what
// happens to an order or a bill payment.

export interface OutcomeRule {
  name: OutcomeName;
  /** the state the first reply carries */
  initial: "pending" | "success" | "failed";
  /** the state a pending transaction settles to */
  final: "success" | "failed";
  /** callbacks when a pending transaction settles */
  callbacks: "once" | "none" | "twice-then-stale";
  /** what happens to the HTTP reply of the request that created it */
  reply: "normal" | "slow" | "server-error";
  /**
   * the machine-readable reason a failed record carries (`reason`, docs/supplier.md); absent
   * on the older failing endings (902, 904), whose records carry none
   */
  reason?: FailureReason;
}

const RULES: Record<string, OutcomeRule> = {
  "901": {
    name: "901-success",
    initial: "success",
    final: "success",
    callbacks: "none",
    reply: "normal",
  },
  "902": {
    name: "902-failed",
    initial: "failed",
    final: "failed",
    callbacks: "none",
    reply: "normal",
  },
  "903": {
    name: "903-pending-success",
    initial: "pending",
    final: "success",
    callbacks: "once",
    reply: "normal",
  },
  "904": {
    name: "904-pending-failed",
    initial: "pending",
    final: "failed",
    callbacks: "once",
    reply: "normal",
  },
  "905": {
    name: "905-no-callback",
    initial: "pending",
    final: "success",
    callbacks: "none",
    reply: "normal",
  },
  "906": {
    name: "906-slow-reply",
    initial: "pending",
    final: "success",
    callbacks: "once",
    reply: "slow",
  },
  "907": {
    name: "907-server-error",
    initial: "pending",
    final: "success",
    callbacks: "once",
    reply: "server-error",
  },
  "908": {
    name: "908-repeated-callbacks",
    initial: "pending",
    final: "success",
    callbacks: "twice-then-stale",
    reply: "normal",
  },
  // a final failure with its reason: the product's or the supplier's (another supplier may
  // make it), or the destination's (no one can)
  "941": failing("941-out-of-stock", "failed", "OUT_OF_STOCK"),
  "942": failing("942-disrupted", "failed", "PRODUCT_DISRUPTED"),
  "943": failing("943-pending-out-of-stock", "pending", "OUT_OF_STOCK"),
  "944": failing("944-pending-disrupted", "pending", "PRODUCT_DISRUPTED"),
  "945": failing("945-supplier-error", "failed", "SUPPLIER_ERROR"),
  "946": failing("946-invalid-customer", "failed", "INVALID_CUSTOMER_NO"),
  "947": failing("947-wrong-operator", "failed", "WRONG_OPERATOR"),
  "948": failing("948-pending-invalid-customer", "pending", "INVALID_CUSTOMER_NO"),
};

/** an ending that fails with a reason, at once or after pending (then with a callback) */
function failing(
  name: OutcomeName,
  initial: "pending" | "failed",
  reason: FailureReason,
): OutcomeRule {
  return {
    name,
    initial,
    final: "failed",
    callbacks: initial === "pending" ? "once" : "none",
    reply: "normal",
    reason,
  };
}

const DEFAULT_RULE: OutcomeRule = {
  name: "default",
  initial: "pending",
  final: "success",
  callbacks: "once",
  reply: "normal",
};

/** the digits of a customer number (game ids like "123456789(2001)" carry others) */
function digitsOnly(customerNo: string): string {
  return customerNo.replace(/\D/g, "");
}

/**
 * a sandbox's own outcome table: an ending behaves as another ending's rule here
 * (`{ "902": "901" }`: what fails at one sandbox succeeds at this one), or as the default
 * (`"default"`). A second sandbox of the playground uses it so its faults differ.
 */
export type OutcomeRemap = Readonly<Record<string, string>>;

export function outcomeFor(customerNo: string, remap?: OutcomeRemap): OutcomeRule {
  const ending = digitsOnly(customerNo).slice(-3);
  const played = remap?.[ending] ?? ending;
  return RULES[played] ?? DEFAULT_RULE;
}
