import { parseRupiah } from "./amounts.ts";
import type { BillDetails, BillPeriod } from "./types.ts";

// a bill's `desc` (the periods, the address, the tariff…), the same object in both wire
// interfaces' bill records and inquiry results.

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
