import { answerError, type CodeNaming } from "../answers.ts";
import { ownEntry } from "../records.ts";
import { REFUSALS } from "../send-once.ts";
import type { SupplierError, SupplierErrorCode, TransactionStatus } from "../types.ts";

// what each answer code means to kios. The client keys on `code`, not on the HTTP status.

export const READ_SUCCESS_CODE = "SUCCESS";
export const INQUIRY_SUCCESS_CODE = "INQUIRY_SUCCESS";
export const TRANSACTION_NOT_FOUND_CODE = "TRANSACTION_NOT_FOUND";

const ORDER_CODES: Readonly<Record<string, TransactionStatus>> = {
  ORDER_PENDING: "pending",
  ORDER_SUCCESS: "success",
  ORDER_FAILED: "failed",
};

const BILL_CODES: Readonly<Record<string, TransactionStatus>> = {
  BILL_PAYMENT_PENDING: "pending",
  BILL_PAYMENT_SUCCESS: "success",
  BILL_PAYMENT_FAILED: "failed",
};

/** the status an ORDER_* code implies */
export function orderStatusOf(code: string): TransactionStatus | undefined {
  return ownEntry(ORDER_CODES, code);
}

export function billStatusOf(code: string): TransactionStatus | undefined {
  return ownEntry(BILL_CODES, code);
}

/** the supplier codes that become a SupplierError of the same name */
const SUPPLIER_SENT_CODES: ReadonlySet<string> = new Set<SupplierErrorCode>([
  ...REFUSALS,
  "TRANSACTION_NOT_FOUND",
  "RATE_LIMITED",
  "SERVER_ERROR",
]);

/** a short explanation per code; the supplier's own message is appended */
const EXPLANATIONS: Partial<Record<SupplierErrorCode, string>> = {
  INVALID_SIGNATURE: "the supplier rejected the request signature (check SUPPLIER_SECRET_KEY)",
  UNAUTHORIZED: "the supplier does not know this api_id (check SUPPLIER_API_ID)",
  INVALID_API_KEY: "the supplier rejected the api_key as wrong or revoked (check SUPPLIER_API_KEY)",
  TIMESTAMP_EXPIRED:
    "the supplier rejected the request timestamp as more than 5 minutes off: the server clock may be wrong (check NTP sync)",
  INSUFFICIENT_BALANCE: "the supplier account balance is too low for this purchase",
  PRODUCT_NOT_FOUND: "the supplier does not know this product code",
  PRODUCT_INACTIVE: "the product is inactive or in its daily cut-off window",
  INVALID_CUSTOMER_NO: "the supplier rejected the customer number",
  VALIDATION_ERROR: "the supplier rejected the request parameters",
  INQUIRY_FAILED: "the bill inquiry failed (no bill is due, or the number is unknown)",
  INQUIRY_NOT_FOUND: "no inquiry exists for this ref_id: make an inquiry first",
  INQUIRY_EXPIRED: "the 5-minute inquiry window has passed: make a fresh inquiry",
  INQUIRY_MISMATCH: "the payment's code or customer number differs from the inquiry's",
  TRANSACTION_NOT_FOUND: "the supplier has no transaction with this ref_id",
  RATE_LIMITED: "the supplier is rate limiting requests",
  SERVER_ERROR: "the supplier had a server error",
  GONE: "the supplier answered 410 Gone: a form of the old, stopped release was used",
};

export function explain(code: SupplierErrorCode): string {
  return EXPLANATIONS[code] ?? code;
}

/** this interface's answers carry a `code` named like kios's own */
export const SIGNATURE_NAMING: CodeNaming = {
  noun: "code",
  explain,
  noteCode: () => undefined,
};

/** the SupplierError for an answer code that is not a success of the operation asked. */
export function errorForCode(
  code: string,
  supplierMessage: string,
  details: { httpStatus?: number; errors?: Record<string, string[]> } = {},
): SupplierError {
  const known = SUPPLIER_SENT_CODES.has(code) ? (code as SupplierErrorCode) : undefined;
  return answerError(SIGNATURE_NAMING, code, known, supplierMessage, details);
}
