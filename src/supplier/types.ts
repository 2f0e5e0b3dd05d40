// the supplier as kios sees it: one TypeScript interface that every wire adapter (the
// signature-based primary interface, the key-based alternate, Digiflazz) implements. Everything
// here is normalised at the edge: camelCase, lowercase states, integer rupiah.

export type ProductCmd = "prepaid" | "game" | "pasca";

/** the wire protocols kios speaks (src/supplier/<protocol>/, docs/suppliers.md#adding-a-protocol) */
export const SUPPLIER_INTERFACES = ["signature", "key", "digiflazz"] as const;
export type SupplierInterface = (typeof SUPPLIER_INTERFACES)[number];
export type ProductType = ProductCmd;

export interface SupplierProduct {
  code: string;
  name: string;
  /** e.g. "Pulsa", "Data", "PLN", "E-Money", "Games", "PLN Pascabayar", "BPJS" */
  category: string;
  /** e.g. "TELKOMSEL", "PLN", "GO PAY", "MOBILE LEGENDS" */
  brand: string;
  type: ProductType;
  /** supplier price in rupiah (for pasca: the admin fee the supplier charges on top of the bill) */
  price: number;
  active: boolean;
  desc: string;
  /** daily cut-off window (HH:MM, WIB) during which the product cannot be bought */
  startCutOff?: string | undefined;
  endCutOff?: string | undefined;
}

export interface SupplierBalance {
  balance: number;
  balanceFormatted: string;
}

/** normalised: the wire's "Pending"/"pending" etc. (docs/supplier.md#normalisation-once-at-the-edge) */
export type TransactionStatus = "pending" | "success" | "failed";

/** one billing period of a bill's `desc.detail` (amounts parsed from strings) */
export interface BillPeriod {
  periode?: string | undefined;
  nilaiTagihan?: number | undefined;
  admin?: number | undefined;
  denda?: number | undefined;
  meterAwal?: string | undefined;
  meterAkhir?: string | undefined;
  biayaLain?: number | undefined;
}

/** the bill's `desc` object, per bill kind */
export interface BillDetails {
  lembarTagihan: number;
  jumlahPeserta?: string | undefined;
  alamat?: string | undefined;
  tarif?: string | undefined;
  daya?: number | undefined;
  jatuhTempo?: string | undefined;
  itemName?: string | undefined;
  noRangka?: string | undefined;
  noPol?: string | undefined;
  tenor?: string | undefined;
  detail: BillPeriod[];
}

export interface BillAmounts {
  customerName: string;
  /** bill amount before the admin fee */
  tagihan: number;
  admin: number;
  /** tagihan + admin */
  total: number;
  desc: BillDetails | undefined;
}

/**
 * why a transaction failed, as a failed record may say in its `reason` field (kios's
 * decision, docs/supplier.md#failure-reasons): the product's or the supplier's, or the
 * destination's. A reason outside this list, or none, is read as no reason.
 */
export const FAILURE_REASONS = [
  "OUT_OF_STOCK",
  "PRODUCT_DISRUPTED",
  "SUPPLIER_ERROR",
  "INVALID_CUSTOMER_NO",
  "WRONG_OPERATOR",
  "WRONG_METER",
] as const;

export type FailureReason = (typeof FAILURE_REASONS)[number];

/** a transaction as the supplier reports it: an order result or a bill payment result */
export interface SupplierTransaction {
  kind: "order" | "bill";
  refId: string;
  status: TransactionStatus;
  customerNo: string;
  code: string;
  /** product name (orders); may be empty for bills */
  name: string;
  /** what the supplier charged: the order price, or the bill's total */
  price: number;
  /** serial number / voucher code / PLN token / proof of payment; null until success */
  sn: string | null;
  /** "YYYY-MM-DD HH:MM:SS" as sent */
  createdAt: string;
  /** bills only */
  bill?: BillAmounts | undefined;
  /** the supplier's code and message for this answer, e.g. ORDER_PENDING (key interface: the rc) */
  supplierCode: string;
  message: string;
  /** the supplier's own transaction id, when its interface has one (the key interface's trx_id) */
  trxId?: string | undefined;
  /** a failed record's machine-readable reason, when it gives a known one (never guessed from text) */
  reason?: FailureReason | undefined;
  /** the account's balance right after this answer, when the supplier says (Digiflazz's buyer_last_saldo) */
  balanceAfter?: number | undefined;
}

export interface InquiryResult extends BillAmounts {
  refId: string;
  customerNo: string;
  code: string;
  /** end of the 5-minute window in which pay-pasca must follow */
  expiresAt: Date;
}

export interface OrderRequest {
  cmd: "prepaid" | "game";
  code: string;
  customerNo: string;
  refId: string;
  testing?: boolean;
  /** the signature interface signs with this instant (ms); kios stores it before sending */
  signedAt?: number;
  /**
   * the most this route may cost (rupiah): a supplier that takes a ceiling (Digiflazz's
   * max_price) refuses, forming nothing, when its price is above it. Others ignore it.
   */
  maxCost?: number;
}

/**
 * what kios sent for an attempt, stored before the send (order_attempts.sent): a supplier
 * whose status check re-sends the request (statusResends) is sent exactly this again
 */
export interface SentRequest {
  kind: "order" | "bill";
  code: string;
  customerNo: string;
  refId: string;
  testing: boolean;
  maxCost?: number | undefined;
}

/** a deposit ticket: what to transfer, where, and the note that matches it (Digiflazz's /deposit) */
export interface DepositTicket {
  /** the amount with its unique digits: transfer exactly this */
  amount: number;
  bank: string;
  /** the text to put in the transfer's note */
  notes: string;
  accountNo?: string | undefined;
  accountName?: string | undefined;
}

export interface InquiryRequest {
  code: string;
  customerNo: string;
  refId: string;
}

export interface PayBillRequest {
  code: string;
  customerNo: string;
  refId: string;
  testing?: boolean;
  /** as OrderRequest.signedAt */
  signedAt?: number;
}

/**
 * what came of sending money-moving work (an order or a bill payment):
 * - accepted: the supplier answered with the transaction (its status may be pending,
 *   success or failed);
 * - rejected: the supplier refused the request with a definite business or auth code and
 *   created no transaction (e.g. INSUFFICIENT_BALANCE, PRODUCT_INACTIVE, INQUIRY_EXPIRED);
 * - unknown: no usable answer (timeout, transport error, 5xx, unknown code, malformed
 *   reply): the transaction may or may not exist; only status(refId) can tell.
 * Orders and bill payments are never retried blindly: the caller resolves unknown.
 */
export type SubmitOutcome =
  | { outcome: "accepted"; transaction: SupplierTransaction }
  | { outcome: "rejected"; error: SupplierError }
  | { outcome: "unknown"; reason: string; error?: SupplierError };

export type StatusResult = { found: true; transaction: SupplierTransaction } | { found: false };

export interface Supplier {
  /** which wire interface this adapter speaks */
  readonly interface: SupplierInterface;
  /**
   * the status check of an order re-sends the order itself (Digiflazz): a request for a
   * ref_id the supplier does not hold forms a new transaction. Then kios sends it only for
   * an order's current open attempt, with the body it stored (src/commerce/orders/resend.ts)
   */
  readonly statusResends?: boolean;
  balance(): Promise<SupplierBalance>;
  products(cmd: ProductCmd): Promise<SupplierProduct[]>;
  order(request: OrderRequest): Promise<SubmitOutcome>;
  /** throws SupplierError (INQUIRY_FAILED when no bill is due, …) */
  inquiry(request: InquiryRequest): Promise<InquiryResult>;
  payBill(request: PayBillRequest): Promise<SubmitOutcome>;
  /**
   * throws SupplierError on auth, transport (after retries) or malformed replies. `sent`:
   * what was sent for this ref_id, for a supplier whose status check needs it (statusResends)
   */
  status(refId: string, sent?: SentRequest): Promise<StatusResult>;
  /** asks for a deposit ticket (Digiflazz); optional: other suppliers have none */
  depositTicket?(request: {
    amount: number;
    bank: string;
    ownerName: string;
  }): Promise<DepositTicket>;
  /**
   * deprecation warnings the supplier sent (one per endpoint, oldest first), for admins'
   * /balance. Optional: an adapter that never sees such warnings may leave it out.
   */
  notices?(): readonly string[];
}

// ---- errors ----

/** every code the supplier documents or kios decided (docs/supplier.md), plus kios's own for what went wrong locally */
const SUPPLIER_ERROR_CODES = [
  // authentication (docs/supplier.md#code-map)
  "INVALID_SIGNATURE",
  "UNAUTHORIZED",
  "INVALID_API_KEY",
  "TIMESTAMP_EXPIRED",
  // business (kios's decisions, docs/supplier.md)
  "INSUFFICIENT_BALANCE",
  "PRODUCT_NOT_FOUND",
  "PRODUCT_INACTIVE",
  "INVALID_CUSTOMER_NO",
  "INQUIRY_FAILED",
  "INQUIRY_NOT_FOUND",
  "INQUIRY_EXPIRED",
  "INQUIRY_MISMATCH",
  "TRANSACTION_NOT_FOUND",
  "VALIDATION_ERROR",
  "RATE_LIMITED",
  /** refused for the supplier account's or seller's sake, nothing formed (a Digiflazz rc) */
  "SUPPLIER_REFUSED",
  // the old release's forms (HTTP 410)
  "GONE",
  // local: no usable answer
  "TIMEOUT",
  "TRANSPORT_ERROR",
  "SERVER_ERROR",
  "UNKNOWN_CODE",
  "BAD_RESPONSE",
  /** a repeated ref_id came back with another product or destination */
  "REF_ID_MISMATCH",
] as const;

export type SupplierErrorCode = (typeof SUPPLIER_ERROR_CODES)[number];

export class SupplierError extends Error {
  override name = "SupplierError";
  constructor(
    readonly code: SupplierErrorCode,
    message: string,
    readonly details: {
      httpStatus?: number;
      /** the code exactly as the supplier sent it (for UNKNOWN_CODE) */
      supplierCode?: string;
      /** VALIDATION_ERROR: field → messages */
      errors?: Record<string, string[]>;
      /** the account's balance the refusal carried (Digiflazz's buyer_last_saldo) */
      balanceAfter?: number;
    } = {},
  ) {
    super(message);
  }

  /** worth trying the same read again later (never applies to submitting money-moving work) */
  get retryable(): boolean {
    return ["TIMEOUT", "TRANSPORT_ERROR", "SERVER_ERROR", "RATE_LIMITED"].includes(this.code);
  }
}

/** the transaction a request is about */
export interface Identity {
  refId: string;
  code: string;
  customerNo: string;
}
