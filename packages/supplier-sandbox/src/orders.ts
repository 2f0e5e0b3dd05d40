import type { Clock } from "@kios/kit";
import type { Account, AccountKey } from "./accounts.ts";
import type { Catalogue } from "./catalogue.ts";
import { validGameDestination, validPrepaidDestination } from "./customer.ts";
import { declined, failure, validationError } from "./envelope.ts";
import { type OutcomeRemap, outcomeFor } from "./outcomes.ts";
import { transactionReply } from "./results.ts";
import { serialFor } from "./serial.ts";
import type { Store, StoredTransaction } from "./store.ts";
import type { Reply } from "./types.ts";
import { orderParams, parseParams } from "./validation.ts";

// cmd prepaid | game on /v1/order.

export interface OrderDeps {
  catalogue: Catalogue;
  store: Store;
  clock: Clock;
  settleDelayMs: number;
  /** a failed order's charge is kept (fault keepFailedCharges) */
  keepFailedCharges?: () => boolean;
  /** this sandbox's own outcome table over the standard one */
  outcomes?: OutcomeRemap | undefined;
  /** an active product refused as inactive this time (fault productInactiveRate) */
  productOut?: () => boolean;
}

export interface Caller {
  account: Account;
  key: AccountKey;
}

/** what outcome 906/907 do to the reply of the request that created the transaction */
function replyEffect(t: StoredTransaction): Reply["after"] {
  if (t.rule.reply === "slow") return "slow";
  if (t.rule.reply === "server-error") return "server-error";
  return undefined;
}

export function placeOrder(deps: OrderDeps, caller: Caller, body: Record<string, unknown>): Reply {
  const parsed = parseParams(orderParams, body);
  if (!parsed.ok) return parsed.reply;
  const { cmd, code, customer_no: customerNo, testing = false } = parsed.value;
  const apiId = caller.account.apiId;
  const givenRef = parsed.value.ref_id || undefined;

  if (givenRef) {
    // a repeat returns the stored transaction, whatever else it says (docs/supplier.md#ref_id)
    const existing = deps.store.transaction(apiId, givenRef);
    if (existing) {
      deps.store.noteRepeat(existing, deps.clock.now());
      return transactionReply(existing, "submit");
    }
    if (deps.store.inquiry(apiId, givenRef)) {
      return validationError({ ref_id: ["is already used by a bill inquiry"] });
    }
  }

  // a refusal of a new order formed nothing: noted, so the fault campaign can tell a proof
  // kios was given from one it made up
  const refuse = (reply: Reply, errorCode: string): Reply => {
    if (givenRef) {
      deps.store.noteRefusal({ apiId, refId: givenRef, code: errorCode, at: deps.clock.now() });
    }
    return reply;
  };
  const entry = deps.catalogue.get(code);
  if (!entry || entry.product.type !== cmd) {
    return refuse(
      failure(404, "PRODUCT_NOT_FOUND", `no ${cmd} product with code ${code}`),
      "PRODUCT_NOT_FOUND",
    );
  }
  const product = entry.product;
  // the dice are thrown only for a new order of an active product: one throw per such order
  if (product.status !== "active" || deps.productOut?.()) {
    return refuse(
      declined("PRODUCT_INACTIVE", `product ${code} is not available now`),
      "PRODUCT_INACTIVE",
    );
  }
  const valid =
    cmd === "game" ? validGameDestination(customerNo) : validPrepaidDestination(customerNo);
  if (!valid) {
    return refuse(
      declined("INVALID_CUSTOMER_NO", `customer_no is not valid for ${code}`),
      "INVALID_CUSTOMER_NO",
    );
  }
  if (!testing && caller.account.balance < product.price) {
    return refuse(
      declined("INSUFFICIENT_BALANCE", "balance is not enough for this order"),
      "INSUFFICIENT_BALANCE",
    );
  }

  const refId = givenRef ?? deps.store.newRefId(deps.clock.now());
  return record(deps, caller, {
    kind: "order",
    refId,
    cmd,
    code,
    name: product.name,
    customerNo,
    price: product.price,
    testing,
    serial: serialFor(entry, refId, customerNo),
  });
}

type Draft = Pick<
  StoredTransaction,
  | "kind"
  | "refId"
  | "cmd"
  | "code"
  | "name"
  | "customerNo"
  | "price"
  | "testing"
  | "serial"
  | "bill"
>;

/**
 * stores a new order or bill payment: charges the price (unless testing), applies the
 * outcome rule (a failure at once refunds), and answers with it.
 */
export function record(deps: OrderDeps, caller: Caller, draft: Draft): Reply {
  const now = deps.clock.now();
  const rule = outcomeFor(draft.customerNo, deps.outcomes);
  const charged = draft.testing ? 0 : draft.price;
  caller.account.balance -= charged;
  const t: StoredTransaction = {
    ...draft,
    apiId: caller.account.apiId,
    charged,
    rule,
    status: rule.initial,
    createdAt: now,
    settleAt: rule.initial === "pending" ? now + deps.settleDelayMs : null,
    settledAt: rule.initial === "pending" ? null : now,
    secretKey: caller.key.secretKey,
    callbacksDelivered: 0,
  };
  if (t.status === "failed" && !deps.keepFailedCharges?.()) {
    caller.account.balance += t.charged;
    t.charged = 0;
  }
  deps.store.addTransaction(t);
  const reply = transactionReply(t, "submit");
  const after = replyEffect(t);
  return after ? { ...reply, after } : reply;
}
