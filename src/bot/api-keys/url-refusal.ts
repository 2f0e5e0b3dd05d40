import type { UrlRefusal } from "../../commerce/h2h/callback-url.ts";
import type { Translate } from "../ui/i18n.ts";

// a callback or report URL the rules refuse (checkCallbackUrl), said in the user's words:
// the verdict's own `reason` is English, for logs and the command line

const KEYS: Readonly<Record<UrlRefusal, string>> = {
  not_url: "url-refused-not-url",
  credentials: "url-refused-credentials",
  too_long: "url-refused-too-long",
  not_https: "url-refused-not-https",
  local_name: "url-refused-local-name",
  private_address: "url-refused-private-address",
};

/** "URL callback ditolak: harus https." */
export function urlRefusedText(t: Translate, code: UrlRefusal): string {
  return t("api-callback-refused", { reason: t(KEYS[code]) });
}
