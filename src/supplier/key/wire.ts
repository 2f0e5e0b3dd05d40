import { z } from "zod";
import type { IdentityFields } from "../checks.ts";
import {
  absent,
  anything,
  BILL_FIELDS,
  bad,
  billOf,
  INQUIRY_FIELDS,
  inquiryResult,
  messageText,
  orderPrice,
  PRODUCT_FIELDS,
  PRODUCT_KINDS,
  parse,
  productList,
  reasonOf,
  refIdOf,
  rupiahField,
  STATUS_WORDS,
  statusOf,
  text,
} from "../records.ts";
import { parseSupplierTime } from "../times.ts";
import type {
  Identity,
  InquiryResult,
  ProductType,
  SupplierProduct,
  SupplierTransaction,
  TransactionStatus,
} from "../types.ts";

// the key-based interface's wire format (the supplier document's "alternate" shapes, docs/supplier.md), validated
// at run time and normalised once (records.ts): snake_case → camelCase, pending/processing →
// pending, ISO times → WIB "YYYY-MM-DD HH:MM:SS", string amounts → integers. Only this
// interface's envelope, field names and record shapes are here.

/** rc is a string ("00"); a number is tolerated and padded (0 → "00") */
const rcSchema = z
  .union([z.string(), z.number().int().nonnegative()])
  .transform((v) => (typeof v === "number" ? String(v).padStart(2, "0") : v.trim()))
  .pipe(z.string().min(1).max(20));

export const keyEnvelopeSchema = z.object({
  status: anything,
  rc: rcSchema,
  message: messageText,
  data: anything,
  errors: anything,
});

export type KeyEnvelope = z.infer<typeof keyEnvelopeSchema>;

/** how this interface names a request's product and destination */
export const KEY_FIELDS: IdentityFields = { code: "product_code", customerNo: "customer_id" };

// ---- times ----

const WIB_OFFSET_MS = 7 * 60 * 60 * 1000;

/** the key interface's ISO 8601 time as the "YYYY-MM-DD HH:MM:SS" (WIB) kios shows; else as sent */
function wibTimeOf(value: string | undefined): string {
  if (!value) return "";
  const at = parseSupplierTime(value);
  if (!at) return value;
  return new Date(at.getTime() + WIB_OFFSET_MS).toISOString().slice(0, 19).replace("T", " ");
}

// ---- products ----

// a product record has code, name, price, type and status (docs/supplier.md#products); the rest is read when the
// supplier sends it (the sandbox does)
const productSchema = z.object({ ...PRODUCT_FIELDS, operator: text });

/** a prepaid product's category from its name, when the supplier names none */
function derivedCategory(kind: ProductType, name: string): string {
  if (kind === "game") return "Games";
  if (kind === "pasca") return "Tagihan";
  if (/\bpln\b|token listrik/i.test(name)) return "PLN";
  if (/\b(go-?pay|ovo|dana|shopee ?pay|linkaja|e-?money|e-?wallet)\b/i.test(name)) return "E-Money";
  if (/\b(data|kuota|internet|\d+(\.\d+)? ?[gm]b)\b/i.test(name)) return "Data";
  return "Pulsa";
}

/** a product list; an unusable record is skipped and counted */
export function toKeyProducts(
  data: unknown,
  kind: ProductType,
): { products: SupplierProduct[]; skipped: number } {
  return productList(data, productSchema, (p) => {
    const typeText = p.type?.trim() ?? "";
    // type is "e.g. a category" (docs/supplier.md#products): a kind is taken as such, anything else as a category
    const isKind = PRODUCT_KINDS.includes(typeText.toLowerCase());
    const type = isKind ? (typeText.toLowerCase() as ProductType) : kind;
    const name = p.name?.trim() || p.code;
    return {
      code: p.code,
      name,
      category: p.category?.trim() || (!isKind && typeText) || derivedCategory(type, name),
      brand: p.brand?.trim() || p.operator?.trim() || "",
      type,
    };
  });
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
  // a failed record's machine-readable reason (kios's decision, docs/supplier.md#failure-reasons)
  reason: anything,
  // bill payments (kios's decision, docs/supplier.md): the product type and the bill
  type: text,
  ...BILL_FIELDS,
});

/** this interface also says "processing" for a transaction under way */
const KEY_STATES: Readonly<Record<string, TransactionStatus>> = {
  ...STATUS_WORDS,
  processing: "pending",
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

/**
 * what a record says it is: a bill payment by its product type (pasca) or its bill amounts,
 * an order by a prepaid or game type; undefined when it says neither (docs/supplier.md#the-transaction-record)
 */
export function recordKind(data: unknown): "order" | "bill" | undefined {
  if (data === null || typeof data !== "object" || Array.isArray(data)) return undefined;
  const d = data as Record<string, unknown>;
  const type = typeof d.type === "string" ? d.type.trim().toLowerCase() : "";
  if (type === "pasca" || !absent(d.tagihan)) return "bill";
  if (type === "prepaid" || type === "game") return "order";
  return undefined;
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
  // a blank status is no status here: the rc decides
  const status = statusOf(d.status?.trim() ? d.status : undefined, KEY_STATES, {
    status: ctx.rcState === "any" ? undefined : ctx.rcState,
    by: `rc ${ctx.rc}`,
  });
  const refId = refIdOf(d.ref_id, ctx.refId, what);
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
    trxId: d.trx_id || undefined,
    ...reasonOf(d.reason, status),
  };
  if (kind === "order") {
    return { kind: "order", ...common, price: orderPrice(d.price, status, what) };
  }
  const price = rupiahField(d.price, "price", what);
  const admin = rupiahField(d.admin, "admin", what);
  let tagihan = rupiahField(d.tagihan, "tagihan", what);
  // the bare record has only price: it is the total paid (docs/supplier.md#the-transaction-record)
  let total = rupiahField(d.total, "total", what) ?? price;
  if (total === undefined && tagihan !== undefined && admin !== undefined) total = tagihan + admin;
  if (tagihan === undefined && total !== undefined) tagihan = total - (admin ?? 0);
  // a failed payment may come without amounts; a pending or paid one must carry them
  if (status !== "failed" && total === undefined) {
    throw bad(`malformed ${what} from the supplier: no total or price`);
  }
  const amounts = { tagihan: tagihan ?? 0, admin: admin ?? 0, total: total ?? 0 };
  return { kind: "bill", ...common, price: amounts.total, bill: billOf(d, amounts) };
}

// ---- inquiry ----

const inquirySchema = z.object({ ...INQUIRY_FIELDS, product_code: text, customer_id: text });

export function toKeyInquiry(data: unknown, request: Identity, nowMs: number): InquiryResult {
  const named = (d: z.output<typeof inquirySchema>) => ({
    code: d.product_code,
    customerNo: d.customer_id,
  });
  return inquiryResult(inquirySchema, named, data, request, nowMs);
}
