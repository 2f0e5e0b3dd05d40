import { Composer, InlineKeyboard } from "grammy";
import { checkCallbackUrl, type UrlRefusal } from "../../commerce/h2h/callback-url.ts";
import { recentCallbackFailures } from "../../commerce/h2h/callbacks.ts";
import {
  createKey,
  type IssuedKey,
  keyOfUser,
  revokeKey,
  rotateKey,
  updateKeySettings,
} from "../../commerce/h2h/keys.ts";
import type { BotContext } from "../context.ts";
import { expireMessageAt } from "../storage/expiring.ts";
import { editPressed } from "../ui/edit.ts";
import { escapeHtml, wibDateTime } from "../ui/format.ts";
import { pinGate, pinGateReply } from "../ui/pin-pad.ts";
import { applyCenterAction, CENTER_ACTIONS, centerKeyButton, centerKeyCommand } from "./center.ts";
import { deliveryFailureText } from "./delivery-failure.ts";
import { urlRefusedText } from "./url-refusal.ts";

// /api: a reseller's H2H key in the chat (docs/h2h.md#keys). The secrets are shown once, in
// a message with copy buttons that deletes itself after a minute (expiring_messages, so a
// restart still deletes it); rotate and revoke are a tap. The only place a secret reaches
// a chat, by the reseller's own request (design rule 7 is kept everywhere else).

/** how long the message with the secrets stays */
export const SECRETS_TTL_MS = 60_000;

/** the callback prefix of /api's buttons (and of the PIN pad's continuation for them) */
export const CB_API = "ak";

function allowed(ctx: BotContext): boolean {
  return ctx.user?.tier === "reseller" || ctx.deps.config.adminIds.includes(ctx.from!.id);
}

async function statusText(
  ctx: BotContext,
  userId: number,
): Promise<{ text: string; keyboard: InlineKeyboard }> {
  const key = await keyOfUser(ctx.deps.db, userId);
  const base = ctx.deps.config.h2h?.apiUrl;
  if (!key) {
    return {
      text: [
        ctx.t("api-none", { url: escapeHtml(base ?? "/h2h/v1") }),
        ...(await everyonesFailures(ctx)),
      ].join("\n"),
      keyboard: new InlineKeyboard().text(ctx.t("api-btn-create"), `${CB_API}:create`),
    };
  }
  const state = key.revokedAt
    ? ctx.t("api-state-revoked")
    : key.enabled
      ? ctx.t("api-state-on")
      : ctx.t("api-state-off");
  const lines = [
    ctx.t("api-title"),
    `api_id: <code>${escapeHtml(key.apiId)}</code>`,
    ctx.t("api-url", { url: escapeHtml(base ?? "/h2h/v1") }),
    ctx.t("api-state", { state }),
    ctx.t("api-callback", { url: escapeHtml(key.callbackUrl ?? "—") }),
    ctx.t("api-chat-results", { on: key.chatResults ? "on" : "off" }),
  ];
  const failures = await recentCallbackFailures(ctx.deps.db, userId, 3);
  if (failures.length > 0) {
    lines.push("", ctx.t("api-failures"));
    for (const f of failures) {
      lines.push(failureLine(ctx, f));
    }
  }
  lines.push(...(await everyonesFailures(ctx)));
  const keyboard = new InlineKeyboard()
    .text(ctx.t("api-btn-rotate"), `${CB_API}:rotate`)
    .text(ctx.t("api-btn-revoke"), `${CB_API}:revoke`)
    .row()
    .text(ctx.t(key.chatResults ? "api-btn-chat-off" : "api-btn-chat-on"), `${CB_API}:chat`);
  return { text: lines.join("\n"), keyboard };
}

/** an admin sees every reseller's latest failed callbacks */
async function everyonesFailures(ctx: BotContext): Promise<string[]> {
  if (!ctx.deps.config.adminIds.includes(ctx.from!.id)) return [];
  const all = await recentCallbackFailures(ctx.deps.db, undefined, 5);
  if (all.length === 0) return [];
  return ["", ctx.t("api-failures-all"), ...all.map((f) => failureLine(ctx, f))];
}

function failureLine(ctx: BotContext, f: { at: Date; refId: string; error: string }): string {
  return `• ${wibDateTime(f.at.getTime())} ${escapeHtml(f.refId)}: ${escapeHtml(deliveryFailureText(ctx.t, f.error))}`;
}

/** the three values, once, with copy buttons; deleted after a minute */
async function showSecrets(ctx: BotContext, key: IssuedKey): Promise<void> {
  const text = [
    ctx.t("api-secrets-title"),
    `api_id: <code>${escapeHtml(key.apiId)}</code>`,
    `api_key: <tg-spoiler><code>${escapeHtml(key.apiKey)}</code></tg-spoiler>`,
    `secret_key: <tg-spoiler><code>${escapeHtml(key.secretKey)}</code></tg-spoiler>`,
    "",
    ctx.t("api-secrets-note"),
  ].join("\n");
  const keyboard = new InlineKeyboard()
    .copyText("📋 api_id", key.apiId)
    .copyText("📋 api_key", key.apiKey)
    .row()
    .copyText("📋 secret_key", key.secretKey);
  const sent = await ctx.reply(text, { reply_markup: keyboard });
  await expireMessageAt(ctx.deps.db, {
    chatId: sent.chat.id,
    messageId: sent.message_id,
    deleteAt: new Date(ctx.deps.clock.now() + SECRETS_TTL_MS),
  });
}

export function apiKeysFeature(): Composer<BotContext> {
  const composer = new Composer<BotContext>();

  composer.command("api", async (ctx) => {
    const h2h = ctx.deps.config.h2h;
    if (!h2h) {
      // the owner can turn it on: say how; a reseller only learns it is off
      const admin = ctx.deps.config.adminIds.includes(ctx.from!.id);
      return void (await ctx.reply(ctx.t(admin ? "api-off-admin" : "api-off")));
    }
    if (!allowed(ctx)) return void (await ctx.reply(ctx.t("api-resellers-only")));
    // /api callback <https URL|none>: where the results are POSTed
    const [sub, arg, ...more] = ctx.match.trim().split(/\s+/).filter(Boolean);
    // /api center …: the OtomaX door's credentials (center.ts)
    if (sub === "center") {
      if (ctx.user?.tier !== "reseller") return void (await ctx.reply(ctx.t("api-resellers-only")));
      return centerKeyCommand(
        ctx,
        [arg, ...more].filter((w) => w !== undefined),
      );
    }
    if (sub !== undefined) {
      if (sub !== "callback" || arg === undefined || more.length > 0) {
        return void (await ctx.reply(ctx.t("api-usage")));
      }
      if (!(await keyOfUser(ctx.deps.db, ctx.from!.id)))
        return void (await ctx.reply(ctx.t("api-no-key")));
      const url = callbackUrlOf(ctx, arg);
      if (typeof url === "object" && url !== null) {
        return void (await ctx.reply(urlRefusedText(ctx.t, url.refused)));
      }
      // where the results (SNs, voucher codes) go is a key setting: behind the PIN
      const confirm = ctx.t("api-callback-confirm", { url: escapeHtml(url ?? "—") });
      if (!(await pinGateReply(ctx, `${CB_API}:callback`, confirm, url ?? "none"))) return;
      await updateKeySettings(ctx.deps.db, ctx.from!.id, { callbackUrl: url });
    }
    const { text, keyboard } = await statusText(ctx, ctx.from!.id);
    await ctx.reply(text, { reply_markup: keyboard });
  });

  composer.callbackQuery(new RegExp(`^ak:(${CENTER_ACTIONS.join("|")})$`), async (ctx) => {
    if (!ctx.deps.config.h2h || ctx.user?.tier !== "reseller") {
      return void (await ctx.answerCallbackQuery());
    }
    await centerKeyButton(ctx, ctx.match[1] ?? "");
  });

  composer.callbackQuery(/^ak:(create|rotate|revoke|chat)$/, async (ctx) => {
    const action = ctx.match[1] ?? "";
    // every key setting asks for the wallet's PIN when one is set (docs/resellers.md#the-pin):
    // a stolen Telegram session must not take the reseller's server credentials, nor send
    // the results to another chat or server
    if (!(await pinGate(ctx, `${CB_API}:${action}`))) return;
    await applyKeyAction(ctx, action);
  });

  return composer;
}

/** a callback URL as /api callback names it: the URL, null for none, or why it is refused */
function callbackUrlOf(ctx: BotContext, arg: string): string | null | { refused: UrlRefusal } {
  if (arg === "none") return null;
  const verdict = checkCallbackUrl(arg, {
    allowLoopbackHttp: ctx.deps.config.h2h?.allowLoopbackHttp ?? false,
  });
  return verdict.ok ? verdict.url.toString() : { refused: verdict.code };
}

/**
 * what a tap on /api's buttons does: issue, rotate or revoke the key, or switch chat
 * results; and the PIN pad's continuation for every key setting (pinPadButtons), where
 * "callback" sets the URL /api callback named (`detail`)
 */
export async function applyKeyAction(
  ctx: BotContext,
  action: string,
  detail: string | null = null,
): Promise<void> {
  if ((CENTER_ACTIONS as readonly string[]).includes(action)) {
    if (ctx.user?.tier !== "reseller") return void (await ctx.answerCallbackQuery());
    return applyCenterAction(ctx, action, detail);
  }
  const h2h = ctx.deps.config.h2h;
  const userId = ctx.from!.id;
  if (!h2h || !allowed(ctx)) return void (await ctx.answerCallbackQuery());
  const now = new Date(ctx.deps.clock.now());
  if (action === "callback") {
    // checked again: the rules may have changed while the keypad was open
    const url = callbackUrlOf(ctx, detail ?? "");
    if (typeof url === "object" && url !== null) {
      await ctx.answerCallbackQuery({
        text: urlRefusedText(ctx.t, url.refused),
        show_alert: true,
      });
      return;
    }
    await updateKeySettings(ctx.deps.db, userId, { callbackUrl: url });
    await ctx.answerCallbackQuery();
  } else if (action === "create" || action === "rotate") {
    const issued =
      action === "create"
        ? await createKey(ctx.deps.db, h2h.box, userId)
        : await rotateKey(ctx.deps.db, h2h.box, userId, now);
    await ctx.answerCallbackQuery();
    if (issued.ok) await showSecrets(ctx, issued.key);
  } else if (action === "revoke") {
    await revokeKey(ctx.deps.db, userId, now);
    await ctx.answerCallbackQuery({ text: ctx.t("api-revoked") });
  } else {
    const key = await keyOfUser(ctx.deps.db, userId);
    if (key) await updateKeySettings(ctx.deps.db, userId, { chatResults: !key.chatResults });
    await ctx.answerCallbackQuery();
  }
  const { text, keyboard } = await statusText(ctx, userId);
  await editPressed(ctx, text, { keyboard });
}
