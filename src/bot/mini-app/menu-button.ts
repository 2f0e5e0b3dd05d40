import type { Api } from "grammy";
import { type TranslationSource, translator } from "../ui/i18n.ts";

/**
 * every chat's menu button opens the Mini App (the default for chats without their own). The
 * command list stays a "/" away
 */
export async function setMiniAppMenuButton(
  api: Api,
  i18n: TranslationSource,
  url: string,
): Promise<void> {
  const t = translator(i18n, "id");
  await api.setChatMenuButton({
    menu_button: { type: "web_app", text: t("menu-catalogue"), web_app: { url } },
  });
}
