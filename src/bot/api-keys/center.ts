import { InlineKeyboard } from "grammy";
import {
  type CenterKeyRefusal,
  centerKeyOfUser,
  createCenterKey,
  type IssuedCenterKey,
  revokeCenterKey,
  rotateCenterKey,
  updateCenterKeySettings,
} from "../../commerce/center/keys.ts";
import { checkCallbackUrl, type UrlRefusal } from "../../commerce/h2h/callback-url.ts";
import type { BotContext } from "../context.ts";
import { expireMessageAt } from "../storage/expiring.ts";
import { editPressed } from "../ui/edit.ts";
import { escapeHtml } from "../ui/format.ts";
import { pinGate, pinGateReply } from "../ui/pin-pad.ts";
import { urlRefusedText } from "./url-refusal.ts";

// /api center: the reseller's OtomaX-door credentials (docs/center.md#credentials) in the
// chat, the same operations as `kios center-key`: show, create, rotate, revoke, and the
// report URL and IP allowlist. Every one that issues, stops or redirects asks for the PIN
// (docs/resellers.md#the-pin); the pin and password are shown once, in a message deleted
// after a minute, as the H2H key's are.

/** the callback prefix the /api buttons share (api.ts's CB_API), and this part's actions */
const PREFIX = "ak";
export const CENTER_ACTIONS = ["mcreate", "mrotate", "mrevoke", "mreport", "mips"] as const;
const SECRETS_TTL_MS = 60_000;

async function centerStatus(ctx: BotContext): Promise<{ text: string; keyboard: InlineKeyboard }> {
  const key = await centerKeyOfUser(ctx.deps.db, ctx.from!.id);
  if (!key) {
    return {
      text: ctx.t("center-key-none"),
      keyboard: new InlineKeyboard().text(ctx.t("center-key-btn-create"), `${PREFIX}:mcreate`),
    };
  }
  const state = key.revokedAt
    ? ctx.t("api-state-revoked")
    : key.enabled
      ? ctx.t("api-state-on")
      : ctx.t("api-state-off");
  const text = [
    ctx.t("center-key-title"),
    `memberID: <code>${escapeHtml(key.memberId)}</code>`,
    ctx.t("api-state", { state }),
    ctx.t("center-key-report", { url: escapeHtml(key.reportUrl ?? "—") }),
    ctx.t("center-key-ips", {
      ips: escapeHtml(key.ipAllowlist.length ? key.ipAllowlist.join(", ") : "—"),
    }),
    "",
    ctx.t("center-key-usage"),
  ].join("\n");
  const keyboard = new InlineKeyboard()
    .text(ctx.t("api-btn-rotate"), `${PREFIX}:mrotate`)
    .text(ctx.t("api-btn-revoke"), `${PREFIX}:mrevoke`);
  return { text, keyboard };
}

async function showCenterSecrets(ctx: BotContext, key: IssuedCenterKey): Promise<void> {
  const text = [
    ctx.t("center-key-secrets-title"),
    `memberID: <code>${escapeHtml(key.memberId)}</code>`,
    `pin: <tg-spoiler><code>${escapeHtml(key.pin)}</code></tg-spoiler>`,
    `password: <tg-spoiler><code>${escapeHtml(key.password)}</code></tg-spoiler>`,
    "",
    ctx.t("api-secrets-note"),
  ].join("\n");
  const keyboard = new InlineKeyboard()
    .copyText("📋 memberID", key.memberId)
    .copyText("📋 pin", key.pin)
    .row()
    .copyText("📋 password", key.password);
  const sent = await ctx.reply(text, { reply_markup: keyboard });
  await expireMessageAt(ctx.deps.db, {
    chatId: sent.chat.id,
    messageId: sent.message_id,
    deleteAt: new Date(ctx.deps.clock.now() + SECRETS_TTL_MS),
  });
}

/** the IP allowlist /api center ips names: the addresses, [] for none, or undefined (bad) */
function ipsOf(arg: string): string[] | undefined {
  if (arg === "none") return [];
  const list = arg
    .split(",")
    .map((ip) => ip.trim())
    .filter(Boolean);
  return list.length > 0 && list.every((ip) => /^[0-9a-fA-F.:]{2,45}$/.test(ip)) ? list : undefined;
}

function reportUrlOf(ctx: BotContext, arg: string): string | null | { refused: UrlRefusal } {
  if (arg === "none") return null;
  const verdict = checkCallbackUrl(arg, {
    allowLoopbackHttp: ctx.deps.config.h2h?.allowLoopbackHttp ?? false,
  });
  return verdict.ok ? verdict.url.toString() : { refused: verdict.code };
}

/** /api center [report <url|none> | ips <A,B|none>] (the caller checked h2h and the tier) */
export async function centerKeyCommand(ctx: BotContext, args: string[]): Promise<void> {
  const [what, arg, ...more] = args;
  if (what !== undefined) {
    if (!["report", "ips"].includes(what) || arg === undefined || more.length > 0) {
      return void (await ctx.reply(ctx.t("center-key-usage")));
    }
    if (!(await centerKeyOfUser(ctx.deps.db, ctx.from!.id))) {
      return void (await ctx.reply(ctx.t("center-key-none")));
    }
    if (what === "report") {
      const url = reportUrlOf(ctx, arg);
      if (typeof url === "object" && url !== null) {
        return void (await ctx.reply(urlRefusedText(ctx.t, url.refused)));
      }
      const confirm = ctx.t("center-key-report-confirm", { url: escapeHtml(url ?? "—") });
      if (!(await pinGateReply(ctx, `${PREFIX}:mreport`, confirm, url ?? "none"))) return;
      await updateCenterKeySettings(ctx.deps.db, ctx.from!.id, { reportUrl: url });
    } else {
      const ips = ipsOf(arg);
      if (!ips) return void (await ctx.reply(ctx.t("center-key-ips-bad")));
      const confirm = ctx.t("center-key-ips-confirm", { ips: escapeHtml(ips.join(", ") || "—") });
      if (!(await pinGateReply(ctx, `${PREFIX}:mips`, confirm, ips.join(",") || "none"))) return;
      await updateCenterKeySettings(ctx.deps.db, ctx.from!.id, { ipAllowlist: ips });
    }
  }
  const { text, keyboard } = await centerStatus(ctx);
  await ctx.reply(text, { reply_markup: keyboard });
}

/** a tap on a center button: behind the PIN (the keypad continues with applyCenterAction) */
export async function centerKeyButton(ctx: BotContext, action: string): Promise<void> {
  if (!(await pinGate(ctx, `${PREFIX}:${action}`))) return;
  await applyCenterAction(ctx, action, null);
}

const REFUSED: Record<CenterKeyRefusal, string> = {
  has_key: "center-key-has",
  no_key: "center-key-none",
  not_reseller: "api-resellers-only",
};

/** what a center action does once the PIN is right (`detail`: the URL or IPs typed) */
export async function applyCenterAction(
  ctx: BotContext,
  action: string,
  detail: string | null,
): Promise<void> {
  const h2h = ctx.deps.config.h2h;
  const userId = ctx.from!.id;
  if (!h2h) return void (await ctx.answerCallbackQuery());
  const { db } = ctx.deps;
  const now = new Date(ctx.deps.clock.now());
  let toast: string | undefined;
  if (action === "mcreate" || action === "mrotate") {
    const issued =
      action === "mcreate"
        ? await createCenterKey(db, h2h.box, userId)
        : await rotateCenterKey(db, h2h.box, userId, now);
    if (issued.ok) await showCenterSecrets(ctx, issued.key);
    else toast = ctx.t(REFUSED[issued.reason]);
  } else if (action === "mrevoke") {
    const r = await revokeCenterKey(db, userId, now);
    toast = r.ok ? ctx.t("center-key-revoked") : ctx.t(REFUSED[r.reason]);
  } else if (action === "mreport") {
    // checked again: the rules may have changed while the keypad was open
    const url = reportUrlOf(ctx, detail ?? "");
    if (typeof url === "object" && url !== null) {
      toast = urlRefusedText(ctx.t, url.refused);
    } else await updateCenterKeySettings(db, userId, { reportUrl: url });
  } else if (action === "mips") {
    const ips = ipsOf(detail ?? "");
    if (ips) await updateCenterKeySettings(db, userId, { ipAllowlist: ips });
    else toast = ctx.t("center-key-ips-bad");
  }
  await ctx.answerCallbackQuery(toast ? { text: toast, show_alert: true } : undefined);
  const { text, keyboard } = await centerStatus(ctx);
  await editPressed(ctx, text, { keyboard });
}
