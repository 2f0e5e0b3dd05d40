import { PRODUCT_KINDS } from "./records.ts";
import { REF_ID_PATTERN } from "./ref-id.ts";
import { type Identity, SupplierError, type SupplierTransaction } from "./types.ts";

// what kios checks before sending a request and after the supplier answers it, the same for
// both wire interfaces; each names the product and destination fields its own way.

/** how a wire interface names the product and destination (ref_id is the same in both) */
export interface IdentityFields {
  code: string;
  customerNo: string;
}

/** what kios checks before sending: a ref_id it can look up later, a product, a destination */
export function invalidRequest(
  request: Identity,
  fields: IdentityFields,
): SupplierError | undefined {
  const errors: Record<string, string[]> = {};
  if (typeof request.refId !== "string" || !REF_ID_PATTERN.test(request.refId)) {
    errors.ref_id = ["must be 1 to 64 characters of A-Z, a-z, 0-9, . _ / -"];
  }
  if (typeof request.code !== "string" || request.code.trim() === "") {
    errors[fields.code] = ["is required"];
  }
  if (typeof request.customerNo !== "string" || request.customerNo.trim() === "") {
    errors[fields.customerNo] = ["is required"];
  }
  const names = Object.keys(errors);
  if (names.length === 0) return undefined;
  return new SupplierError("VALIDATION_ERROR", `not sent: invalid ${names.join(", ")}`, {
    errors,
  });
}

/** an order is prepaid or game (pasca is paid through payBill) */
export function invalidOrderCmd(cmd: string): SupplierError | undefined {
  if (cmd === "prepaid" || cmd === "game") return undefined;
  return new SupplierError("VALIDATION_ERROR", "not sent: cmd must be prepaid or game", {
    errors: { cmd: ["must be prepaid or game"] },
  });
}

/** `field`: what the wire calls the product kind ("cmd", "type") */
export function invalidProductKind(kind: string, field: string): SupplierError | undefined {
  if (PRODUCT_KINDS.includes(kind)) return undefined;
  return new SupplierError("VALIDATION_ERROR", `not sent: ${field} must be prepaid, game or pasca`);
}

/** a status lookup needs a ref_id kios could have sent */
export function invalidRefId(refId: string): SupplierError | undefined {
  if (REF_ID_PATTERN.test(refId)) return undefined;
  return new SupplierError("VALIDATION_ERROR", "not sent: ref_id is empty or malformed");
}

/**
 * a repeated ref_id answers with the stored transaction: if that is another product or
 * destination, this ref_id belongs to someone else's transaction (kios flags it for an admin).
 */
export function identityMismatch(
  got: Identity,
  sent: Identity,
  fields: IdentityFields,
): SupplierError | undefined {
  const differs: string[] = [];
  if (got.refId.trim() !== sent.refId.trim()) differs.push(`ref_id ${got.refId}`);
  if (got.code.trim() !== sent.code.trim()) differs.push(`${fields.code} ${got.code}`);
  if (got.customerNo.trim() !== sent.customerNo.trim()) {
    differs.push(`${fields.customerNo} ${got.customerNo}`);
  }
  if (differs.length === 0) return undefined;
  return new SupplierError(
    "REF_ID_MISMATCH",
    `the supplier answered ref_id ${sent.refId} with another transaction (${differs.join(", ")})`,
  );
}

/** a status lookup answered about another ref_id */
export function answeredAbout(
  refId: string,
  transaction: SupplierTransaction,
): SupplierError | undefined {
  if (transaction.refId === refId) return undefined;
  return new SupplierError(
    "REF_ID_MISMATCH",
    `asked the status of ref_id ${refId}, the supplier answered about ${transaction.refId}`,
  );
}
