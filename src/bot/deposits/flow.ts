import { setPaymentMessage } from "../../commerce/payments/payments.ts";
import type { FlowContext } from "../context.ts";
import type { FlowEnv } from "../ui/flow/env.ts";
import { ask, type Convo, type FlowArgs } from "../ui/flow/kit.ts";
import { parseAmount, rupiah } from "../ui/format.ts";
import { translator } from "../ui/i18n.ts";
import { depositCreatedKeyboard, depositCreatedText, depositRefusedText } from "./deposit-view.ts";
import { startDeposit } from "./manual.ts";
import { createQrOffer, qrPhoto } from "./qr-offer.ts";
import { withManualButton } from "./qris.ts";

const DEPOSIT_PRESETS = [50_000, 100_000, 200_000, 500_000];

/** top-up: amount (a preset or typed) → request with instructions; admins are told */
export function depositFlow(env: FlowEnv) {
  return async function deposit(conversation: Convo, ctx: FlowContext, args: FlowArgs) {
    const t = translator(env.i18n, args.lang);
    const userId = ctx.from!.id;
    for (;;) {
      const amount = await ask(conversation, ctx, t, {
        text: t("ask-deposit-amount"),
        choices: DEPOSIT_PRESETS.map((a) => ({ label: rupiah(a), value: a })),
        columns: 2,
        parse: parseAmount,
        hint: t("hint-amount"),
      });
      const payments = env.deps.payments;
      if (payments) {
        const chatId = ctx.chat!.id;
        const offer = await conversation.external(() =>
          createQrOffer(payments, t, { userId, chatId, amount }),
        );
        if (offer.ok) {
          const keyboard = withManualButton(t, payments.manual, offer.keyboard, amount);
          // the photo is drawn again on a replay (the same QR), the message stored once
          const sent = await ctx.replyWithPhoto(await qrPhoto(offer), {
            caption: offer.caption,
            reply_markup: keyboard,
          });
          await conversation.external(() =>
            setPaymentMessage(env.deps.db, offer.paymentId, sent.message_id),
          );
          return;
        }
        if (offer.reason !== "unavailable" || !payments.manual) {
          await ctx.reply(offer.text);
          continue;
        }
        // the gateway can't be reached: the manual transfer instead
      }
      const outcome = await conversation.external(() => startDeposit(env.deps, userId, amount));
      if (outcome.ok) {
        await ctx.reply(depositCreatedText(t, outcome.deposit), {
          reply_markup: depositCreatedKeyboard(t, outcome.deposit),
        });
        return;
      }
      // below the minimum or above the maximum: say the limit and ask again
      await ctx.reply(depositRefusedText(t, outcome));
    }
  };
}
