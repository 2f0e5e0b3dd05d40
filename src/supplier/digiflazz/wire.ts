import { z } from "zod";
import { wholeRupiah } from "../amounts.ts";
import { parseBillDetails } from "../bill-details.ts";
import type { IdentityFields } from "../checks.ts";
import { anything, bad, parse, productList, refIdOf, rupiahField, text } from "../records.ts";
import type {
  Identity,
  InquiryResult,
  ProductType,
  SupplierProduct,
  SupplierTransaction,
  TransactionStatus,
} from "../types.ts";
import { meaningOfRc, type RcMeaning } from "./codes.ts";
import { isDigiflazzGame } from "./games.ts";

// Digiflazz's wire format (docs/suppliers.md#digiflazz): every answer is {"data": …}, a
// transaction's state is its rc (codes.ts) and its status word must agree with it, amounts
// are rupiah, a bill's cost is its `price` (after the seller's commission), never its
// `selling_price`. Validated at run time and normalised once here.

/** the envelope: data is one record (with its rc and message) or a list (the price list) */
export const digiflazzEnvelopeSchema = z.object({ data: z.unknown() }).transform(({ data }) => {
  const record =
    data !== null && typeof data === "object" && !Array.isArray(data)
      ? (data as Record<string, unknown>)
      : undefined;
  const rc = record?.rc;
  return {
    rc:
      typeof rc === "string"
        ? rc.trim()
        : typeof rc === "number"
          ? String(rc).padStart(2, "0")
          : "",
    message: typeof record?.message === "string" ? record.message : "",
    data,
  };
});

export type DigiflazzEnvelope = z.output<typeof digiflazzEnvelopeSchema>;

export const DIGIFLAZZ_FIELDS: IdentityFields = {
  code: "buyer_sku_code",
  customerNo: "customer_no",
};

// ---- products ----

const prepaidSchema = z.object({
  buyer_sku_code: z.string().trim().min(1),
  product_name: text,
  category: text,
  brand: text,
  type: text,
  price: anything,
  buyer_product_status: anything,
  seller_product_status: anything,
  unlimited_stock: anything,
  stock: anything,
  start_cut_off: text,
  end_cut_off: text,
  desc: text,
});

const pascaSchema = z.object({
  buyer_sku_code: z.string().trim().min(1),
  product_name: text,
  category: text,
  brand: text,
  admin: anything,
  commission: anything,
  buyer_product_status: anything,
  seller_product_status: anything,
  desc: text,
});

/** "0:0" and "00:00" are the same instant; a window that starts where it ends is none */
function cutOff(start: string | undefined, end: string | undefined) {
  const hhmm = (v: string | undefined) => {
    const m = v ? /^(\d{1,2}):(\d{1,2})$/.exec(v.trim()) : null;
    return m ? `${m[1]!.padStart(2, "0")}:${m[2]!.padStart(2, "0")}` : undefined;
  };
  const s = hhmm(start);
  const e = hhmm(end);
  return s && e && s !== e ? { startCutOff: s, endCutOff: e } : {};
}

const yes = (v: unknown) => v === true || v === "true" || v === 1;

/** one prepaid list serves every prepaid kind: games by their category or brand (games.ts) */
export function toPrepaidProducts(
  data: unknown,
  kind: "prepaid" | "game",
): { products: SupplierProduct[]; skipped: number } {
  if (!Array.isArray(data)) throw bad("malformed product list from Digiflazz: data is not a list");
  const products: SupplierProduct[] = [];
  let skipped = 0;
  for (const record of data) {
    const r = prepaidSchema.safeParse(record);
    const price = r.success ? wholeRupiah(r.data.price) : undefined;
    if (!r.success || price === undefined || price < 0) {
      skipped += 1;
      continue;
    }
    const p = r.data;
    // by its category or its game's brand (games.ts): Digiflazz has no game list
    const type: ProductType = isDigiflazzGame(p) ? "game" : "prepaid";
    if (type !== kind) continue;
    const inStock = yes(p.unlimited_stock) || (typeof p.stock === "number" && p.stock > 0);
    products.push({
      code: p.buyer_sku_code,
      name: p.product_name?.trim() || p.buyer_sku_code,
      // a game is listed where the games are, whatever Digiflazz's category for it
      category: type === "game" ? "Games" : p.category?.trim() || "Pulsa",
      brand: p.brand?.trim() ?? "",
      type,
      price,
      active: yes(p.buyer_product_status) && yes(p.seller_product_status) && inStock,
      desc: p.desc ?? "",
      ...cutOff(p.start_cut_off, p.end_cut_off),
    });
  }
  return { products, skipped };
}

/** postpaid: the price is what the shop pays on top of the bill (admin less the seller's commission) */
export function toPascaProducts(data: unknown): { products: SupplierProduct[]; skipped: number } {
  return productList(
    Array.isArray(data)
      ? data.map((d) => {
          const r = pascaSchema.safeParse(d);
          if (!r.success) return d;
          const admin = wholeRupiah(r.data.admin);
          const commission = wholeRupiah(r.data.commission) ?? 0;
          return {
            code: r.data.buyer_sku_code,
            name: r.data.product_name,
            // the bill's kind is its brand; "Pascabayar" says only that it is a bill
            category: r.data.brand,
            brand: r.data.brand,
            type: "pasca",
            price: admin === undefined ? undefined : Math.max(0, admin - commission),
            status: yes(r.data.buyer_product_status) && yes(r.data.seller_product_status),
            desc: r.data.desc,
          };
        })
      : data,
    z.object({
      code: z.string().trim().min(1),
      name: text,
      category: text,
      brand: text,
      type: text,
      price: anything,
      status: anything,
      desc: text,
    }),
    (p) => ({
      code: p.code,
      name: p.name?.trim() || p.code,
      category: p.category?.trim() || "Tagihan",
      brand: p.brand?.trim() ?? "",
      type: "pasca",
    }),
  );
}

// ---- transactions ----

const transactionSchema = z.object({
  ref_id: text,
  customer_no: text,
  buyer_sku_code: text,
  message: text,
  status: text,
  rc: text,
  sn: text,
  buyer_last_saldo: anything,
  price: anything,
  // bills
  customer_name: text,
  admin: anything,
  selling_price: anything,
  periode: text,
  desc: anything,
});

const STATUS_WORDS: Readonly<Record<string, TransactionStatus>> = {
  sukses: "success",
  pending: "pending",
  gagal: "failed",
};

/** the state an rc gives a transaction, or undefined when it carries none (a refusal, unknown) */
function stateOfRc(meaning: RcMeaning): TransactionStatus | undefined {
  if (meaning.kind === "success") return "success";
  if (meaning.kind === "pending") return "pending";
  if (meaning.kind === "failed") return "failed";
  return undefined;
}

/** a balance reading: buyer_last_saldo (a float in the documentation; whole rupiah here) */
export function balanceOf(value: unknown): number | undefined {
  if (typeof value === "number" && Number.isFinite(value) && value >= 0) return Math.floor(value);
  return wholeRupiah(value);
}

/**
 * a transaction record whose rc carries a state → SupplierTransaction (throws BAD_RESPONSE
 * when its status word says another state than its rc, or its amounts are not rupiah)
 */
export function toDigiflazzTransaction(
  data: unknown,
  kind: "order" | "bill",
  known: Partial<Identity>,
): SupplierTransaction {
  const what = kind === "bill" ? "bill payment" : "transaction";
  const d = parse(transactionSchema, data, what);
  const rc = d.rc?.trim() ?? "";
  const meaning = meaningOfRc(rc);
  const status = stateOfRc(meaning);
  if (!status) throw bad(`malformed ${what} from Digiflazz: rc ${rc} carries no state`);
  const said = d.status?.trim().toLowerCase();
  const word = said ? STATUS_WORDS[said] : undefined;
  if (said && !word) throw bad(`malformed ${what} from Digiflazz: unknown status "${d.status}"`);
  // rc 01 is read as pending whatever its word says (codes.ts); any other disagreement is
  // not trusted with money
  if (word && word !== status && rc !== "01") {
    throw bad(`inconsistent ${what} from Digiflazz: rc ${rc} says ${status}, status says ${said}`);
  }
  const price = rupiahField(d.price, "price", what);
  if (price === undefined && status !== "failed")
    throw bad(`malformed ${what} from Digiflazz: no price`);
  const balanceAfter = balanceOf(d.buyer_last_saldo);
  const common = {
    refId: refIdOf(d.ref_id, known.refId, what),
    status,
    customerNo: d.customer_no || known.customerNo || "",
    code: d.buyer_sku_code || known.code || "",
    name: "",
    sn: status === "success" ? d.sn?.trim() || null : null,
    createdAt: "",
    supplierCode: rc,
    message: d.message ?? "",
    ...(meaning.kind === "failed" && meaning.reason ? { reason: meaning.reason } : {}),
    ...(balanceAfter === undefined ? {} : { balanceAfter }),
  };
  if (kind === "order") return { kind: "order", ...common, price: price ?? 0 };
  const admin = rupiahField(d.admin, "admin", what) ?? 0;
  const selling = rupiahField(d.selling_price, "selling_price", what);
  const total = price ?? 0;
  return {
    kind: "bill",
    ...common,
    price: total,
    bill: {
      customerName: d.customer_name ?? "",
      tagihan: Math.max(0, (selling ?? total) - admin),
      admin,
      total,
      desc: parseBillDetails(d.desc),
    },
  };
}

// ---- inquiry ----

const INQUIRY_WINDOW_MS = 5 * 60 * 1000;
const WIB_MS = 7 * 3600_000;
const DAY_MS = 24 * 3600_000;

/** pay-pasca must follow its inquiry the same day (WIB): kios's window never crosses midnight */
function nextWibMidnight(nowMs: number): number {
  return Math.floor((nowMs + WIB_MS) / DAY_MS) * DAY_MS + DAY_MS - WIB_MS;
}

/** inq-pasca's answer → InquiryResult: the shop pays `price`; the customer sees selling_price */
export function toDigiflazzInquiry(data: unknown, request: Identity, nowMs: number): InquiryResult {
  const what = "inquiry result";
  const d = parse(transactionSchema, data, what);
  const price = rupiahField(d.price, "price", what);
  if (price === undefined) throw bad(`malformed ${what} from Digiflazz: no price`);
  const admin = rupiahField(d.admin, "admin", what) ?? 0;
  const selling = rupiahField(d.selling_price, "selling_price", what) ?? price;
  return {
    refId: refIdOf(d.ref_id, request.refId, what),
    customerNo: d.customer_no || request.customerNo,
    code: d.buyer_sku_code || request.code,
    customerName: d.customer_name ?? "",
    tagihan: Math.max(0, selling - admin),
    admin,
    total: price,
    desc: parseBillDetails(d.desc),
    expiresAt: new Date(Math.min(nowMs + INQUIRY_WINDOW_MS, nextWibMidnight(nowMs))),
  };
}
