// drizzle wraps driver errors ("Failed query: …") and keeps the server's error as cause;
// these read through the wrapping so callers can tell constraint failures apart.

interface PgErrorLike {
  code?: unknown;
  message?: unknown;
  constraint?: unknown;
  constraint_name?: unknown;
  cause?: unknown;
}

function chain(err: unknown): PgErrorLike[] {
  const out: PgErrorLike[] = [];
  let current: unknown = err;
  while (current && typeof current === "object" && out.length < 5) {
    out.push(current as PgErrorLike);
    current = (current as PgErrorLike).cause;
  }
  return out;
}

/** the SQLSTATE of a database error, wherever drizzle put it */
function sqlState(err: unknown): string | undefined {
  for (const e of chain(err))
    if (typeof e.code === "string" && /^[0-9A-Z]{5}$/.test(e.code)) return e.code;
  return undefined;
}

/** every message along the cause chain, for logs and tests */
export function dbErrorText(err: unknown): string {
  return chain(err)
    .map((e) => String(e.message ?? ""))
    .join(" | ");
}

export const isUniqueViolation = (err: unknown) => sqlState(err) === "23505";

/**
 * an exclusion constraint refused the statement (23P01), or two statements that would both
 * have broken one waited on each other and the server cancelled this one (40P01)
 */
export const isExclusionConflict = (err: unknown) => {
  const state = sqlState(err);
  return state === "23P01" || state === "40P01";
};

/**
 * a statement with no transaction around it undid itself: kios_transfer_or_fail (migration
 * 0041, KT001) found a transfer it needed not applied, or kios_assert (migration 0042, KT002)
 * a condition it needed not met; nothing it wrote stands
 */
export const isStatementUndone = (err: unknown) => {
  const state = sqlState(err);
  return state === "KT001" || state === "KT002";
};

/**
 * the server refused what a statement carried (SQLSTATE class 22, a data exception; 23, a
 * constraint; 54, a limit exceeded): the same statement would be refused again, and a
 * statement without that row may pass. A lost connection or a timeout is none of these.
 */
export const isRefusedData = (err: unknown) => {
  const state = sqlState(err);
  return state !== undefined && /^(22|23|54)/.test(state);
};
