// db.execute() answers in the driver's own shape: PGlite gives { rows }, postgres.js an array.

export function rowsOf<T extends Record<string, unknown>>(result: unknown): T[] {
  if (Array.isArray(result)) return result as T[];
  const rows = (result as { rows?: unknown }).rows;
  return Array.isArray(rows) ? (rows as T[]) : [];
}

/** count(*) comes back as a string (postgres.js) or a number (PGlite) */
export function toNumber(value: unknown): number {
  return value === null || value === undefined ? 0 : Number(value);
}

/** a json or jsonb value of a raw query: parsed by the driver, or text on one that does not; null when absent */
export function jsonOf<T>(value: unknown): T | null {
  if (value === null || value === undefined) return null;
  return (typeof value === "string" ? JSON.parse(value) : value) as T;
}
