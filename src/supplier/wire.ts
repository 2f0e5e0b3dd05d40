import { z } from "zod";
import { parseRupiah, wholeRupiah } from "./amounts.ts";
import {
  type BillAmounts,
  type BillDetails,
  type BillPeriod,
  type InquiryResult,
  type ProductType,
  type SupplierBalance,
  SupplierError,
  type SupplierProduct,
  type SupplierTransaction,
  type TransactionStatus,
} from "./types.ts";

// the signature-based interface's wire format, validated at run time and normalised once:
// snake_case → camelCase, "Pending"/"pending" → "pending", string amounts → integers.
// Tolerant by design: unknown fields are ignored and only what kios uses is checked.

// zod 4 treats a missing key as an issue unless the field is marked optional
const text = z
  .unknown()
  .transform((v) => (typeof v === "string" ? v : typeof v === "number" ? String(v) : undefined))
  .optional();
const anything = z.unknown().optional();

export const envelopeSchema = z.object({
  success: anything,
  code: z.string().trim().min(1).max(100),
  message: z
    .unknown()
    .optional()
    .transform((v) => (typeof v === "string" ? v : "")),
  data: anything,
  errors: anything,
  meta: anything,
});

export type Envelope = z.infer<typeof envelopeSchema>;

/** VALIDATION_ERROR's `errors: { field: [messages] }`, tolerating a bare string per field */
export function parseFieldErrors(value: unknown): Record<string, string[]> | undefined {
  if (value === null || typeof value !== "object" || Array.isArray(value)) return undefined;
  const out: Record<string, string[]> = {};
  for (const [field, messages] of Object.entries(value)) {
    const list = Array.isArray(messages) ? messages : [messages];
    out[field] = list.filter((m): m is string => typeof m === "string");
  }
  return out;
}

function malformed(what: string, error: z.ZodError): SupplierError {
  // zod's messages name paths and types, never the values, so nothing secret leaks here
  const issues = error.issues
    .slice(0, 3)
    .map((i) => `${i.path.join(".") || "(root)"}: ${i.message}`)
    .join("; ");
  return new SupplierError("BAD_RESPONSE", `malformed ${what} from the supplier: ${issues}`);
}

function parse<T extends z.ZodType>(schema: T, value: unknown, what: string): z.output<T> {
  const result = schema.safeParse(value);
  if (!result.success) throw malformed(what, result.error);
  return result.data;
}

function bad(message: string): SupplierError {
  return new SupplierError("BAD_RESPONSE", message);
}

// ---- balance ----

const balanceSchema = z.object({
  balance: anything,
  balance_formatted: text,
});

export function toBalance(data: unknown): SupplierBalance {
  const d = parse(balanceSchema, data, "balance");
  const balance = wholeRupiah(d.balance);
  if (balance === undefined)
    throw bad("malformed balance from the supplier: balance is not rupiah");
  return { balance, balanceFormatted: d.balance_formatted ?? String(balance) };
}

// ---- products ----

const PRODUCT_TYPES = ["prepaid", "game", "pasca"] as const;

const productSchema = z.object({
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
});

/** one product record, or undefined when it is not usable (the caller counts the skipped) */
export function toProduct(record: unknown, cmd: ProductType): SupplierProduct | undefined {
  const result = productSchema.safeParse(record);
  if (!result.success) return undefined;
  const p = result.data;
  const price = wholeRupiah(p.price);
  if (price === undefined) return undefined;
  const type = (PRODUCT_TYPES as readonly string[]).includes(p.type?.toLowerCase() ?? "")
    ? (p.type!.toLowerCase() as ProductType)
    : cmd;
  const active =
    p.status === true || (typeof p.status === "string" && p.status.toLowerCase() === "active");
  return {
    code: p.code,
    name: p.name ?? p.code,
    category: p.category ?? "",
    brand: p.brand ?? "",
    type,
    price,
    active,
    desc: p.desc ?? "",
    startCutOff: p.start_cut_off || undefined,
    endCutOff: p.end_cut_off || undefined,
  };
}

export function toProducts(
  data: unknown,
  cmd: ProductType,
): { products: SupplierProduct[]; skipped: number } {
  if (!Array.isArray(data))
    throw bad("malformed product list from the supplier: data is not a list");
  const products: SupplierProduct[] = [];
  let skipped = 0;
  for (const record of data) {
    const product = toProduct(record, cmd);
    if (product) products.push(product);
    else skipped += 1;
  }
  return { products, skipped };
}

// ---- transactions ----

const absent = (v: unknown) => v === undefined || v === null || v === "";

const STATUSES: readonly string[] = ["pending", "success", "failed"];

function resolveStatus(
  fromData: string | undefined,
  fromCode: TransactionStatus | undefined,
): TransactionStatus {
  const data = fromData?.trim().toLowerCase();
  if (data !== undefined && !STATUSES.includes(data)) {
    throw bad(`malformed transaction from the supplier: unknown status "${fromData}"`);
  }
  // an answer whose code and record disagree is not trusted with money
  if (data !== undefined && fromCode !== undefined && data !== fromCode) {
    throw bad(
      `inconsistent transaction from the supplier: code says ${fromCode}, record says ${data}`,
    );
  }
  const status = (data as TransactionStatus | undefined) ?? fromCode;
  if (!status) throw bad("malformed transaction from the supplier: no status");
  return status;
}

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
});

/** an order result (prepaid, game) → SupplierTransaction */
export function toOrderTransaction(data: unknown, ctx: TransactionContext): SupplierTransaction {
  const d = parse(orderSchema, data, "order result");
  const status = resolveStatus(d.status, ctx.status);
  const refId = d.ref_id || ctx.refId;
  if (!refId) throw bad("malformed order result from the supplier: no ref_id");
  const price = absent(d.price) ? undefined : wholeRupiah(d.price);
  if (!absent(d.price) && price === undefined) {
    throw bad("malformed order result from the supplier: price is not rupiah");
  }
  // a failed order may come without a price; a pending or successful one must carry it
  if (price === undefined && status !== "failed") {
    throw bad("malformed order result from the supplier: no price");
  }
  return {
    kind: "order",
    refId,
    status,
    customerNo: d.customer_no || ctx.customerNo || "",
    code: d.code || ctx.code || "",
    name: d.name ?? "",
    price: price ?? 0,
    sn: d.sn || null,
    createdAt: d.created_at ?? "",
    supplierCode: ctx.supplierCode ?? `ORDER_${status.toUpperCase()}`,
    message: ctx.message ?? "",
  };
}

const billSchema = z.object({
  ref_id: text,
  status: text,
  customer_no: text,
  customer_name: text,
  code: text,
  name: text,
  tagihan: anything,
  admin: anything,
  total: anything,
  sn: text,
  desc: anything,
  created_at: text,
});

/** tagihan, admin and total; total may be left out when tagihan and admin are given */
function billAmounts(
  d: { tagihan?: unknown; admin?: unknown; total?: unknown },
  what: string,
  required: boolean,
): { tagihan: number; admin: number; total: number } {
  const amount = (name: "tagihan" | "admin" | "total") => {
    if (absent(d[name])) return undefined;
    const n = wholeRupiah(d[name]);
    if (n === undefined) throw bad(`malformed ${what} from the supplier: ${name} is not rupiah`);
    return n;
  };
  const tagihan = amount("tagihan");
  const admin = amount("admin");
  let total = amount("total");
  if (total === undefined && tagihan !== undefined && admin !== undefined) total = tagihan + admin;
  if (required && (total === undefined || tagihan === undefined)) {
    throw bad(`malformed ${what} from the supplier: no tagihan or total`);
  }
  return { tagihan: tagihan ?? 0, admin: admin ?? 0, total: total ?? 0 };
}

/** a bill payment result (pay-pasca) → SupplierTransaction */
export function toBillTransaction(data: unknown, ctx: TransactionContext): SupplierTransaction {
  const d = parse(billSchema, data, "bill payment result");
  const status = resolveStatus(d.status, ctx.status);
  const refId = d.ref_id || ctx.refId;
  if (!refId) throw bad("malformed bill payment result from the supplier: no ref_id");
  // a failed payment may come without amounts; a pending or paid one must carry them
  const amounts = billAmounts(d, "bill payment result", status !== "failed");
  const bill: BillAmounts = {
    customerName: d.customer_name ?? "",
    ...amounts,
    desc: parseBillDetails(d.desc),
  };
  return {
    kind: "bill",
    refId,
    status,
    customerNo: d.customer_no || ctx.customerNo || "",
    code: d.code || ctx.code || "",
    name: d.name ?? "",
    price: amounts.total,
    sn: d.sn || null,
    createdAt: d.created_at ?? "",
    bill,
    supplierCode: ctx.supplierCode ?? `BILL_PAYMENT_${status.toUpperCase()}`,
    message: ctx.message ?? "",
  };
}

/** BILL_PAYMENT_FAILED carries `data: null`: the failed transaction is built from the request */
export function failedBillFromRequest(ctx: TransactionContext): SupplierTransaction {
  return {
    kind: "bill",
    refId: ctx.refId ?? "",
    status: "failed",
    customerNo: ctx.customerNo ?? "",
    code: ctx.code ?? "",
    name: "",
    price: 0,
    sn: null,
    createdAt: "",
    supplierCode: ctx.supplierCode ?? "BILL_PAYMENT_FAILED",
    message: ctx.message ?? "",
  };
}

// ---- bill details (desc) ----

function str(v: unknown): string | undefined {
  if (typeof v === "string") return v;
  if (typeof v === "number" && Number.isFinite(v)) return String(v);
  return undefined;
}

function amountOf(v: unknown): number | undefined {
  if (typeof v === "number") return Number.isFinite(v) ? Math.round(v) : undefined;
  return typeof v === "string" ? parseRupiah(v) : undefined;
}

function intOf(v: unknown): number | undefined {
  if (typeof v === "number") return Number.isInteger(v) ? v : undefined;
  if (typeof v === "string" && /^\s*\d+\s*$/.test(v)) return Number(v);
  return undefined;
}

function record(v: unknown): Record<string, unknown> | undefined {
  return v !== null && typeof v === "object" && !Array.isArray(v)
    ? (v as Record<string, unknown>)
    : undefined;
}

/**
 * a bill's `desc`, leniently: it is shown to the customer, not used to move money, so a
 * field of an unexpected type is dropped rather than failing the whole payment result.
 */
export function parseBillDetails(value: unknown): BillDetails | undefined {
  const desc = record(value);
  if (!desc) return undefined;
  const detail: BillPeriod[] = (Array.isArray(desc.detail) ? desc.detail : [])
    .map(record)
    .filter((e): e is Record<string, unknown> => e !== undefined)
    .map((e) => ({
      periode: str(e.periode),
      nilaiTagihan: amountOf(e.nilai_tagihan),
      admin: amountOf(e.admin),
      denda: amountOf(e.denda),
      meterAwal: str(e.meter_awal),
      meterAkhir: str(e.meter_akhir),
      biayaLain: amountOf(e.biaya_lain),
    }));
  return {
    lembarTagihan: intOf(desc.lembar_tagihan) ?? Math.max(detail.length, 1),
    jumlahPeserta: str(desc.jumlah_peserta),
    alamat: str(desc.alamat),
    tarif: str(desc.tarif),
    daya: intOf(desc.daya),
    jatuhTempo: str(desc.jatuh_tempo),
    itemName: str(desc.item_name),
    noRangka: str(desc.no_rangka),
    noPol: str(desc.no_pol),
    tenor: str(desc.tenor),
    detail,
  };
}

// ---- inquiry ----

const inquirySchema = z.object({
  ref_id: text,
  customer_no: text,
  customer_name: text,
  code: text,
  tagihan: anything,
  admin: anything,
  total: anything,
  desc: anything,
  expires_at: anything,
});

export const INQUIRY_WINDOW_MS = 5 * 60 * 1000;

/**
 * the supplier's times: ISO 8601 with a zone as given; "YYYY-MM-DD HH:MM:SS" without one is
 * WIB (UTC+7), like created_at; a number is Unix seconds (or milliseconds when that large).
 */
export function parseSupplierTime(value: unknown): Date | undefined {
  if (typeof value === "number" && Number.isFinite(value) && value > 0) {
    return new Date(value < 1e12 ? value * 1000 : value);
  }
  if (typeof value !== "string") return undefined;
  const s = value.trim();
  const local = /^(\d{4}-\d{2}-\d{2})[ T](\d{2}:\d{2}(:\d{2}(\.\d+)?)?)$/.exec(s);
  const iso = local ? `${local[1]}T${local[2]}+07:00` : s;
  if (!local && !/(Z|[+-]\d{2}:?\d{2})$/i.test(s)) return undefined;
  const ms = Date.parse(iso);
  return Number.isNaN(ms) ? undefined : new Date(ms);
}

export function toInquiry(data: unknown, ctx: TransactionContext, nowMs: number): InquiryResult {
  const d = parse(inquirySchema, data, "inquiry result");
  const amounts = billAmounts(d, "inquiry result", true);
  return {
    refId: d.ref_id || ctx.refId || "",
    customerNo: d.customer_no || ctx.customerNo || "",
    code: d.code || ctx.code || "",
    customerName: d.customer_name ?? "",
    ...amounts,
    desc: parseBillDetails(d.desc),
    expiresAt: parseSupplierTime(d.expires_at) ?? new Date(nowMs + INQUIRY_WINDOW_MS),
  };
}
