import { InlineKeyboard } from "grammy";
import { CB, cb } from "../callback-data.ts";
import type { Translate } from "../i18n.ts";

/** a keyboard with the Cancel button as its last row */
export function withCancel(
  t: Translate,
  kb: InlineKeyboard = new InlineKeyboard(),
): InlineKeyboard {
  const rows = kb.inline_keyboard;
  if (rows.length > 0 && rows[rows.length - 1]!.length > 0) kb.row();
  return kb.text(t("btn-cancel"), cb(CB.cancel));
}
