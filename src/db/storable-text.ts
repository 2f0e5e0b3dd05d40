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
 * PostgreSQL would refuse, or undefined when it holds none. A loop, not a recursion: a body
 * nested thousands deep (a few KB) must not overflow the stack before anyone is checked.
 */
export function unstorableField(value: unknown): string | undefined {
  const stack: [unknown, string][] = [[value, ""]];
  while (stack.length > 0) {
    const [at, path] = stack.pop()!;
    if (typeof at === "string") {
      if (!isStorableText(at)) return path || "body";
      continue;
    }
    if (at === null || typeof at !== "object") continue;
    const entries = Object.entries(at);
    // pushed last first, so they are taken in their order
    for (let i = entries.length - 1; i >= 0; i--) {
      const [key, inner] = entries[i]!;
      const innerPath = path ? `${path}.${key}` : key;
      if (!isStorableText(key)) return innerPath;
      stack.push([inner, innerPath]);
    }
  }
  return undefined;
}
