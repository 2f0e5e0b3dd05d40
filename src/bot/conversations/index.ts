import type { ConversationBuilder } from "@grammyjs/conversations";
import type { BaseContext, FlowContext } from "../context.ts";
import type { FlowId } from "../features/flows.ts";
import { conversationVersion } from "../storage.ts";
import { quoteCard } from "../views/quote.ts";
import { billFlow, parseCustomerNo } from "./bills.ts";
import { pageOf, pickBrand, pickProduct } from "./catalogue.ts";
import { depositFlow } from "./deposit.ts";
import type { FlowEnv } from "./env.ts";
import { ewalletFlow } from "./ewallet.ts";
import { gameFlow, needsZone, parseGameId, parseZone } from "./games.ts";
import { ask, pickPaged } from "./kit.ts";
import { endWithCard, offerCard, sayRefusal } from "./offer.ts";
import { plnFlow } from "./pln.ts";
import { parsePhone, pulsaFlow, recentPhones } from "./pulsa-data.ts";

export type Flow = ConversationBuilder<BaseContext, FlowContext>;

export function createFlows(env: FlowEnv): Record<FlowId, Flow> {
  return {
    pulsa: pulsaFlow(env),
    pln: plnFlow(env),
    ewallet: ewalletFlow(env),
    game: gameFlow(env),
    bill: billFlow(env),
    deposit: depositFlow(env),
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
