import type { Translate } from "../ui/i18n.ts";

// why a callback or report was not delivered, in the reader's words. The attempt rows keep
// the delivery's own diagnostic (src/commerce/h2h/deliver.ts, callbacks.ts), in English for
// the logs and the command line; these are its forms. One this table doesn't know is shown
// as stored.

type Reading = (t: Translate, match: RegExpExecArray) => string;

const FORMS: ReadonlyArray<readonly [RegExp, Reading]> = [
  [
    /^HTTP (\d+)( \(redirects are not followed\))?$/,
    (t, m) => t("delivery-http", { status: m[1]!, redirect: m[2] ? "yes" : "no" }),
  ],
  [/^the answer broke off$/, (t) => t("delivery-broke-off")],
  [
    /^no complete answer within (\d+) s \(TIMEOUT\)$/,
    (t, m) => t("delivery-timeout", { seconds: m[1]! }),
  ],
  [/^could not connect \(([A-Z_]+)\)$/, (t, m) => t("delivery-connect", { code: m[1]! })],
  [/^the host resolves to a private/, (t) => t("delivery-private-host")],
  [/^no callback URL is set$/, (t) => t("delivery-no-url")],
  [/^callback URL refused: /, (t) => t("delivery-url-refused")],
];

/** "HTTP 502" → "server menjawab HTTP 502" */
export function deliveryFailureText(t: Translate, stored: string): string {
  for (const [form, read] of FORMS) {
    const match = form.exec(stored);
    if (match) return read(t, match);
  }
  return stored;
}
