// the supplier's times, read the same way for both wire interfaces.

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
