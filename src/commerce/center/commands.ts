// the center's text commands (docs/center.md#text-commands): the dotted format resellers
// already type to a center, each carrying the wallet's PIN as its last part:
//   CODE.DEST.PIN  CODE.2.DEST.PIN  CODE.DEST,CODE.DEST.PIN  S.PIN  SAL.PIN  H.CODE.PIN
//   CEK.DEST.PIN  STA.REF.PIN  REKAP.PIN  REKAP.DD-MM-YYYY.PIN  TIKET.AMOUNT.PIN
//   GP.OLD.NEW  TRANS.ID.AMOUNT.PIN
// and an optional " R#<ref>" after any order. Parsing is pure (no database): the owner's
// aliases come in as a map. A text that is not in this format (CODE.DEST without a PIN, a
// sentence) is left to the chat's other features.

export const KEYWORDS = ["S", "SAL", "H", "CEK", "STA", "REKAP", "TIKET", "GP", "TRANS"] as const;
export type Keyword = (typeof KEYWORDS)[number];

export interface TextOrderLine {
  code: string;
  destination: string;
  /** CODE.n.DEST: which purchase of the day this is (today's repeat rule) */
  nth?: number;
  /** the reseller's own reference (R#…), echoed in every answer */
  ref?: string;
}

export type CenterCommand =
  | { kind: "buy"; lines: TextOrderLine[]; pin: string }
  | { kind: "balance"; pin: string }
  | { kind: "price"; code: string; pin: string }
  | { kind: "check"; destination: string; pin: string }
  | { kind: "status"; ref: string; pin: string }
  | { kind: "recap"; day?: { y: number; m: number; d: number }; pin: string }
  | { kind: "ticket"; amount: number; pin: string }
  | { kind: "change_pin"; current: string; next: string }
  | { kind: "transfer"; to: string; amount: number; pin: string };

/** why a text in the format is refused: nothing is done, the chat says which */
export type CenterError =
  | { error: "unknown_keyword"; word: string }
  | { error: "format"; keyword: Keyword | "buy" }
  | { error: "pin_format" }
  | { error: "pin_only_last" }
  | { error: "ref_repeated"; ref: string }
  | { error: "too_many"; max: number };

export type CenterParse = { ok: true; command: CenterCommand } | ({ ok: false } & CenterError);

/** at most this many orders in one multi-order text */
const MAX_LINES = 10;

const PIN = /^\d{4,6}$/;
const CODE = /^[A-Za-z0-9_-]{2,32}$/;
const DEST = /^\S{4,64}$/;
const COUNT = /^\d{1,2}$/;
const REF = /^[A-Za-z0-9_./:-]{1,64}$/;
const AMOUNT = /^\d{1,12}$/;
/** what an unknown keyword looks like: letters only (product codes carry digits) */
const KEYWORD_LIKE = /^[A-Za-z]{1,16}$/;
/** a part of the text: dotted segments, then " R#ref" maybe */
const PART = /^([^\s,]+?)(?:\s+R#(\S+))?$/i;

/** the text's comma-separated parts, each split in dotted segments, with its R# (or undefined) */
function partsOf(text: string): { segments: string[]; ref?: string }[] | undefined {
  const out: { segments: string[]; ref?: string }[] = [];
  for (const raw of text.trim().split(",")) {
    const m = PART.exec(raw.trim());
    if (!m) return undefined;
    const segments = m[1]!.split(".");
    if (segments.some((s) => s === "")) return undefined;
    out.push(m[2] === undefined ? { segments } : { segments, ref: m[2] });
  }
  return out;
}

/** the keyword a word names, through the owner's aliases (upper case) */
function keywordOf(word: string, aliases: ReadonlyMap<string, Keyword>): Keyword | undefined {
  const w = word.toUpperCase();
  return (KEYWORDS as readonly string[]).includes(w) ? (w as Keyword) : aliases.get(w);
}

function dayOf(s: string): { y: number; m: number; d: number } | undefined {
  const m = /^(\d{2})-(\d{2})-(\d{4})$/.exec(s);
  if (!m) return undefined;
  const [d, mo, y] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const date = new Date(Date.UTC(y, mo - 1, d));
  if (date.getUTCFullYear() !== y || date.getUTCMonth() !== mo - 1 || date.getUTCDate() !== d) {
    return undefined;
  }
  return { y, m: mo, d };
}

function keywordCommand(keyword: Keyword, args: string[], ref: string | undefined): CenterParse {
  const bad: CenterParse = { ok: false, error: "format", keyword };
  // an R# belongs to an order; a keyword takes none
  if (ref !== undefined) return bad;
  const pin = args.at(-1) ?? "";
  if (keyword !== "GP" && !PIN.test(pin)) return { ok: false, error: "pin_format" };
  const a = args.slice(0, -1);
  switch (keyword) {
    case "S":
    case "SAL":
      return a.length === 0 ? { ok: true, command: { kind: "balance", pin } } : bad;
    case "H":
      return a.length === 1 && CODE.test(a[0]!)
        ? { ok: true, command: { kind: "price", code: a[0]!.toUpperCase(), pin } }
        : bad;
    case "CEK":
      return a.length === 1 && DEST.test(a[0]!)
        ? { ok: true, command: { kind: "check", destination: a[0]!, pin } }
        : bad;
    case "STA":
      return a.length === 1 && REF.test(a[0]!)
        ? { ok: true, command: { kind: "status", ref: a[0]!, pin } }
        : bad;
    case "REKAP": {
      if (a.length === 0) return { ok: true, command: { kind: "recap", pin } };
      const day = a.length === 1 ? dayOf(a[0]!) : undefined;
      return day ? { ok: true, command: { kind: "recap", day, pin } } : bad;
    }
    case "TIKET":
      return a.length === 1 && AMOUNT.test(a[0]!)
        ? { ok: true, command: { kind: "ticket", amount: Number(a[0]), pin } }
        : bad;
    case "TRANS":
      return a.length === 2 && /^\S{1,64}$/.test(a[0]!) && AMOUNT.test(a[1]!)
        ? { ok: true, command: { kind: "transfer", to: a[0]!, amount: Number(a[1]), pin } }
        : bad;
    case "GP": {
      if (args.length !== 2) return bad;
      const [current, next] = args as [string, string];
      if (!PIN.test(current) || !PIN.test(next)) return { ok: false, error: "pin_format" };
      return { ok: true, command: { kind: "change_pin", current, next } };
    }
  }
}

/** an all-digit first segment: a phone (0812.3456.7890) or meter typed with dots, mostly */
const DIGITS = /^\d+$/;

export interface ParseOptions {
  /**
   * the all-digit codes that are product codes here (the shop's catalogue has them, and no
   * flow is waiting for an answer): any other all-digit "code" makes the text no command,
   * for it is a number typed with dots (0812.3456.7890 is not product 0812 to 3456, PIN 7890)
   */
  numericCodes?: ReadonlySet<string> | undefined;
}

/** the all-digit first segments of a text's parts (the codes the chat must look up) */
export function numericCodesIn(text: string): string[] {
  return (partsOf(text) ?? []).map((p) => p.segments[0]!).filter((c) => DIGITS.test(c));
}

/** one order's segments (without the PIN): CODE.DEST or CODE.n.DEST */
function orderLine(
  segments: string[],
  ref: string | undefined,
  numericCodes: ReadonlySet<string>,
): TextOrderLine | undefined {
  const [code, ...rest] = segments;
  if (!code || !CODE.test(code)) return undefined;
  if (DIGITS.test(code) && !numericCodes.has(code)) return undefined;
  let nth: number | undefined;
  let dest: string | undefined;
  if (rest.length === 1) dest = rest[0];
  else if (rest.length === 2 && COUNT.test(rest[0]!)) {
    nth = Math.max(1, Number(rest[0]));
    dest = rest[1];
  } else return undefined;
  if (!dest || !DEST.test(dest)) return undefined;
  if (ref !== undefined && !REF.test(ref)) return undefined;
  return {
    code: code.toUpperCase(),
    destination: dest,
    ...(nth === undefined ? {} : { nth }),
    ...(ref === undefined ? {} : { ref }),
  };
}

/** an order of a text as typed, for an answer when it was not run (never its PIN) */
export interface TypedOrder {
  product: string;
  dest: string;
  ref?: string;
}

/**
 * the orders of an order text as typed (product, destination, R#), for the answers of a
 * text that was refused or whose PIN was not right: one line each, so the reseller's
 * software matches each R# (docs/center.md#text-commands). The PIN is never among them.
 */
export function typedOrders(text: string): TypedOrder[] {
  const parts = partsOf(text) ?? [];
  const pin = parts.at(-1)?.segments.at(-1);
  return parts.map((part, i) => {
    const s = part.segments;
    const last = i === parts.length - 1;
    // the PIN at the end of the text, or typed after an earlier order too
    const pinned =
      last || (s.length >= 3 && PIN.test(s.at(-1)!) && !(s.length === 3 && COUNT.test(s[1]!)));
    const rest = pinned ? s.slice(0, -1) : s;
    const dest = rest.length >= 2 ? rest.at(-1)! : "-";
    return {
      product: s[0]!.toUpperCase(),
      dest: dest === pin ? "-" : dest,
      ...(part.ref === undefined ? {} : { ref: part.ref.slice(0, 64) }),
    };
  });
}

/** the last segment is a PIN (4–6 digits): the one mark of a center command */
function endsInPin(segments: string[]): boolean {
  return segments.length >= 2 && PIN.test(segments.at(-1)!);
}

/**
 * reads a text as a center command. undefined: the text is not one (the chat's other
 * features take it); an error: it is one, badly formed, and nothing may be done.
 */
export function parseCenterCommand(
  text: string,
  aliases: ReadonlyMap<string, Keyword> = new Map(),
  options: ParseOptions = {},
): CenterParse | undefined {
  const parts = partsOf(text);
  if (!parts || parts.length === 0) return undefined;
  const numericCodes = options.numericCodes ?? new Set<string>();
  const first = parts[0]!;
  // a number typed with dots (the open flow's answer, or a stray one): not a command at all
  const code = first.segments[0]!;
  if (DIGITS.test(code) && !numericCodes.has(code)) return undefined;
  const keyword = keywordOf(first.segments[0]!, aliases);
  if (keyword && parts.length === 1 && first.segments.length >= 2) {
    return keywordCommand(keyword, first.segments.slice(1), first.ref);
  }
  const last = parts.at(-1)!;
  if (!endsInPin(last.segments)) return undefined;
  // CODE.n.DEST typed without a PIN is today's quick order: n is 1–2 digits, the PIN 4–6
  if (parts.length === 1 && last.segments.length === 3 && COUNT.test(last.segments[1]!)) {
    return undefined;
  }
  const pin = last.segments.at(-1)!;
  // a word of letters followed by a PIN alone is a keyword the center doesn't know; a
  // product code (letters and digits) before digits is a quick order to a short number
  if (parts.length === 1 && last.segments.length === 2) {
    return KEYWORD_LIKE.test(last.segments[0]!)
      ? { ok: false, error: "unknown_keyword", word: last.segments[0]!.toUpperCase() }
      : undefined;
  }
  if (parts.length > MAX_LINES) return { ok: false, error: "too_many", max: MAX_LINES };
  const lines: TextOrderLine[] = [];
  for (const [i, part] of parts.entries()) {
    const segments = i === parts.length - 1 ? part.segments.slice(0, -1) : part.segments;
    const line = orderLine(segments, part.ref, numericCodes);
    if (!line) {
      // CODE.DEST.PIN before the last part: the PIN is typed once, at the end
      const withPin =
        i < parts.length - 1 && orderLine(part.segments.slice(0, -1), part.ref, numericCodes);
      return withPin
        ? { ok: false, error: "pin_only_last" }
        : { ok: false, error: "format", keyword: "buy" };
    }
    if (line.ref !== undefined && lines.some((l) => l.ref === line.ref)) {
      return { ok: false, error: "ref_repeated", ref: line.ref };
    }
    lines.push(line);
  }
  return { ok: true, command: { kind: "buy", lines, pin } };
}
