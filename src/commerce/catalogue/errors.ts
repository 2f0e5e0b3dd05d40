/** why a markup rule or pricing setting was refused; the message is fit to show an admin */
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
  ) {
    super(message);
  }
}
