import { Composer } from "grammy";
import { hasControlCharacters } from "../../commerce/plain-text.ts";
import {
  MAX_RECEIPT_MARKUP,
  MAX_RECEIPT_NAME,
  type ReceiptSettings,
  receiptSettingsOf,
  setReceiptSettings,
} from "../../commerce/receipt-settings.ts";
import type { BotContext } from "../context.ts";
import { escapeHtml, parseAmount, rupiah } from "../ui/format.ts";

// /struk for resellers: the shop name and selling price their buyers' receipts show, and
// receipts sent by themselves after each successful order.

function shown(ctx: BotContext, s: ReceiptSettings): string {
  return [
    ctx.t("receipt-settings-title"),
    ctx.t("receipt-settings-name", {
      name: s.shopName ? escapeHtml(s.shopName) : ctx.t("receipt-settings-default"),
    }),
    ctx.t("receipt-settings-markup", { markup: rupiah(s.markup) }),
    ctx.t(s.auto ? "receipt-settings-auto-on" : "receipt-settings-auto-off"),
    "",
    ctx.t("receipt-settings-usage"),
  ].join("\n");
}

export function receiptSettingsFeature(): Composer<BotContext> {
  const composer = new Composer<BotContext>();
  composer.command("struk", async (ctx) => {
    if (ctx.user?.tier !== "reseller") {
      await ctx.reply(ctx.t("receipt-settings-resellers"));
      return;
    }
    const db = ctx.deps.db;
    const userId = ctx.from!.id;
    const text = (ctx.match as string).trim();
    const [what = "", ...rest] = text.split(/\s+/);
    const value = rest.join(" ").trim();
    let settings: ReceiptSettings;
    switch (what.toLowerCase()) {
      case "":
        settings = await receiptSettingsOf(db, userId);
        break;
      case "nama":
      case "name": {
        if (value === "" || value.length > MAX_RECEIPT_NAME) {
          await ctx.reply(ctx.t("receipt-settings-bad-name", { max: String(MAX_RECEIPT_NAME) }));
          return;
        }
        // the name is drawn on pictures (SVG), which a control character breaks
        if (hasControlCharacters(value)) {
          await ctx.reply(ctx.t("receipt-settings-bad-name-characters"));
          return;
        }
        settings = await setReceiptSettings(db, userId, { shopName: value === "-" ? null : value });
        break;
      }
      case "harga":
      case "price": {
        const amount = value === "-" ? 0 : parseAmount(value.replace(/^\+/, ""));
        if (amount === undefined || amount > MAX_RECEIPT_MARKUP) {
          await ctx.reply(ctx.t("receipt-settings-bad-markup"));
          return;
        }
        settings = await setReceiptSettings(db, userId, { markup: amount });
        break;
      }
      case "otomatis":
      case "auto": {
        const on = /^(on|ya|yes|aktif)$/i.test(value);
        const off = /^(off|tidak|no|mati)$/i.test(value);
        if (!on && !off) {
          await ctx.reply(ctx.t("receipt-settings-usage"));
          return;
        }
        settings = await setReceiptSettings(db, userId, { auto: on });
        break;
      }
      default:
        await ctx.reply(ctx.t("receipt-settings-usage"));
        return;
    }
    await ctx.reply(shown(ctx, settings));
  });
  return composer;
}
