import { SupplierError, type SupplierErrorCode } from "./types.ts";

// the SupplierError for an answer that is not the success asked for, for both wire
// interfaces: each names its answer code its own way (a `code`, an `rc`) and explains it
// in its own words, the rest is the same.

/** how one wire interface names its answer codes */
export interface CodeNaming {
  /** what the wire calls its answer code ("code", "rc"): for logs and unknown codes */
  noun: string;
  explain(code: SupplierErrorCode): string;
  /** how a message names the sent code beside kios's own (e.g. "rc 30"); undefined: it does not */
  noteCode(sent: string): string | undefined;
}

/** the supplier's own message, appended to kios's explanation */
export function supplierSaid(message: string): string {
  return message ? ` (supplier: "${message}")` : "";
}

/** `known`: the kios code the sent code stands for; undefined for a code kios does not know */
export function answerError(
  naming: CodeNaming,
  sent: string,
  known: SupplierErrorCode | undefined,
  supplierMessage: string,
  details: { httpStatus?: number; errors?: Record<string, string[]>; balanceAfter?: number } = {},
): SupplierError {
  const said = supplierSaid(supplierMessage);
  const all = { ...details, supplierCode: sent };
  if (!known) {
    return new SupplierError(
      "UNKNOWN_CODE",
      `the supplier answered with unknown ${naming.noun} ${sent}${said}`,
      all,
    );
  }
  const note = naming.noteCode(sent);
  return new SupplierError(
    known,
    `${naming.explain(known)}${said}${note ? ` (${note})` : ""}`,
    all,
  );
}
