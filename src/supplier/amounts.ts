// rupiah amounts as the supplier writes them: integers in most places, but strings inside a
// bill's desc.detail ("125000", "125.000", "", sometimes "Rp 125.000"). kios holds integers.

/**
 * parses a rupiah amount written as text; undefined when empty or not an amount.
 * "." followed by exactly three digits is a thousands separator (Indonesian style), as is
 * "," in "1,250,000"; a separator followed by one or two digits starts a fraction, which is
 * rounded to whole rupiah.
 */
export function parseRupiah(text: string): number | undefined {
  let s = text
    .trim()
    .replace(/^rp\.?/i, "")
    .replace(/\s+/g, "");
  let sign = 1;
  if (s.startsWith("-")) {
    sign = -1;
    s = s.slice(1);
  }
  if (s === "") return undefined;
  let whole: string;
  let fraction = "";
  if (/^\d+$/.test(s)) {
    whole = s;
  } else if (/^\d{1,3}(\.\d{3})+(,\d+)?$/.test(s)) {
    [whole = "", fraction = ""] = s.split(",");
    whole = whole.replaceAll(".", "");
  } else if (/^\d{1,3}(,\d{3})+(\.\d+)?$/.test(s)) {
    [whole = "", fraction = ""] = s.split(".");
    whole = whole.replaceAll(",", "");
  } else if (/^\d+[.,]\d{1,2}$/.test(s)) {
    [whole = "", fraction = ""] = s.split(/[.,]/);
  } else {
    return undefined;
  }
  const value = Math.round(Number(`${whole}.${fraction || "0"}`));
  return Number.isSafeInteger(value) ? sign * value + 0 : undefined;
}

/**
 * an amount that must be whole rupiah: an integer, or text that is one (for the top-level
 * fields docs/supplier.md#amounts types as integer, a string is tolerated but a fraction is not).
 */
export function wholeRupiah(value: unknown): number | undefined {
  if (typeof value === "number") return Number.isSafeInteger(value) ? value : undefined;
  if (typeof value !== "string") return undefined;
  const s = value
    .trim()
    .replace(/^rp\.?/i, "")
    .replace(/\s+/g, "");
  if (/^-?\d+$/.test(s) || /^-?\d{1,3}(\.\d{3})+$/.test(s) || /^-?\d{1,3}(,\d{3})+$/.test(s)) {
    return parseRupiah(s);
  }
  return undefined;
}

/** 10000 → "Rp10.000" (the storefront's format) */
export function formatRupiah(amount: number): string {
  const digits = String(Math.abs(Math.trunc(amount))).replace(/\B(?=(\d{3})+(?!\d))/g, ".");
  return `${amount < 0 ? "-" : ""}Rp${digits}`;
}
