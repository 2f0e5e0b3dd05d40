import { autoRetry } from "@grammyjs/auto-retry";
import { conversations, createConversation } from "@grammyjs/conversations";
import { sequentialize } from "@grammyjs/runner";
import { Bot, Composer, GrammyError, HttpError, type Middleware } from "grammy";
import { adminButtons, adminCommands } from "./admin/index.ts";
import { apiKeysFeature, applyKeyAction, CB_API } from "./api-keys/api.ts";
import { centerCommandsFeature } from "./center/commands.ts";
import { openSealedPins, registerTextPins } from "./center/sealed.ts";
import type { BaseContext, BotContext, FlowContext, KiosBot } from "./context.ts";
import { adminDepositButtons } from "./deposits/admin-deposits.ts";
import { adminPayments } from "./deposits/admin-payments.ts";
import { walletFeature } from "./deposits/balance.ts";
import { paymentButtons } from "./deposits/qris.ts";
import type { BotDeps } from "./deps.ts";
import { createFlows, flowsVersion } from "./flows.ts";
import { historyButtons, historyCommands } from "./history/history.ts";
import { statusFeature } from "./history/status.ts";
import { chatMenus } from "./home/chat-menu.ts";
import { escapeFeature } from "./home/escape.ts";
import { fallbackFeature } from "./home/fallback.ts";
import { languageButtons, languageCommands } from "./home/language.ts";
import { menuFeature } from "./home/menu.ts";
import { referralButtons } from "./home/referral.ts";
import { startFeature } from "./home/start.ts";
import { inlineFeature, sentViaThisBot } from "./inline/index.ts";
import { attachDeps, trackMembership } from "./middleware.ts";
import { priceListButtons, priceListCommands } from "./price-list/commands.ts";
import { checkoutButtons, payQuote } from "./purchase/card.ts";
import { quickOrderFeature } from "./purchase/quick-order.ts";
import { receiptButtons } from "./receipts/button.ts";
import { receiptSettingsFeature } from "./receipts/settings.ts";
import { reconciliationButtons, reconciliationCommands } from "./reconciliation/index.ts";
import { reportButtons, reportCommands } from "./reports/index.ts";
import { resellerButtons, resellerFeature } from "./resellers/index.ts";
import { changePin } from "./resellers/pin.ts";
import { sendTransfer } from "./resellers/transfer.ts";
import { conversationStorage } from "./storage/chat-state.ts";
import { CB } from "./ui/callback-data.ts";
import { staleAnswersAreDone } from "./ui/edit.ts";
import { FLOW_IDS } from "./ui/flow/enter.ts";
import { htmlByDefault } from "./ui/html.ts";
import { createI18n, translator } from "./ui/i18n.ts";
import { pinPadButtons } from "./ui/pin-pad.ts";

/**
 * what only ADMIN_IDS may reach: for anyone else these updates fall through to the
 * unknown-command answer, so the bot does not even admit they exist
 */
function adminOnly(...middleware: Middleware<BotContext>[]): Composer<BotContext> {
  const composer = new Composer<BotContext>();
  composer.filter((ctx) => ctx.isAdmin).use(...middleware);
  return composer;
}

/** how long a flow waits for the user's next step before it lapses */
const FLOW_IDLE_MS = 60 * 60_000;

/** updates of one chat run one at a time (in this process), in order */
function chatKey(ctx: { chat?: { id: number } | undefined; from?: { id: number } | undefined }) {
  return ctx.chat?.id.toString() ?? ctx.from?.id.toString();
}

/**
 * the storefront bot. Middleware order matters:
 * sender and language → conversations plugin → escape (commands, menu, Cancel leave a
 * flow) → buttons that work anywhere (cards, history, language, admin) → the flows →
 * commands and texts → fallbacks (unknown command, stale button, stray text).
 */
export function createBot(deps: BotDeps): KiosBot {
  // chats whose own command menu this process has set
  const menus = chatMenus();
  const i18n = createI18n<BaseContext>({
    onMissing: (key, locale) => deps.logger.warn({ key, locale }, "missing translation"),
    // the stored choice (/lang), never the client's language after the first contact
    localeNegotiator: (ctx) => ctx.lang,
  });
  const bot = new Bot<BotContext>(deps.token, {
    client: { apiRoot: deps.apiRoot },
    botInfo: deps.botInfo,
  });
  // 429s and 5xx from Telegram wait and retry (outside conversations, whose Api is rebuilt)
  bot.api.config.use(autoRetry({ maxRetryAttempts: 3, maxDelaySeconds: 60 }));
  bot.api.config.use(staleAnswersAreDone);
  bot.api.config.use(htmlByDefault);

  // the inbox seals a text command's PIN before it stores the update (storage/redact.ts)
  registerTextPins(deps);
  const flows = createFlows({ deps, i18n });
  const version = flowsVersion(flows);

  bot.use(sequentialize(chatKey));
  bot.use(trackMembership(deps));
  bot.use(attachDeps(deps, i18n));
  // a storefront is personal (wallet, history): groups and channels are ignored, and so is
  // an inline result the user sent in this chat (not something said to a flow). These stop
  // here: drop() would only branch, and the update would go on
  bot.use(async (ctx, next) => {
    const elsewhere = ctx.chat !== undefined && ctx.chat.type !== "private";
    if (!elsewhere && !sentViaThisBot(ctx)) await next();
  });
  bot.use(
    i18n.middleware() as unknown as (ctx: BotContext, next: () => Promise<void>) => Promise<void>,
  );
  bot.use(
    conversations<BaseContext, FlowContext>({
      storage: conversationStorage(deps.db, version),
      // a flow's contexts are rebuilt on every replay with a fresh Api: retry 429s there too,
      // and say HTML there too
      plugins: [
        async (ctx, next) => {
          ctx.api.config.use(autoRetry({ maxRetryAttempts: 3, maxDelaySeconds: 60 }));
          ctx.api.config.use(staleAnswersAreDone);
          ctx.api.config.use(htmlByDefault);
          await next();
        },
      ],
    }),
  );
  // a text command's PIN, sealed in the stored update, is opened for this update's handlers
  bot.use(openSealedPins());
  bot.use(escapeFeature());

  bot.use(
    checkoutButtons(),
    paymentButtons(),
    receiptButtons(),
    priceListButtons(),
    historyButtons(),
    languageButtons(menus),
    referralButtons(),
    resellerButtons(),
    // the PIN keypad runs what it guards once the PIN is right (ui/pin-pad.ts)
    pinPadButtons({
      [CB.pay]: payQuote,
      [CB.transferSend]: sendTransfer,
      [CB.pinChange]: changePin,
      [CB_API]: applyKeyAction,
    }),
    // the center's text commands, before any flow: a running flow never takes a PIN as input
    centerCommandsFeature(),
    // admin buttons, before any flow so a running flow never swallows them
    adminOnly(adminButtons(), adminDepositButtons(), reconciliationButtons(), reportButtons()),
  );

  for (const id of FLOW_IDS) {
    // a flow left alone for an hour is over: the next message is read as a fresh one
    bot.use(
      createConversation<BaseContext, FlowContext>(flows[id], {
        id,
        maxMillisecondsToWait: FLOW_IDLE_MS,
      }),
    );
  }

  bot.use(
    startFeature(menus),
    languageCommands(menus),
    menuFeature(),
    walletFeature(),
    receiptSettingsFeature(),
    apiKeysFeature(),
    historyCommands(),
    priceListCommands(),
    statusFeature(),
    adminOnly(adminCommands(), reportCommands(), reconciliationCommands(), adminPayments()),
    // after the admins' commands: an admin's /markup is the shop's, a reseller's their own
    resellerFeature(),
    inlineFeature(),
    quickOrderFeature(),
    fallbackFeature(),
  );

  const log = deps.logger.child({ component: "bot" });
  bot.catch(async (err) => {
    const ctx = err.ctx;
    const cause = err.error;
    const kind =
      cause instanceof GrammyError
        ? "telegram"
        : cause instanceof HttpError
          ? "network"
          : "handler";
    log.error({ err: cause, kind, updateId: ctx.update.update_id }, "update failed");
    // never silent: the user hears that something went wrong (best effort)
    try {
      // the failure may have come before the language was known
      const t = typeof ctx.t === "function" ? ctx.t : translator(i18n, ctx.lang ?? "id");
      if (ctx.callbackQuery) await ctx.answerCallbackQuery({ text: t("error-generic") });
      else if (ctx.chat) await ctx.reply(t("error-generic"));
    } catch {
      // telegram itself is what failed
    }
  });

  return bot;
}
