import type { ConversationBuilder } from "@grammyjs/conversations";
import { billFlow, parseCustomerNo } from "./bills/flow.ts";
import type { BaseContext, FlowContext } from "./context.ts";
import { depositFlow } from "./deposits/flow.ts";
import { ewalletFlow } from "./purchase/ewallet.ts";
import { gameFlow, needsZone, parseGameId, parseZone } from "./purchase/games.ts";
import { plnFlow } from "./purchase/pln.ts";
import { productFlow } from "./purchase/product-link.ts";
import { parsePhone, pulsaFlow, recentPhones } from "./purchase/pulsa-data.ts";
import { conversationVersion } from "./storage/chat-state.ts";
import { pageOf, pickBrand, pickProduct } from "./ui/flow/catalogue.ts";
import type { FlowId } from "./ui/flow/enter.ts";
import type { FlowEnv } from "./ui/flow/env.ts";
import { ask, pickPaged } from "./ui/flow/kit.ts";
import { endWithCard, offerCard, sayRefusal } from "./ui/flow/offer.ts";
import { quoteCard } from "./ui/quote-card.ts";

export type Flow = ConversationBuilder<BaseContext, FlowContext>;

export function createFlows(env: FlowEnv): Record<FlowId, Flow> {
  return {
    pulsa: pulsaFlow(env),
    pln: plnFlow(env),
    ewallet: ewalletFlow(env),
    game: gameFlow(env),
    bill: billFlow(env),
    deposit: depositFlow(env),
    product: productFlow(env),
  };
}

// bump when a change to the steps' behaviour is not visible in the code listed below
const STATE_SALT = 1;

/**
 * the storage version of the flows: it changes whenever the code a replay runs through
 * changes (the builders and the step helpers), so a stored log is never replayed
 * against different code; such a flow is dropped and the user starts again.
 */
export function flowsVersion(flows: Record<FlowId, Flow>): string {
  return conversationVersion(
    [
      ...Object.values(flows),
      ask,
      pickPaged,
      pickBrand,
      pickProduct,
      pageOf,
      offerCard,
      endWithCard,
      sayRefusal,
      quoteCard,
      recentPhones,
      parsePhone,
      parseCustomerNo,
      parseGameId,
      parseZone,
      needsZone,
    ],
    STATE_SALT,
  );
}
