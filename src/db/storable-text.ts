// PostgreSQL stores no NUL character in text or jsonb, and its jsonb refuses a lone UTF-16
// surrogate: a statement carrying either fails whole. What comes from outside is checked at
// the door (a clear 4xx) or, where it must be kept whatever it holds (a Telegram update),
// stored with U+FFFD in their place.

const NUL_OR_LONE_SURROGATE =
  // biome-ignore lint/suspicious/noControlCharactersInRegex: the NUL is what it looks for
  /\u0000|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
const NUL_OR_LONE_SURROGATES = new RegExp(NUL_OR_LONE_SURROGATE.source, "g");

/** false for a string PostgreSQL would refuse: one with a NUL or a lone surrogate */
export function isStorableText(value: string): boolean {
  return !NUL_OR_LONE_SURROGATE.test(value);
}

/** the string with U+FFFD for each NUL and each lone surrogate, as a decoder replaces what it cannot read */
export function storableText(value: string): string {
  return value.replace(NUL_OR_LONE_SURROGATES, "\uFFFD");
}

/**
 * the path (`field`, `a.0.b`) of the first string or key in a parsed JSON value that
 * PostgreSQL would refuse, or undefined when it holds none
 */
export function unstorableField(value: unknown, path = ""): string | undefined {
  if (typeof value === "string") return isStorableText(value) ? undefined : path || "body";
  if (value === null || typeof value !== "object") return undefined;
  for (const [key, inner] of Object.entries(value)) {
    const at = path ? `${path}.${key}` : key;
    if (!isStorableText(key)) return at;
    const found = unstorableField(inner, at);
    if (found !== undefined) return found;
  }
  return undefined;
}
