// text that others typed (a supplier's product names, a reseller's shop name) ends up in
// pictures drawn from SVG, which is XML: a control character there stops the drawing
// ("non-XML character"), and PostgreSQL refuses a NUL in a text column. Such characters
// are stripped or refused where the text enters kios, and stripped again where a picture
// is drawn, for what was stored before.

// a surrogate without its pair is no character at all
const LONE_SURROGATE = String.raw`[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]`;
// C0 and C1 controls (tab and newline too: a name is one line), DEL, U+FFFE and U+FFFF
const CONTROL = new RegExp(String.raw`[\u0000-\u001f\u007f-\u009f\ufffe\uffff]|${LONE_SURROGATE}`);
const CONTROL_RUN = new RegExp(`(?:${CONTROL.source})+`, "g");
// the ones that separate words: a space stands in for them
// biome-ignore lint/suspicious/noControlCharactersInRegex: finding them is the point
const SEPARATING = /[\t\n\u000b\u000c\r\u001c-\u001f\u0085]/;
// what XML 1.0 cannot hold at all (tab, newline and carriage return it can)
const NON_XML = new RegExp(
  String.raw`[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]|${LONE_SURROGATE}`,
  "g",
);

export function hasControlCharacters(text: string): boolean {
  return CONTROL.test(text);
}

/**
 * one line of plain text: a run of control characters becomes a space where it separated
 * words (a tab, a newline) and nothing otherwise; text without any is returned as it is
 */
export function plainText(text: string): string {
  if (!CONTROL.test(text)) return text;
  return text
    .replace(CONTROL_RUN, (run) => (SEPARATING.test(run) ? " " : ""))
    .replace(/ {2,}/g, " ")
    .trim();
}

/** a whole SVG document without the characters XML cannot carry */
export function xmlSafe(svg: string): string {
  return svg.replace(NON_XML, "");
}
