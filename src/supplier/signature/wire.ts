import { z } from "zod";
import type { IdentityFields } from "../checks.ts";
import {
  anything,
  BILL_FIELDS,
  billAmounts,
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
  STATUS_WORDS,
  statusOf,
  text,
} from "../records.ts";
import type {
  Identity,
  InquiryResult,
  ProductType,
  SupplierProduct,
  SupplierTransaction,
  TransactionStatus,
} from "../types.ts";

// the signature-based interface's wire format, validated at run time and normalised once
// (records.ts): snake_case → camelCase, "Pending"/"pending" → "pending", string amounts →
// integers. Only this interface's envelope, field names and record shapes are here.

export const envelopeSchema = z.object({
  success: anything,
  code: z.string().trim().min(1).max(100),
  message: messageText,
  data: anything,
  errors: anything,
  meta: anything,
});

export type Envelope = z.infer<typeof envelopeSchema>;

/** how this interface names a request's product and destination */
export const SIGNATURE_FIELDS: IdentityFields = { code: "code", customerNo: "customer_no" };

// ---- products ----

const productSchema = z.object(PRODUCT_FIELDS);

/** a product list; an unusable record is skipped and counted */
export function toProducts(
  data: unknown,
  cmd: ProductType,
): { products: SupplierProduct[]; skipped: number } {
  return productList(data, productSchema, (p) => ({
    code: p.code,
    name: p.name ?? p.code,
    category: p.category ?? "",
    brand: p.brand ?? "",
    type: PRODUCT_KINDS.includes(p.type?.toLowerCase() ?? "")
      ? (p.type!.toLowerCase() as ProductType)
      : cmd,
  }));
}

// ---- transactions ----

/** what the request (or the status lookup) knew, to fill what a reply leaves out */
export interface TransactionContext {
  /** the answer's code, e.g. ORDER_PENDING; undefined for callbacks */
  supplierCode?: string | undefined;
  message?: string | undefined;
  refId?: string | undefined;
  code?: string | undefined;
  customerNo?: string | undefined;
  /** the status the answer code implies */
  status?: TransactionStatus | undefined;
}

const orderSchema = z.object({
  ref_id: text,
  status: text,
  customer_no: text,
  code: text,
  name: text,
  price: anything,
  sn: text,
  created_at: text,
  reason: anything,
});

/** a bill payment result: an order result's fields (its price unused) and the bill's */
const billSchema = orderSchema.extend(BILL_FIELDS);

type OrderRecord = z.output<typeof orderSchema>;

/** what order and bill payment results share: the status, the ref_id, the product and destination */
function resultOf<S extends z.ZodType<OrderRecord>>(
  schema: S,
  data: unknown,
  ctx: TransactionContext,
  what: string,
) {
  const d: z.output<S> = parse(schema, data, what);
  const status = statusOf(d.status, STATUS_WORDS, { status: ctx.status, by: "code" });
  const common = {
    refId: refIdOf(d.ref_id, ctx.refId, what),
    status,
    customerNo: d.customer_no || ctx.customerNo || "",
    code: d.code || ctx.code || "",
    name: d.name ?? "",
    sn: d.sn || null,
    createdAt: d.created_at ?? "",
    message: ctx.message ?? "",
    ...reasonOf(d.reason, status),
  };
  return { d, common };
}

/** an order result (prepaid, game) → SupplierTransaction */
export function toOrderTransaction(data: unknown, ctx: TransactionContext): SupplierTransaction {
  const what = "order result";
  const { d, common } = resultOf(orderSchema, data, ctx, what);
  return {
    kind: "order",
    ...common,
    price: orderPrice(d.price, common.status, what),
    supplierCode: ctx.supplierCode ?? `ORDER_${common.status.toUpperCase()}`,
  };
}

/** a bill payment result (pay-pasca) → SupplierTransaction */
export function toBillTransaction(data: unknown, ctx: TransactionContext): SupplierTransaction {
  const what = "bill payment result";
  const { d, common } = resultOf(billSchema, data, ctx, what);
  // a failed payment may come without amounts; a pending or paid one must carry them
  const amounts = billAmounts(d, what, common.status !== "failed");
  return {
    kind: "bill",
    ...common,
    price: amounts.total,
    bill: billOf(d, amounts),
    supplierCode: ctx.supplierCode ?? `BILL_PAYMENT_${common.status.toUpperCase()}`,
  };
}

// ---- inquiry ----

const inquirySchema = z.object({ ...INQUIRY_FIELDS, customer_no: text, code: text });

export function toInquiry(data: unknown, request: Identity, nowMs: number): InquiryResult {
  const named = (d: z.output<typeof inquirySchema>) => ({
    code: d.code,
    customerNo: d.customer_no,
  });
  return inquiryResult(inquirySchema, named, data, request, nowMs);
}
