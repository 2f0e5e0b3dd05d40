// what becomes of a transaction, by its customer number (README.md, "Outcomes"): the
// documentation's test numbers when `testing` is set, else the last three digits.

export interface Outcome {
  /** refused: nothing is formed (the ref_id stays free); the others form a transaction */
  initial: "success" | "pending" | "failed" | "refused";
  final: "success" | "failed";
  /** the rc of the first answer (a refusal's or a failure's), and of the final failure */
  rc: string;
  finalRc: string;
}

const ok: Outcome = { initial: "success", final: "success", rc: "00", finalRc: "00" };
const pending = (final: "success" | "failed", finalRc: string, rc = "03"): Outcome => ({
  initial: "pending",
  final,
  rc,
  finalRc,
});
const failed = (rc: string): Outcome => ({ initial: "failed", final: "failed", rc, finalRc: rc });
const refused = (rc: string): Outcome => ({ initial: "refused", final: "failed", rc, finalRc: rc });

/** the documentation's test case (testing: true) */
const TEST_NUMBERS: Readonly<Record<string, Outcome>> = {
  "087800001230": ok,
  "087800001232": failed("02"),
  "087800001233": pending("success", "00"),
  "087800001234": pending("failed", "02"),
};

/** the sandbox's own endings; every other number succeeds at once */
const ENDINGS: Readonly<Record<string, Outcome>> = {
  "803": pending("success", "00"),
  "899": pending("success", "00", "99"),
  "804": pending("failed", "02"),
  "801": failed("01"),
  "802": failed("02"),
  "855": failed("55"),
  "871": pending("failed", "71"),
  "854": failed("54"),
  "851": pending("failed", "51"),
  "868": refused("68"),
  "862": refused("62"),
  "877": failed("77"),
};

export function outcomeOf(customerNo: string, testing: boolean): Outcome {
  if (testing) return TEST_NUMBERS[customerNo] ?? ok;
  return ENDINGS[customerNo.slice(-3)] ?? ok;
}

/** the documented message of each rc the sandbox sends */
export const RC_MESSAGES: Readonly<Record<string, string>> = {
  "00": "Transaksi Sukses",
  "01": "Timeout",
  "02": "Transaksi Gagal",
  "03": "Transaksi Pending",
  "40": "Payload Error",
  "41": "Signature Anda salah",
  "43": "SKU tidak di temukan atau Non-Aktif",
  "44": "Saldo tidak cukup",
  "49": "Ref ID tidak unik",
  "50": "Transaksi Tidak Ditemukan",
  "51": "Nomor Tujuan Diblokir",
  "54": "Nomor Tujuan Salah",
  "55": "Produk Sedang Gangguan",
  "60": "Tagihan belum tersedia",
  "62": "Seller sedang mengalami gangguan",
  "68": "Stok habis",
  "69": "Harga seller lebih besar dari ketentuan harga Buyer",
  "71": "Produk Sedang Tidak Stabil",
  "77": "Kode tidak terdaftar",
  "83": "Anda sudah melakukan pengecekan daftar harga, silahkan coba lagi dalam 5 menit",
  "99": "DF Router Issue",
};

/** postpaid: PLN's documented test customers, and any other number has a bill */
export interface BillOutcome {
  inquiry: "bill" | "none";
  payment: "success" | "failed" | "pending-success" | "pending-failed";
}

const BILL_NUMBERS: Readonly<Record<string, BillOutcome>> = {
  "530000000003": { inquiry: "none", payment: "failed" },
  "530000000006": { inquiry: "bill", payment: "failed" },
  "630000000001": { inquiry: "bill", payment: "pending-success" },
  "630000000006": { inquiry: "bill", payment: "pending-failed" },
};

export function billOutcomeOf(customerNo: string): BillOutcome {
  return BILL_NUMBERS[customerNo] ?? { inquiry: "bill", payment: "success" };
}
