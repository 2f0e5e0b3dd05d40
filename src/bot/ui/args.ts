/** a command's arguments split on whitespace */
export function words(match: string): string[] {
  return match.trim().split(/\s+/).filter(Boolean);
}

/** a telegram user id as typed: digits only */
export function parseUserId(s: string | undefined): number | undefined {
  if (!s || !/^\d{1,15}$/.test(s)) return undefined;
  const n = Number(s);
  return Number.isSafeInteger(n) && n > 0 ? n : undefined;
}

/** a percentage as typed ("2.5", "2,5", "-1", "3%") in basis points, or undefined */
export function parsePercentBp(s: string | undefined): number | undefined {
  if (!s) return undefined;
  const m = /^(-?\d{1,4}(?:[.,]\d{1,2})?)%?$/.exec(s.trim());
  if (!m) return undefined;
  return Math.round(Number(m[1]!.replace(",", ".")) * 100);
}

/** a signed whole rupiah amount ("500", "-200", "1.000") */
export function parseSignedRupiah(s: string | undefined): number | undefined {
  if (!s) return undefined;
  const m = /^(-?)(\d{1,3}(?:\.\d{3})+|\d+)$/.exec(s.trim());
  if (!m) return undefined;
  const n = Number(m[2]!.replace(/\./g, ""));
  return Number.isSafeInteger(n) ? (m[1] ? -n : n) : undefined;
}
