import { answerError, type CodeNaming } from "../answers.ts";
import { ownEntry } from "../records.ts";
import { explain } from "../signature/codes.ts";
import type { FailureReason, SupplierError, SupplierErrorCode } from "../types.ts";

// Digiflazz's response codes (rc), mapped once to kios's outcomes (docs/suppliers.md#digiflazz-response-codes).
// Every answer is read by its rc, never by its HTTP status or its words. An rc outside this
// table is an unknown outcome (design rule 2): the order waits for its status check.

export type RcMeaning =
  /** the transaction is formed and succeeded */
  | { kind: "success" }
  /** formed and still under way (03; 99 "DF Router Issue"; 01, see below) */
  | { kind: "pending" }
  /**
   * refused with nothing formed: `error` is the refusal kios re-routes on at once (or, for a
   * bill, refunds on)
   */
  | { kind: "refused"; error: SupplierErrorCode }
  /**
   * formed and failed for good: `reason` says whose sake, which decides a re-route after the
   * final (the product's or the seller's) or none (the destination's, or no reason)
   */
  | { kind: "failed"; reason?: FailureReason }
  /** not a proof of anything: the order waits (49: the ref_id is held by another transaction) */
  | { kind: "unknown" };

const success = { kind: "success" } as const;
const pending = { kind: "pending" } as const;
const refused = (error: SupplierErrorCode): RcMeaning => ({ kind: "refused", error });
const failed = (reason?: FailureReason): RcMeaning =>
  reason ? { kind: "failed", reason } : { kind: "failed" };

export const RC_SUCCESS = "00";

const RC_TABLE: Readonly<Record<string, RcMeaning>> = {
  "00": success,
  // "Timeout": the documentation lists it as a formed failure, client libraries read it as
  // pending. kios neither refunds nor re-routes on it: it asks again, and an order that stays
  // there goes to an admin as stuck
  "01": pending,
  "02": failed(),
  "03": pending,
  "99": pending,
  // refused, nothing formed: the request or the account
  "40": refused("SUPPLIER_REFUSED"),
  "41": refused("INVALID_SIGNATURE"),
  "42": refused("SUPPLIER_REFUSED"),
  "43": refused("PRODUCT_NOT_FOUND"),
  "44": refused("INSUFFICIENT_BALANCE"),
  "45": refused("UNAUTHORIZED"),
  "47": refused("SUPPLIER_REFUSED"),
  "61": refused("INSUFFICIENT_BALANCE"),
  "64": refused("SUPPLIER_REFUSED"),
  "80": refused("SUPPLIER_REFUSED"),
  "81": refused("SUPPLIER_REFUSED"),
  "82": refused("SUPPLIER_REFUSED"),
  "83": refused("RATE_LIMITED"),
  "87": refused("SUPPLIER_REFUSED"),
  "88": refused("SUPPLIER_REFUSED"),
  // refused, nothing formed: the seller or its product (a cut-off, out of stock, a price
  // above max_price)
  "56": refused("PRODUCT_INACTIVE"),
  "62": refused("PRODUCT_INACTIVE"),
  "63": refused("PRODUCT_INACTIVE"),
  "65": refused("PRODUCT_INACTIVE"),
  "66": refused("PRODUCT_INACTIVE"),
  "67": refused("PRODUCT_INACTIVE"),
  "68": refused("PRODUCT_INACTIVE"),
  "69": refused("PRODUCT_INACTIVE"),
  // a ref_id Digiflazz already holds for another transaction: something is formed under it
  "49": { kind: "unknown" },
  // formed and failed for the product's or the seller's sake: another route after the final
  "53": failed("OUT_OF_STOCK"),
  "55": failed("PRODUCT_DISRUPTED"),
  "58": failed("PRODUCT_DISRUPTED"),
  "70": failed("SUPPLIER_ERROR"),
  "71": failed("PRODUCT_DISRUPTED"),
  "74": failed("SUPPLIER_ERROR"),
  "85": failed("SUPPLIER_ERROR"),
  // formed and failed for the destination's sake: never another route
  "51": failed("INVALID_CUSTOMER_NO"),
  "52": failed("WRONG_OPERATOR"),
  "54": failed("INVALID_CUSTOMER_NO"),
  "57": failed("INVALID_CUSTOMER_NO"),
  "59": failed("INVALID_CUSTOMER_NO"),
  "60": failed("INVALID_CUSTOMER_NO"),
  "72": failed("INVALID_CUSTOMER_NO"),
  "73": failed("WRONG_METER"),
  // formed and failed, no reason given: the order's result
  "50": failed(),
  "84": failed(),
  "86": failed(),
};

/** what an rc means to kios; unknown for an rc outside the table */
export function meaningOfRc(rc: string): RcMeaning {
  return ownEntry(RC_TABLE, rc) ?? { kind: "unknown" };
}

/** every rc the table holds, for the docs' test */
export const KNOWN_RCS: readonly string[] = Object.keys(RC_TABLE);

const DIGIFLAZZ_EXPLANATIONS: Partial<Record<SupplierErrorCode, string>> = {
  INVALID_SIGNATURE:
    "Digiflazz rejected the sign (check SUPPLIER_USERNAME and SUPPLIER_API_KEY: development and production keys differ)",
  UNAUTHORIZED: "Digiflazz does not know this server's IP address (whitelist it in its panel)",
  SUPPLIER_REFUSED: "Digiflazz refused the request for the account's or the seller's sake",
  RATE_LIMITED: "Digiflazz refused a request it limits (the full price list: once per 5 minutes)",
};

/** this interface's answers carry an `rc`, named beside kios's own code */
export const DIGIFLAZZ_NAMING: CodeNaming = {
  noun: "rc",
  explain: (code) => DIGIFLAZZ_EXPLANATIONS[code] ?? explain(code),
  noteCode: (rc) => `rc ${rc}`,
};

/** the SupplierError for an answer that is not the success asked for */
export function errorForRc(
  rc: string,
  supplierMessage: string,
  details: { httpStatus?: number; balanceAfter?: number } = {},
): SupplierError {
  const meaning = meaningOfRc(rc);
  const known = meaning.kind === "refused" ? meaning.error : undefined;
  return answerError(DIGIFLAZZ_NAMING, rc, known, supplierMessage, details);
}
