import { InlineKeyboard } from "grammy";
import { getOrder } from "../../commerce/orders/queries.ts";
import type { NotificationOf, RenderEnv } from "../notifications/sender.ts";
import { CB, cb } from "../ui/callback-data.ts";
import { escapeHtml, rupiah, wibTime } from "../ui/format.ts";
import { PLAIN } from "../ui/html.ts";
import type { Translate } from "../ui/i18n.ts";
import { decisionButtons, openOrderLine, recheckButton } from "./order-lines.ts";

// what the admins are told about orders and products, and the broadcasts they send

/** an order open too long, or one the supplier has no record of (an admin decides) */
export async function renderOrderFlagged(n: NotificationOf<"order_flagged">, env: RenderEnv) {
  const order = await getOrder(env.db, n.payload.orderId);
  if (!order || !env.forAdmins(n)) return;
  const t = await env.languageOf(n.chatId);
  if (n.payload.reason === "not_found") {
    // only an admin may refund an order the supplier may still make (key interface)
    await env.api.sendMessage(n.chatId, `${t("decide-title")}\n${openOrderLine(order)}`, {
      reply_markup: decisionButtons(t, order),
    });
    return;
  }
  await env.api.sendMessage(n.chatId, `${t("flagged-title")}\n${openOrderLine(order)}`, {
    reply_markup: recheckButton(t, order),
  });
}

/** the supplier says otherwise about an order kios settled: nothing moved by itself */
export async function renderOrderConflict(n: NotificationOf<"order_conflict">, env: RenderEnv) {
  const order = await getOrder(env.db, n.payload.orderId);
  if (!order || !env.forAdmins(n)) return;
  const t = await env.languageOf(n.chatId);
  const text = [
    t("conflict-title"),
    t("conflict-body", { kios: order.status, supplier: n.payload.supplierStatus }),
    openOrderLine(order),
  ].join("\n");
  await env.api.sendMessage(n.chatId, text);
}

/** the supplier charged more than the quote's cost */
export async function renderOrderOvercharged(
  n: NotificationOf<"order_overcharged">,
  env: RenderEnv,
) {
  const order = await getOrder(env.db, n.payload.orderId);
  if (!order || !env.forAdmins(n)) return;
  const t = await env.languageOf(n.chatId);
  const { quoted, charged } = n.payload;
  const text = [
    t("overcharge-title"),
    t("overcharge-body", {
      quoted: rupiah(quoted),
      charged: rupiah(charged),
      loss: rupiah(charged - quoted),
    }),
    openOrderLine(order),
  ].join("\n");
  await env.api.sendMessage(n.chatId, text);
}

/** "open it again now" under a pause notice, when the code fits callback data */
function resumeKeyboard(t: Translate, code: string): InlineKeyboard | undefined {
  try {
    return new InlineKeyboard().text(t("btn-product-resume"), cb(CB.productResume, code));
  } catch {
    // a code callback data can't carry: /resume CODE still opens it
    return undefined;
  }
}

/** kios closed a product for a while (the supplier refused it, or it kept failing) */
export async function renderProductPaused(n: NotificationOf<"product_paused">, env: RenderEnv) {
  if (!env.forAdmins(n)) return;
  const p = n.payload;
  const t = await env.languageOf(n.chatId);
  const args = {
    code: escapeHtml(p.code),
    name: escapeHtml(p.name),
    until: wibTime(p.until),
    why: t(`product-paused-${p.reason}`),
  };
  // one route closed (that supplier for this product): the product is still on sale
  const text =
    p.supplier === undefined
      ? [t("product-paused-title"), t("product-paused-body", args)]
      : [
          t("route-paused-title"),
          t("route-paused-body", { ...args, supplier: escapeHtml(p.supplier) }),
        ];
  await env.api.sendMessage(n.chatId, text.join("\n"), {
    reply_markup: resumeKeyboard(t, p.code),
  });
}

/** an admin's broadcast: exactly as typed (not read as HTML), never sent twice */
export async function renderBroadcast(n: NotificationOf<"broadcast">, env: RenderEnv) {
  // a broadcast that may already have gone out is not sent twice
  if (!n.recovered) await env.api.sendMessage(n.chatId, n.payload.text, PLAIN);
}
