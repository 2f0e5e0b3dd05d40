import { Composer } from "grammy";
import type { BotContext } from "../context.ts";
import { downlineButtons, downlineFeature } from "./downline.ts";
import { earningsFeature } from "./earnings.ts";
import { resellerMarkupFeature } from "./markup.ts";
import { pinButtons, pinFeature } from "./pin.ts";
import { transferButtons, transferFeature } from "./transfer.ts";

// the reseller network in chat (docs/resellers.md): /downline with the referral link and
// its QR, /markup over the reseller's own price, /komisi

export function resellerFeature(): Composer<BotContext> {
  const composer = new Composer<BotContext>();
  composer.use(
    downlineFeature(),
    resellerMarkupFeature(),
    earningsFeature(),
    transferFeature(),
    pinFeature(),
  );
  return composer;
}

export function resellerButtons(): Composer<BotContext> {
  const composer = new Composer<BotContext>();
  composer.use(downlineButtons(), transferButtons(), pinButtons());
  return composer;
}
