import { type IdentityFields, identityMismatch, invalidRequest } from "./checks.ts";
import type { Identity } from "./types.ts";
import {
  type InquiryResult,
  type SubmitOutcome,
  SupplierError,
  type SupplierErrorCode,
  type SupplierTransaction,
} from "./types.ts";

// the requests sent exactly once, with the same rules for both wire interfaces (each only
// sends and says what its answer carries): money-moving work (an order, a bill payment),
// which answers accepted, rejected or unknown (types.ts), and a bill inquiry.

/**
 * definite refusals: the supplier read the request and created no transaction, so an order
 * or bill payment answered with one of these is `rejected` (safe to refund).
 */
export const REFUSALS: ReadonlySet<SupplierErrorCode> = new Set<SupplierErrorCode>([
  "INVALID_SIGNATURE",
  "UNAUTHORIZED",
  "INVALID_API_KEY",
  "TIMESTAMP_EXPIRED",
  "INSUFFICIENT_BALANCE",
  "PRODUCT_NOT_FOUND",
  "PRODUCT_INACTIVE",
  "INVALID_CUSTOMER_NO",
  "VALIDATION_ERROR",
  "INQUIRY_FAILED",
  "INQUIRY_NOT_FOUND",
  "INQUIRY_EXPIRED",
  "INQUIRY_MISMATCH",
  "GONE",
  "SUPPLIER_REFUSED",
]);

/** what an answer to a money-moving request carries, as the wire interface reads it */
type SubmitAnswer =
  /** a transaction of the kind asked; building it may throw BAD_RESPONSE */
  | { transaction: () => SupplierTransaction }
  /** a transaction of the other kind: the ref_id is taken (`answer` names the sent code) */
  | { otherKind: string }
  /** no transaction: a refusal, or a code kios does not know */
  | { refusal: SupplierError };

interface OnceSpec<R> {
  request: Identity;
  /** how the wire names the request's fields, in its errors */
  fields: IdentityFields;
  /** one attempt, never retried */
  send(): Promise<R>;
}

export interface SubmitSpec<R> extends OnceSpec<R> {
  kind: "order" | "bill";
  read(reply: R): SubmitAnswer;
}

export interface InquirySpec<R> extends OnceSpec<R> {
  /** the inquiry result; throws the answer's refusal, or BAD_RESPONSE */
  read(reply: R): InquiryResult;
}

/** not money-moving, but not retried either: the caller asks again if it wants */
export async function inquireOnce<R>(spec: InquirySpec<R>): Promise<InquiryResult> {
  const invalid = invalidRequest(spec.request, spec.fields);
  if (invalid) throw invalid;
  const result = spec.read(await spec.send());
  const mismatch = identityMismatch(result, spec.request, spec.fields);
  if (mismatch) throw mismatch;
  return result;
}

/** money moves: a failure without an answer is unknown, never retried blindly */

export async function submitOnce<R>(spec: SubmitSpec<R>): Promise<SubmitOutcome> {
  const { kind, request } = spec;
  const invalid = invalidRequest(request, spec.fields);
  if (invalid) return rejected(invalid);
  let reply: R;
  try {
    reply = await spec.send();
  } catch (err) {
    const error = asSupplierError(err);
    // 410 Gone is a definite refusal, and so is a 429 in the supplier's own envelope (its
    // API turned the request away before any work); anything else may have gone through
    if (error.code === "GONE" || refusedForRate(error)) return rejected(error);
    return unknown(error);
  }
  const answer = spec.read(reply);
  if ("refusal" in answer) {
    const definite = REFUSALS.has(answer.refusal.code) || refusedForRate(answer.refusal);
    return definite ? rejected(answer.refusal) : unknown(answer.refusal);
  }
  if ("otherKind" in answer) {
    return unknown(
      new SupplierError(
        "REF_ID_MISMATCH",
        `ref_id ${request.refId} belongs to ${kind === "order" ? "a bill payment" : "an order"} at the supplier (${answer.otherKind})`,
      ),
    );
  }
  let transaction: SupplierTransaction;
  try {
    transaction = answer.transaction();
  } catch (err) {
    return unknown(asSupplierError(err));
  }
  const mismatch = identityMismatch(transaction, request, spec.fields);
  if (mismatch) return unknown(mismatch);
  return { outcome: "accepted", transaction };
}

/** the supplier itself (its envelope's code, not a proxy's page) said it is rate limiting */
const refusedForRate = (error: SupplierError) =>
  error.code === "RATE_LIMITED" && error.details.supplierCode !== undefined;

export function rejected(error: SupplierError): SubmitOutcome {
  return { outcome: "rejected", error };
}

function unknown(error: SupplierError): SubmitOutcome {
  return { outcome: "unknown", reason: error.message, error };
}

function asSupplierError(err: unknown): SupplierError {
  if (err instanceof SupplierError) return err;
  // a bug or an injected fetch's surprise: its message is not trusted to be secret-free
  return new SupplierError(
    "TRANSPORT_ERROR",
    `supplier call failed unexpectedly (${err instanceof Error ? err.name : typeof err})`,
  );
}
