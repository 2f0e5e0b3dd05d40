import { answerError, type CodeNaming } from "../answers.ts";
import { ownEntry } from "../records.ts";
import { explain } from "../signature/codes.ts";
import type { SupplierError, SupplierErrorCode, TransactionStatus } from "../types.ts";

// what each `rc` of the key-based interface means to kios. The supplier's document gives only `00` (docs/supplier.md#replies-1)
// (success); the rest is kios's decision (docs/supplier.md), served by the sandbox the same
// way. The adapter keys on rc, never on the HTTP status alone.

export const RC_SUCCESS = "00";
export const RC_FAILED = "02";
const RC_PENDING = "03";
export const RC_TRANSACTION_NOT_FOUND = "50";

/** the rc of an answer that carries a transaction, and what it says about its state */
const TRANSACTION_RCS: Readonly<Record<string, "any" | TransactionStatus>> = {
  // the request succeeded: the record's own status decides
  [RC_SUCCESS]: "any",
  [RC_FAILED]: "failed",
  [RC_PENDING]: "pending",
};

/** every other rc kios knows, as the SupplierError it becomes */
const RC_ERRORS: Readonly<Record<string, SupplierErrorCode>> = {
  "10": "VALIDATION_ERROR",
  "20": "UNAUTHORIZED",
  "21": "INVALID_API_KEY",
  "30": "INSUFFICIENT_BALANCE",
  "31": "PRODUCT_NOT_FOUND",
  "32": "PRODUCT_INACTIVE",
  "33": "INVALID_CUSTOMER_NO",
  "40": "INQUIRY_FAILED",
  "41": "INQUIRY_NOT_FOUND",
  "42": "INQUIRY_EXPIRED",
  "43": "INQUIRY_MISMATCH",
  [RC_TRANSACTION_NOT_FOUND]: "TRANSACTION_NOT_FOUND",
  "60": "GONE",
  "70": "RATE_LIMITED",
  "99": "SERVER_ERROR",
};

/** the state an rc implies for a transaction answer, or undefined when it carries none */
export function transactionRc(rc: string): "any" | TransactionStatus | undefined {
  return ownEntry(TRANSACTION_RCS, rc);
}

/** the SupplierError code an rc names, or undefined for an rc kios does not know */
export function errorCodeOfRc(rc: string): SupplierErrorCode | undefined {
  return ownEntry(RC_ERRORS, rc);
}

// the signature interface's explanations name api_id and signatures; these name the key
const KEY_EXPLANATIONS: Partial<Record<SupplierErrorCode, string>> = {
  UNAUTHORIZED:
    "the supplier found no usable Authorization: Bearer header (check SUPPLIER_API_KEY)",
  INVALID_API_KEY:
    "the supplier rejected the api key as unknown, revoked or disabled (check SUPPLIER_API_KEY)",
};

function explainKey(code: SupplierErrorCode): string {
  return KEY_EXPLANATIONS[code] ?? explain(code);
}

/** this interface's answers carry an `rc`, named beside kios's own code */
export const KEY_NAMING: CodeNaming = {
  noun: "rc",
  explain: explainKey,
  noteCode: (rc) => `rc ${rc}`,
};

/** the SupplierError for an rc that is not the success of the operation asked */
export function errorForRc(
  rc: string,
  supplierMessage: string,
  details: { httpStatus?: number; errors?: Record<string, string[]> } = {},
): SupplierError {
  return answerError(KEY_NAMING, rc, errorCodeOfRc(rc), supplierMessage, details);
}
