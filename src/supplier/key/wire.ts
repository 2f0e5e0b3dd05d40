import { z } from "zod";
import { wholeRupiah } from "../amounts.ts";
import {
  type InquiryResult,
  type ProductType,
  SupplierError,
  type SupplierProduct,
  type SupplierTransaction,
  type TransactionStatus,
} from "../types.ts";
import { INQUIRY_WINDOW_MS, parseBillDetails, parseSupplierTime } from "../wire.ts";

// the key-based interface's wire format (supplier-api.md's "alternate" shapes), validated
// at run time and normalised once: snake_case → camelCase, pending/processing → pending,
// ISO times → WIB "YYYY-MM-DD HH:MM:SS", string amounts → integers. Tolerant like the
// signature side: unknown fields are ignored and only what kios uses is checked.

// zod 4 treats a missing key as an issue unless the field is marked optional
const text = z
  .unknown()
  .transform((v) => (typeof v === "string" ? v : typeof v === "number" ? String(v) : undefined))
  .optional();
const anything = z.unknown().optional();

/** rc is a string ("00"); a number is tolerated and padded (0 → "00") */
const rcSchema = z
  .union([z.string(), z.number().int().nonnegative()])
  .transform((v) => (typeof v === "number" ? String(v).padStart(2, "0") : v.trim()))
  .pipe(z.string().min(1).max(20));

export const keyEnvelopeSchema = z.object({
  status: anything,
  rc: rcSchema,
  message: z
    .unknown()
    .optional()
    .transform((v) => (typeof v === "string" ? v : "")),
  data: anything,
  errors: anything,
});

export type KeyEnvelope = z.infer<typeof keyEnvelopeSchema>;

function bad(message: string): SupplierError {
  return new SupplierError("BAD_RESPONSE", message);
}

function parse<T extends z.ZodType>(schema: T, value: unknown, what: string): z.output<T> {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  // zod's messages name paths and types, never the values, so nothing secret leaks here
  const issues = result.error.issues
    .slice(0, 3)
    .map((i) => `${i.path.join(".") || "(root)"}: ${i.message}`)
    .join("; ");
  throw bad(`malformed ${what} from the supplier: ${issues}`);
}

const absent = (v: unknown) => v === undefined || v === null || v === "";

// ---- times ----

const WIB_OFFSET_MS = 7 * 60 * 60 * 1000;

/** the key interface's ISO 8601 time as the "YYYY-MM-DD HH:MM:SS" (WIB) kios shows; else as sent */
export function wibTimeOf(value: string | undefined): string {
  if (!value) return "";
  const at = parseSupplierTime(value);
  if (!at) return value;
  return new Date(at.getTime() + WIB_OFFSET_MS).toISOString().slice(0, 19).replace("T", " ");
}

// ---- products ----

const PRODUCT_TYPES: readonly string[] = ["prepaid", "game", "pasca"];

const productSchema = z.object({
  code: z.string().trim().min(1),
  name: text,
  price: anything,
  type: text,
  status: anything,
  // not in the document's record: read when the supplier sends them (the sandbox does)
  category: text,
  brand: text,
  operator: text,
  desc: text,
  start_cut_off: text,
  end_cut_off: text,
});

/** a prepaid product's category from its name, when the supplier names none */
function derivedCategory(kind: ProductType, name: string): string {
  if (kind === "game") return "Games";
  if (kind === "pasca") return "Tagihan";
  if (/\bpln\b|token listrik/i.test(name)) return "PLN";
  if (/\b(go-?pay|ovo|dana|shopee ?pay|linkaja|e-?money|e-?wallet)\b/i.test(name)) return "E-Money";
  if (/\b(data|kuota|internet|\d+(\.\d+)? ?[gm]b)\b/i.test(name)) return "Data";
  return "Pulsa";
}

/** one product record, or undefined when it is not usable (the caller counts the skipped) */
export function toKeyProduct(record: unknown, kind: ProductType): SupplierProduct | undefined {
  const result = productSchema.safeParse(record);
  if (!result.success) return undefined;
  const p = result.data;
  const price = wholeRupiah(p.price);
  if (price === undefined) return undefined;
  const typeText = p.type?.trim() ?? "";
  // the document's type is "e.g. a category": a kind is taken as such, anything else as a category
  const isKind = PRODUCT_TYPES.includes(typeText.toLowerCase());
  const type = isKind ? (typeText.toLowerCase() as ProductType) : kind;
  const name = p.name?.trim() || p.code;
  const category = p.category?.trim() || (!isKind && typeText) || derivedCategory(type, name);
  const active =
    p.status === true || (typeof p.status === "string" && p.status.toLowerCase() === "active");
  return {
    code: p.code,
    name,
    category,
    brand: p.brand?.trim() || p.operator?.trim() || "",
    type,
    price,
    active,
    desc: p.desc ?? "",
    startCutOff: p.start_cut_off || undefined,
    endCutOff: p.end_cut_off || undefined,
  };
}

export function toKeyProducts(
  data: unknown,
  kind: ProductType,
): { products: SupplierProduct[]; skipped: number } {
  if (!Array.isArray(data)) {
    throw bad("malformed product list from the supplier: data is not a list");
  }
  const products: SupplierProduct[] = [];
  let skipped = 0;
  for (const record of data) {
    const product = toKeyProduct(record, kind);
    if (product) products.push(product);
    else skipped += 1;
  }
  return { products, skipped };
}

// ---- transactions ----

const transactionSchema = z.object({
  trx_id: text,
  ref_id: text,
  product_code: text,
  product_name: text,
  customer_id: text,
  price: anything,
  status: text,
  sn: text,
  created_at: text,
  // bill payments (kios's decision, docs/supplier.md): the product type and the bill
  type: text,
  customer_name: text,
  tagihan: anything,
  admin: anything,
  total: anything,
  desc: anything,
});

const KEY_STATES: Readonly<Record<string, TransactionStatus>> = {
  pending: "pending",
  processing: "pending",
  success: "success",
  failed: "failed",
};

/** what the request (or the lookup) knew, and what the answer's rc says */
export interface KeyTransactionContext {
  rc: string;
  /** the state the rc implies; "any" lets the record decide */
  rcState: "any" | TransactionStatus;
  message: string;
  refId?: string | undefined;
  code?: string | undefined;
  customerNo?: string | undefined;
}

function resolveState(fromData: string | undefined, ctx: KeyTransactionContext): TransactionStatus {
  const said = fromData?.trim().toLowerCase();
  if (said !== undefined && said !== "" && !Object.hasOwn(KEY_STATES, said)) {
    throw bad(`malformed transaction from the supplier: unknown status "${fromData}"`);
  }
  const fromRecord = said ? KEY_STATES[said] : undefined;
  // an answer whose rc and record disagree is not trusted with money
  if (fromRecord && ctx.rcState !== "any" && fromRecord !== ctx.rcState) {
    throw bad(
      `inconsistent transaction from the supplier: rc ${ctx.rc} says ${ctx.rcState}, record says ${said}`,
    );
  }
  const status = fromRecord ?? (ctx.rcState === "any" ? undefined : ctx.rcState);
  if (!status) throw bad("malformed transaction from the supplier: no status");
  return status;
}

/**
 * what a record says it is: a bill payment by its product type (pasca) or its bill amounts,
 * an order by a prepaid or game type; undefined when it says neither (the document's record)
 */
export function recordKind(data: unknown): "order" | "bill" | undefined {
  if (data === null || typeof data !== "object" || Array.isArray(data)) return undefined;
  const d = data as Record<string, unknown>;
  const type = typeof d.type === "string" ? d.type.trim().toLowerCase() : "";
  if (type === "pasca" || !absent(d.tagihan)) return "bill";
  if (type === "prepaid" || type === "game") return "order";
  return undefined;
}

function amount(value: unknown, name: string, what: string): number | undefined {
  if (absent(value)) return undefined;
  const n = wholeRupiah(value);
  if (n === undefined) throw bad(`malformed ${what} from the supplier: ${name} is not rupiah`);
  return n;
}

/**
 * a transaction record → SupplierTransaction. `kind` is what the request was (a payment
 * or an order); a lookup leaves it to the record, and a record that says nothing is an order.
 */
export function toKeyTransaction(
  data: unknown,
  ctx: KeyTransactionContext,
  kind: "order" | "bill" = recordKind(data) ?? "order",
): SupplierTransaction {
  const what = kind === "bill" ? "bill payment" : "transaction";
  const d = parse(transactionSchema, data, what);
  const status = resolveState(d.status, ctx);
  const refId = d.ref_id || ctx.refId;
  if (!refId) throw bad(`malformed ${what} from the supplier: no ref_id`);
  const price = amount(d.price, "price", what);
  const common = {
    refId,
    status,
    customerNo: d.customer_id || ctx.customerNo || "",
    code: d.product_code || ctx.code || "",
    name: d.product_name ?? "",
    sn: d.sn?.trim() || null,
    createdAt: wibTimeOf(d.created_at),
    supplierCode: ctx.rc,
    message: ctx.message,
    ...(d.trx_id ? { trxId: d.trx_id } : {}),
  };
  if (kind === "order") {
    // a failed order may come without a price; a pending or successful one must carry it
    if (price === undefined && status !== "failed") {
      throw bad(`malformed ${what} from the supplier: no price`);
    }
    return { kind: "order", ...common, price: price ?? 0 };
  }
  const admin = amount(d.admin, "admin", what);
  let tagihan = amount(d.tagihan, "tagihan", what);
  // the document's record has only price: it is the total paid
  let total = amount(d.total, "total", what) ?? price;
  if (total === undefined && tagihan !== undefined && admin !== undefined) total = tagihan + admin;
  if (tagihan === undefined && total !== undefined) tagihan = total - (admin ?? 0);
  // a failed payment may come without amounts; a pending or paid one must carry them
  if (status !== "failed" && total === undefined) {
    throw bad(`malformed ${what} from the supplier: no total or price`);
  }
  return {
    kind: "bill",
    ...common,
    price: total ?? 0,
    bill: {
      customerName: d.customer_name ?? "",
      tagihan: tagihan ?? 0,
      admin: admin ?? 0,
      total: total ?? 0,
      desc: parseBillDetails(d.desc),
    },
  };
}

/** a failed answer without its record: the failed transaction is built from the request */
export function failedFromRequest(
  kind: "order" | "bill",
  ctx: KeyTransactionContext,
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
    supplierCode: ctx.rc,
    message: ctx.message,
  };
}

// ---- inquiry ----

const inquirySchema = z.object({
  ref_id: text,
  product_code: text,
  customer_id: text,
  customer_name: text,
  tagihan: anything,
  admin: anything,
  total: anything,
  desc: anything,
  expires_at: anything,
});

export function toKeyInquiry(
  data: unknown,
  ctx: { refId: string; code: string; customerNo: string },
  nowMs: number,
): InquiryResult {
  const what = "inquiry result";
  const d = parse(inquirySchema, data, what);
  const tagihan = amount(d.tagihan, "tagihan", what);
  const admin = amount(d.admin, "admin", what);
  let total = amount(d.total, "total", what);
  if (total === undefined && tagihan !== undefined && admin !== undefined) total = tagihan + admin;
  if (tagihan === undefined || total === undefined) {
    throw bad(`malformed ${what} from the supplier: no tagihan or total`);
  }
  return {
    refId: d.ref_id || ctx.refId,
    customerNo: d.customer_id || ctx.customerNo,
    code: d.product_code || ctx.code,
    customerName: d.customer_name ?? "",
    tagihan,
    admin: admin ?? 0,
    total,
    desc: parseBillDetails(d.desc),
    expiresAt: parseSupplierTime(d.expires_at) ?? new Date(nowMs + INQUIRY_WINDOW_MS),
  };
}

/** VALIDATION_ERROR's `errors: { field: [messages] }`, tolerating a bare string per field */
export { parseFieldErrors } from "../wire.ts";
