/**
 * why a markup rule or pricing setting was refused; the message (English) is for the CLI and
 * logs, the bot says the code in the user's language with the params
 */
export type PricingErrorCode =
  | "INVALID_SCOPE"
  | "INVALID_TIER"
  | "INVALID_PERCENT"
  | "INVALID_FLAT"
  | "INVALID_SCOPE_VALUE"
  | "UNKNOWN_SCOPE_VALUE"
  | "RULE_NOT_FOUND"
  | "INVALID_STEP";

export class PricingError extends Error {
  override name = "PricingError";
  constructor(
    readonly code: PricingErrorCode,
    message: string,
    /** the input field at fault */
    readonly field?: string,
    /** what a translation needs: bounds (percentages in basis points, flats in rupiah), got */
    readonly params: Readonly<Record<string, string | number>> = {},
  ) {
    super(message);
  }
}
