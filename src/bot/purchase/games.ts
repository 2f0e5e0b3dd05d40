import { listBrands, productsByBrand } from "../../commerce/catalogue/queries.ts";
import { recentDestinations } from "../../commerce/orders/queries.ts";
import type { FlowContext } from "../context.ts";
import { brandName } from "../ui/catalogue-words.ts";
import { pickBrand, pickProduct } from "../ui/flow/catalogue.ts";
import type { FlowEnv } from "../ui/flow/env.ts";
import { ask, type Convo, type FlowArgs } from "../ui/flow/kit.ts";
import { endWithCard } from "../ui/flow/offer.ts";
import { escapeHtml } from "../ui/format.ts";
import { translator } from "../ui/i18n.ts";

/** games whose account id comes with a zone (server) id */
const ZONE_GAMES = [/MOBILE\s*LEGEND/i];

export function needsZone(brand: string): boolean {
  return ZONE_GAMES.some((re) => re.test(brand));
}

/** a game account id: digits, or the letters and signs some games use */
export function parseGameId(text: string): string | undefined {
  const s = text.trim();
  return /^\d{4,20}$/.test(s) || /^[A-Za-z0-9_#-]{4,40}$/.test(s) ? s : undefined;
}

export function parseZone(text: string): string | undefined {
  const s = text.trim().replace(/^\(|\)$/g, "");
  return /^\d{1,10}$/.test(s) ? s : undefined;
}

/** game voucher: game → item → account id (→ zone id) → card */
export function gameFlow(env: FlowEnv) {
  return async function game(conversation: Convo, ctx: FlowContext, args: FlowArgs) {
    const t = translator(env.i18n, args.lang);
    const brand = await pickBrand(conversation, ctx, t, {
      text: t("pick-game"),
      load: () =>
        listBrands(env.deps.db, { type: "game" }, { tier: args.tier, buyer: ctx.from!.id }),
    });
    if (brand === undefined) return;
    const code = await pickProduct(conversation, ctx, t, {
      text: t("pick-game-item", { game: escapeHtml(brandName(brand)) }),
      load: (page) =>
        productsByBrand(env.deps.db, "game", brand, {
          tier: args.tier,
          buyer: ctx.from!.id,
          ...page,
        }),
      now: () => env.deps.clock.now(),
    });
    if (code === undefined) return;
    const userId = ctx.from!.id;
    // this game's own account ids (with their zone, where the game has one)
    const recent = await conversation.external(() =>
      recentDestinations(env.deps.db, userId, { kinds: ["game"], brand }, 3),
    );
    const accountId = await ask(conversation, ctx, t, {
      text: t("ask-game-id", { game: escapeHtml(brandName(brand)) }),
      choices: recent.map((d) => ({ label: d, value: d })),
      parse: parseGameId,
      hint: t("hint-game-id"),
    });
    let destination = accountId;
    // a typed id never holds "(": only a quick pick brings its zone along
    if (needsZone(brand) && !accountId.includes("(")) {
      const zone = await ask(conversation, ctx, t, {
        text: t("ask-game-zone", { game: escapeHtml(brandName(brand)) }),
        parse: parseZone,
        hint: t("hint-game-zone"),
      });
      destination = `${accountId}(${zone})`;
    }
    await endWithCard(conversation, ctx, t, env, { productCode: code, destination });
  };
}
