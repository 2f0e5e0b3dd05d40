import type { CatalogueEntry } from "./catalogue.ts";
import { address, CITY_NAMES, personName, vehicle } from "./names.ts";
import { between, pick, rngFor } from "./rng.ts";
import { dayOfMonth, previousPeriods, wibMonth } from "./time.ts";

// what an inquiry finds: a bill derived from the product and customer number alone (the same
// number always owes the same), with one detail entry per sheet. Amounts inside detail are
// strings (docs/supplier.md#amounts).

export interface BillData {
  customerName: string;
  tagihan: number;
  admin: number;
  total: number;
  desc: Record<string, unknown>;
}

/** bill sheets by the customer number's last digit: 0 → 1, 2 → 2, 3 → 3, others → 1 */
function sheetsFor(customerNo: string): number {
  const last = customerNo.replace(/\D/g, "").slice(-1);
  return last === "2" ? 2 : last === "3" ? 3 : 1;
}

/** no bill is due for numbers ending in 9 */
export function hasBill(customerNo: string): boolean {
  return !customerNo.replace(/\D/g, "").endsWith("9");
}

const PLN_TARIFFS: [string, number, number][] = [
  // tarif, daya (VA), rupiah per kWh
  ["R1", 900, 1352],
  ["R1", 1300, 1444.7],
  ["R1", 2200, 1444.7],
  ["R2", 3500, 1699.53],
  ["R2", 5500, 1699.53],
];

export function plnTariff(meter: string): { tarif: string; daya: number; rate: number } {
  const [tarif, daya, rate] = pick(rngFor("pln-tariff", meter), PLN_TARIFFS);
  return { tarif, daya, rate };
}

export function plnCustomerName(meter: string): string {
  return personName(rngFor("name", meter));
}

const str = (n: number) => String(Math.round(n));

export function billFor(entry: CatalogueEntry, customerNo: string, nowMs: number): BillData {
  const rng = rngFor("bill", entry.product.code, customerNo);
  const sheets = sheetsFor(customerNo);
  const adminPerSheet = entry.product.price;
  const periods = previousPeriods(nowMs, sheets);
  const late = (i: number) => i < sheets - 1; // every sheet but the newest is overdue
  const customerName =
    entry.billKind === "pln" ? plnCustomerName(customerNo) : personName(rngFor("name", customerNo));
  const city = entry.region ?? pick(rng, CITY_NAMES);

  let desc: Record<string, unknown>;
  let tagihan = 0;
  const detail: Record<string, string>[] = [];
  const period = (entryFields: Record<string, string>, nilaiRaw: number, dendaRaw: number) => {
    // whole rupiah, so tagihan is exactly the sum of what detail shows
    const nilai = Math.round(nilaiRaw);
    const denda = Math.round(dendaRaw);
    tagihan += nilai + denda;
    detail.push({
      ...entryFields,
      nilai_tagihan: str(nilai),
      admin: str(adminPerSheet),
      denda: str(denda),
    });
  };

  switch (entry.billKind) {
    case "pln": {
      const { tarif, daya, rate } = plnTariff(customerNo);
      let meter = between(rng, 1000, 40000);
      for (const [i, p] of periods.entries()) {
        const kwh = between(rng, 90, Math.round(daya / 5));
        const awal = meter;
        meter += kwh;
        period(
          {
            periode: p,
            meter_awal: String(awal).padStart(8, "0"),
            meter_akhir: String(meter).padStart(8, "0"),
          },
          kwh * rate,
          late(i) ? 3000 : 0,
        );
      }
      desc = { lembar_tagihan: sheets, tarif, daya, detail };
      break;
    }
    case "pdam": {
      let meter = between(rng, 100, 3000);
      const tarif = pick(rng, ["R1", "R2", "R3", "2A", "2B"]);
      for (const [i, p] of periods.entries()) {
        const m3 = between(rng, 8, 45);
        const biayaLain = 5000; // meter rent: part of nilai_tagihan, shown apart
        const awal = meter;
        meter += m3;
        const nilai = m3 * 4500 + biayaLain;
        const denda = late(i) ? 10_000 : 0;
        tagihan += nilai + denda;
        detail.push({
          periode: p,
          nilai_tagihan: str(nilai),
          admin: str(adminPerSheet),
          denda: str(denda),
          biaya_lain: str(biayaLain),
          meter_awal: String(awal),
          meter_akhir: String(meter),
        });
      }
      desc = {
        lembar_tagihan: sheets,
        alamat: address(rng, city),
        tarif,
        jatuh_tempo: dayOfMonth(nowMs, 20),
        detail,
      };
      break;
    }
    case "bpjs": {
      const peserta = between(rng, 1, 5);
      const iuran = pick(rng, [35_000, 100_000, 150_000]);
      for (const p of periods) period({ periode: p }, peserta * iuran, 0);
      desc = { lembar_tagihan: sheets, jumlah_peserta: String(peserta), alamat: city, detail };
      break;
    }
    case "telkom": {
      const base = entry.product.code.endsWith("INDIHOME")
        ? between(rng, 280, 520)
        : between(rng, 45, 180);
      for (const [i, p] of periods.entries()) {
        period({ periode: p }, base * 1000 + between(rng, 0, 999), late(i) ? 5000 : 0);
      }
      desc = { lembar_tagihan: sheets, detail };
      break;
    }
    case "mobile": {
      // mobile postpaid carries no per-period detail
      for (let i = 0; i < sheets; i++) {
        tagihan += between(rng, 80, 400) * 1000 + between(rng, 0, 999);
      }
      desc = { lembar_tagihan: sheets };
      break;
    }
    case "pbb": {
      const { year } = wibMonth(nowMs);
      const nilai = between(rng, 150, 2500) * 1000;
      for (let i = 0; i < sheets; i++) {
        const tahun = year - (sheets - 1 - i);
        period({ periode: String(tahun) }, nilai, late(i) ? Math.round(nilai * 0.24) : 0);
      }
      desc = { lembar_tagihan: sheets, alamat: address(rng, city), detail };
      break;
    }
    case "multifinance": {
      const v = vehicle(rng);
      const angsuran = between(rng, 600, 2500) * 1000;
      const tenor = pick(rng, [12, 24, 36, 48]);
      for (const [i, p] of periods.entries()) {
        period({ periode: p }, angsuran, late(i) ? Math.round(angsuran * 0.05) : 0);
      }
      desc = {
        lembar_tagihan: sheets,
        item_name: v.itemName,
        no_rangka: v.noRangka,
        no_pol: v.noPol,
        tenor: String(tenor),
        detail,
      };
      break;
    }
    default:
      throw new Error(`${entry.product.code} is not a bill product`);
  }

  const admin = adminPerSheet * sheets;
  return { customerName, tagihan, admin, total: tagihan + admin, desc };
}
