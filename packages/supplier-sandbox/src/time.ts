// the supplier speaks Western Indonesian Time (WIB, UTC+7) without an offset in its strings.

const WIB_OFFSET_MS = 7 * 60 * 60 * 1000;

/** "YYYY-MM-DD HH:MM:SS" in WIB */
export function formatWib(ms: number): string {
  return new Date(ms + WIB_OFFSET_MS).toISOString().slice(0, 19).replace("T", " ");
}

/** ISO 8601 in WIB with its offset, "YYYY-MM-DDTHH:MM:SS+07:00" (the key interface's times) */
export function formatIsoWib(ms: number): string {
  return `${formatWib(ms).replace(" ", "T")}+07:00`;
}

/** year and month (1–12) in WIB */
export function wibMonth(ms: number): { year: number; month: number } {
  const d = new Date(ms + WIB_OFFSET_MS);
  return { year: d.getUTCFullYear(), month: d.getUTCMonth() + 1 };
}

/** the n months before the one containing ms, oldest first, as "YYYYMM" */
export function previousPeriods(ms: number, n: number): string[] {
  const { year, month } = wibMonth(ms);
  const out: string[] = [];
  for (let i = n; i >= 1; i--) {
    const index = year * 12 + (month - 1) - i;
    const y = Math.floor(index / 12);
    const m = (index % 12) + 1;
    out.push(`${y}${String(m).padStart(2, "0")}`);
  }
  return out;
}

/** "YYYY-MM-DD" (WIB) of a given day in the month containing ms */
export function dayOfMonth(ms: number, day: number): string {
  const { year, month } = wibMonth(ms);
  return `${year}-${String(month).padStart(2, "0")}-${String(day).padStart(2, "0")}`;
}

/** "5.000.000": Indonesian thousands separators */
export function thousands(n: number): string {
  const digits = String(Math.trunc(Math.abs(n)));
  let out = "";
  for (let i = 0; i < digits.length; i++) {
    if (i > 0 && (digits.length - i) % 3 === 0) out += ".";
    out += digits[i];
  }
  return n < 0 ? `-${out}` : out;
}

export function unixSeconds(ms: number): number {
  return Math.floor(ms / 1000);
}
