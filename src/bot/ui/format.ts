// how money, tokens and times look in chat. Everything here is pure and locale-free:
// rupiah are written the indonesian way in both languages (Rp10.000).

/** Rp10.000, -Rp2.500 */
export function rupiah(amount: number): string {
  const sign = amount < 0 ? "-" : "";
  const digits = String(Math.abs(Math.trunc(amount)));
  return `${sign}Rp${digits.replace(/\B(?=(\d{3})+(?!\d))/g, ".")}`;
}

/** parses what people type as an amount: 50000, 50.000, Rp 50.000, 50rb, 50k, 1jt */
export function parseAmount(input: string): number | undefined {
  const s = input
    .trim()
    .toLowerCase()
    .replace(/^rp\.?\s*/, "");
  const m = /^(\d{1,3}(?:[.,]\d{3})+|\d+)\s*(rb|ribu|k|jt|juta)?$/.exec(s);
  if (!m) return undefined;
  const base = Number(m[1]!.replace(/[.,]/g, ""));
  const factor = m[2] === "jt" || m[2] === "juta" ? 1_000_000 : m[2] ? 1000 : 1;
  const n = base * factor;
  return Number.isSafeInteger(n) && n > 0 ? n : undefined;
}

export function escapeHtml(s: string): string {
  return s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
}

/** "1234 5678 9012 3456 7890" */
export function groupDigits(digits: string, size = 4): string {
  return digits.replace(new RegExp(`(.{${size}})(?=.)`, "g"), "$1 ");
}

export interface PlnToken {
  /** grouped in fours */
  token: string;
  name?: string | undefined;
  tarif?: string | undefined;
  daya?: string | undefined;
  kwh?: string | undefined;
}

/**
 * a PLN serial: "<20-digit token>/<NAME>/<TARIF>/<DAYA>/<KWH>", or just the token.
 * returns undefined when the serial holds no 20-digit token.
 */
export function parsePlnToken(sn: string): PlnToken | undefined {
  const [first, name, tarif, daya, kwh] = sn.split("/").map((p) => p.trim());
  const digits = (first ?? "").replace(/[\s-]/g, "");
  if (!/^\d{20}$/.test(digits)) return undefined;
  return {
    token: groupDigits(digits),
    name: name || undefined,
    tarif: tarif || undefined,
    daya: daya || undefined,
    kwh: kwh || undefined,
  };
}

// the shop is in indonesia: times are shown in WIB (UTC+7, no daylight saving)
const WIB_OFFSET_MS = 7 * 3600_000;

function wibParts(ms: number) {
  const d = new Date(ms + WIB_OFFSET_MS);
  const pad = (n: number) => String(n).padStart(2, "0");
  return {
    date: `${pad(d.getUTCDate())}/${pad(d.getUTCMonth() + 1)}/${d.getUTCFullYear()}`,
    time: `${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}`,
  };
}

/** "14:05 WIB" */
export function wibTime(ms: number): string {
  return `${wibParts(ms).time} WIB`;
}

/** "22/11/2025 14:05 WIB" */
export function wibDateTime(ms: number): string {
  const p = wibParts(ms);
  return `${p.date} ${p.time} WIB`;
}

/** a bill's period as suppliers write it ("202611") in words: "November 2026"; else as it came */
export function billPeriod(locale: string, period: string): string {
  const m = /^(\d{4})(\d{2})$/.exec(period.trim());
  if (!m || Number(m[2]) < 1 || Number(m[2]) > 12) return period;
  return new Intl.DateTimeFormat(locale, {
    month: "long",
    year: "numeric",
    timeZone: "UTC",
  }).format(new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, 1)));
}

/** a bill's date ("2026-12-20") as people write it: "20 Des 2026"; else as it came */
export function billDate(locale: string, date: string): string {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(date.trim());
  if (!m) return date;
  const at = new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3])));
  if (Number.isNaN(at.getTime()) || at.getUTCDate() !== Number(m[3])) return date;
  return new Intl.DateTimeFormat(locale, {
    day: "numeric",
    month: "short",
    year: "numeric",
    timeZone: "UTC",
  }).format(at);
}
