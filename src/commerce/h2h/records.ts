import { eq } from "drizzle-orm";
import type { Executor } from "../../db/client.ts";
import { inquiries } from "../../db/schema.ts";
import type { BillDetails } from "../../supplier/types.ts";
import type { Order } from "../orders/types.ts";

// kios's orders as the protocol's records (docs/supplier.md#replies): the reseller's own
// ref_id, their price, the state mapped to the wire's words. What the reseller is told is
// built from the stored order alone, so an answer, a status and a callback agree.

const WIB_OFFSET_MS = 7 * 60 * 60 * 1000;

/** "YYYY-MM-DD HH:MM:SS" in WIB, as the protocol's times are */
export function formatWib(ms: number): string {
  return new Date(ms + WIB_OFFSET_MS).toISOString().slice(0, 19).replace("T", " ");
}

type WireStatus = "pending" | "success" | "failed";

/** created, submitted, unknown and pending are all "still being processed" to a reseller */
export function wireStatusOf(order: Order): WireStatus {
  if (order.status === "success") return "success";
  if (order.status === "failed") return "failed";
  return "pending";
}

const CAPITALISED = { pending: "Pending", success: "Success", failed: "Failed" } as const;

/** the bill's desc as the wire spells it (snake_case, amounts as strings) */
export function wireDesc(d: BillDetails | null | undefined): Record<string, unknown> | undefined {
  if (!d) return undefined;
  const text = (n: number | undefined) => (n === undefined ? undefined : String(n));
  return {
    lembar_tagihan: d.lembarTagihan,
    jumlah_peserta: d.jumlahPeserta,
    alamat: d.alamat,
    tarif: d.tarif,
    daya: d.daya,
    jatuh_tempo: d.jatuhTempo,
    item_name: d.itemName,
    no_rangka: d.noRangka,
    no_pol: d.noPol,
    tenor: d.tenor,
    detail: d.detail.map((p) => ({
      periode: p.periode,
      nilai_tagihan: text(p.nilaiTagihan),
      admin: text(p.admin),
      denda: text(p.denda),
      meter_awal: p.meterAwal,
      meter_akhir: p.meterAkhir,
      biaya_lain: text(p.biayaLain),
    })),
  };
}

export interface BillOfOrder {
  customerName: string;
  tagihan: number;
  details: BillDetails | null;
}

/** an order result or a bill payment result, under the reseller's ref_id */
export function wireRecord(
  order: Order,
  refId: string,
  bill: BillOfOrder | undefined,
): Record<string, unknown> {
  const status = wireStatusOf(order);
  const sn = status === "success" ? order.sn : null;
  const createdAt = formatWib(order.createdAt.getTime());
  if (order.kind !== "bill") {
    return {
      ref_id: refId,
      status: CAPITALISED[status],
      customer_no: order.destination,
      code: order.productCode,
      name: order.productName,
      price: order.price,
      sn,
      created_at: createdAt,
      // a test order (SUPPLIER_TESTING) was simulated: its answer, status and callback say so
      ...(order.testing ? { testing: true } : {}),
    };
  }
  const tagihan = bill?.tagihan ?? order.price;
  return {
    ref_id: refId,
    status,
    customer_no: order.destination,
    customer_name: bill?.customerName ?? "",
    code: order.productCode,
    tagihan,
    admin: order.price - tagihan,
    total: order.price,
    sn,
    ...(status === "pending" ? {} : { desc: wireDesc(bill?.details) }),
    created_at: createdAt,
    ...(order.testing ? { testing: true } : {}),
  };
}

/** the bill an H2H payment paid (its inquiry), for the bill payment result */
export async function billOfOrder(db: Executor, order: Order): Promise<BillOfOrder | undefined> {
  if (order.kind !== "bill" || order.inquiryId === null) return undefined;
  const [row] = await db.select().from(inquiries).where(eq(inquiries.id, order.inquiryId));
  return row
    ? {
        customerName: row.customerName,
        tagihan: row.tagihan,
        details: row.details as BillDetails | null,
      }
    : undefined;
}
