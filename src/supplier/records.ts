import { z } from "zod";
import { wholeRupiah } from "./amounts.ts";
import { parseBillDetails } from "./bill-details.ts";
import { parseSupplierTime } from "./times.ts";
import {
  type BillAmounts,
  FAILURE_REASONS,
  type FailureReason,
  type Identity,
  type InquiryResult,
  type SupplierBalance,
  SupplierError,
  type SupplierProduct,
  type SupplierTransaction,
  type TransactionStatus,
} from "./types.ts";

// how both wire interfaces' records are read: the field kinds, amounts, statuses, bills,
// inquiries, balances and product lists are the same on either; each wire.ts keeps only its
// own field names and shapes. Tolerant by design: unknown fields are ignored and only what
// kios uses is checked.

// ---- fields ----

// zod 4 treats a missing key as an issue unless the field is marked optional
export const text = z
  .unknown()
  .transform((v) => (typeof v === "string" ? v : typeof v === "number" ? String(v) : undefined))
  .optional();
export const anything = z.unknown().optional();
/** an envelope's message: kios shows "" rather than fail on a missing one */
export const messageText = z
  .unknown()
  .optional()
  .transform((v) => (typeof v === "string" ? v : ""));

export function bad(message: string): SupplierError {
  return new SupplierError("BAD_RESPONSE", message);
}

export function parse<T extends z.ZodType>(schema: T, value: unknown, what: string): z.output<T> {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  // zod's messages name paths and types, never the values, so nothing secret leaks here
  const issues = result.error.issues
    .slice(0, 3)
    .map((i) => `${i.path.join(".") || "(root)"}: ${i.message}`)
    .join("; ");
  throw bad(`malformed ${what} from the supplier: ${issues}`);
}

export const absent = (v: unknown) => v === undefined || v === null || v === "";

/** a table's entry for a key the supplier sent (own keys only: "constructor" is no code) */
export function ownEntry<T>(table: Readonly<Record<string, T>>, key: string): T | undefined {
  return Object.hasOwn(table, key) ? table[key] : undefined;
}

// ---- amounts ----

/** an amount field: undefined when left out, BAD_RESPONSE when it is not whole rupiah */
export function rupiahField(value: unknown, name: string, what: string): number | undefined {
  if (absent(value)) return undefined;
  const n = wholeRupiah(value);
  if (n === undefined) throw bad(`malformed ${what} from the supplier: ${name} is not rupiah`);
  return n;
}

/** the fields a bill carries in either interface (bill payment results, inquiry results) */
export const BILL_FIELDS = {
  customer_name: text,
  tagihan: anything,
  admin: anything,
  total: anything,
  desc: anything,
};

type BillRecord = z.output<z.ZodObject<typeof BILL_FIELDS>>;

/** tagihan, admin and total; total may be left out when tagihan and admin are given */
export function billAmounts(
  d: Pick<BillRecord, "tagihan" | "admin" | "total">,
  what: string,
  required: boolean,
): { tagihan: number; admin: number; total: number } {
  const tagihan = rupiahField(d.tagihan, "tagihan", what);
  const admin = rupiahField(d.admin, "admin", what);
  let total = rupiahField(d.total, "total", what);
  if (total === undefined && tagihan !== undefined && admin !== undefined) total = tagihan + admin;
  if (required && (total === undefined || tagihan === undefined)) {
    throw bad(`malformed ${what} from the supplier: no tagihan or total`);
  }
  return { tagihan: tagihan ?? 0, admin: admin ?? 0, total: total ?? 0 };
}

export function billOf(
  d: Pick<BillRecord, "customer_name" | "desc">,
  amounts: { tagihan: number; admin: number; total: number },
): BillAmounts {
  return { customerName: d.customer_name ?? "", ...amounts, desc: parseBillDetails(d.desc) };
}

// ---- balance ----

const balanceSchema = z.object({
  balance: anything,
  balance_formatted: text,
});

export function toBalance(data: unknown): SupplierBalance {
  const d = parse(balanceSchema, data, "balance");
  const balance = wholeRupiah(d.balance);
  if (balance === undefined) {
    throw bad("malformed balance from the supplier: balance is not rupiah");
  }
  return { balance, balanceFormatted: d.balance_formatted ?? String(balance) };
}

// ---- products ----

export const PRODUCT_KINDS: readonly string[] = ["prepaid", "game", "pasca"];

/** the product fields of either interface (the key interface may add its own) */
export const PRODUCT_FIELDS = {
  code: z.string().trim().min(1),
  name: text,
  category: text,
  brand: text,
  type: text,
  price: anything,
  status: anything,
  desc: text,
  start_cut_off: text,
  end_cut_off: text,
};

type ProductRecord = z.output<z.ZodObject<typeof PRODUCT_FIELDS>>;

/** what a product is called and what kind it is, as each wire interface reads it */
export type ProductNaming = Pick<SupplierProduct, "code" | "name" | "category" | "brand" | "type">;

/**
 * a product list: each record read by `schema` and named by `naming`; a record that does not
 * parse or has no whole-rupiah price is skipped and counted (the caller says how many)
 */
export function productList<S extends z.ZodType<ProductRecord>>(
  data: unknown,
  schema: S,
  naming: (p: z.output<S>) => ProductNaming,
): { products: SupplierProduct[]; skipped: number } {
  if (!Array.isArray(data)) {
    throw bad("malformed product list from the supplier: data is not a list");
  }
  const products: SupplierProduct[] = [];
  let skipped = 0;
  for (const record of data) {
    const product = productOf(record, schema, naming);
    if (product) products.push(product);
    else skipped += 1;
  }
  return { products, skipped };
}

function productOf<S extends z.ZodType<ProductRecord>>(
  record: unknown,
  schema: S,
  naming: (p: z.output<S>) => ProductNaming,
): SupplierProduct | undefined {
  const result = schema.safeParse(record);
  if (!result.success) return undefined;
  const p: z.output<S> = result.data;
  const price = wholeRupiah(p.price);
  if (price === undefined) return undefined;
  const active =
    p.status === true || (typeof p.status === "string" && p.status.toLowerCase() === "active");
  return {
    ...naming(p),
    price,
    active,
    desc: p.desc ?? "",
    startCutOff: p.start_cut_off || undefined,
    endCutOff: p.end_cut_off || undefined,
  };
}

// ---- transactions ----

/** the status words of a record (the key interface adds its own) */
export const STATUS_WORDS: Readonly<Record<string, TransactionStatus>> = {
  pending: "pending",
  success: "success",
  failed: "failed",
};

/**
 * a record's status: its own word, read through `words`, or else what the answer's code
 * implies (`implied.by` names that code in messages)
 */
export function statusOf(
  sent: string | undefined,
  words: Readonly<Record<string, TransactionStatus>>,
  implied: { status: TransactionStatus | undefined; by: string },
): TransactionStatus {
  const said = sent?.trim().toLowerCase();
  const fromRecord = said === undefined ? undefined : ownEntry(words, said);
  if (said !== undefined && !fromRecord) {
    throw bad(`malformed transaction from the supplier: unknown status "${sent}"`);
  }
  // an answer whose code and record disagree is not trusted with money
  if (fromRecord && implied.status && fromRecord !== implied.status) {
    throw bad(
      `inconsistent transaction from the supplier: ${implied.by} says ${implied.status}, record says ${said}`,
    );
  }
  const status = fromRecord ?? implied.status;
  if (!status) throw bad("malformed transaction from the supplier: no status");
  return status;
}

/**
 * a failed record's reason (docs/supplier.md#failure-reasons): one of the known values, any
 * case, or undefined: absent, unknown, not text, or on a record that did not fail. The
 * supplier's free-text message is never read for it.
 */
function failureReasonOf(sent: unknown, status: TransactionStatus): FailureReason | undefined {
  if (status !== "failed" || typeof sent !== "string") return undefined;
  const word = sent.trim().toUpperCase();
  return FAILURE_REASONS.find((r) => r === word);
}

/** the reason as a field to spread into a transaction: none at all when there is none */
export function reasonOf(sent: unknown, status: TransactionStatus): { reason?: FailureReason } {
  const reason = failureReasonOf(sent, status);
  return reason ? { reason } : {};
}

/** the record's ref_id, or the one the request knew */
export function refIdOf(sent: string | undefined, known: string | undefined, what: string): string {
  const refId = sent || known;
  if (!refId) throw bad(`malformed ${what} from the supplier: no ref_id`);
  return refId;
}

/** an order's price: a failed order may come without one, a pending or successful one must not */
export function orderPrice(value: unknown, status: TransactionStatus, what: string): number {
  const price = rupiahField(value, "price", what);
  if (price === undefined && status !== "failed") {
    throw bad(`malformed ${what} from the supplier: no price`);
  }
  return price ?? 0;
}

/** a failed answer without its record: the failed transaction is built from the request */
export function failedFromRequest(
  kind: "order" | "bill",
  ctx: {
    refId?: string | undefined;
    code?: string | undefined;
    customerNo?: string | undefined;
    supplierCode: string;
    message: string;
  },
): SupplierTransaction {
  return {
    kind,
    refId: ctx.refId ?? "",
    status: "failed",
    customerNo: ctx.customerNo ?? "",
    code: ctx.code ?? "",
    name: "",
    price: 0,
    sn: null,
    createdAt: "",
    supplierCode: ctx.supplierCode,
    message: ctx.message,
  };
}

// ---- inquiry ----

const INQUIRY_WINDOW_MS = 5 * 60 * 1000;

/** the fields of an inquiry result in either interface, but for the product and destination */
export const INQUIRY_FIELDS = { ref_id: text, ...BILL_FIELDS, expires_at: anything };

type InquiryRecord = z.output<z.ZodObject<typeof INQUIRY_FIELDS>>;

/**
 * an inquiry result → InquiryResult. `named` reads the product and destination in the wire's
 * own field names; what the record leaves out, the request knew.
 */
export function inquiryResult<S extends z.ZodType<InquiryRecord>>(
  schema: S,
  named: (d: z.output<S>) => { code: string | undefined; customerNo: string | undefined },
  data: unknown,
  request: Identity,
  nowMs: number,
): InquiryResult {
  const what = "inquiry result";
  const d: z.output<S> = parse(schema, data, what);
  const said = named(d);
  const amounts = billAmounts(d, what, true);
  return {
    refId: d.ref_id || request.refId,
    customerNo: said.customerNo || request.customerNo,
    code: said.code || request.code,
    ...billOf(d, amounts),
    expiresAt: parseSupplierTime(d.expires_at) ?? new Date(nowMs + INQUIRY_WINDOW_MS),
  };
}
