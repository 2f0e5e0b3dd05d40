import { listBrands, productsByBrand } from "../../commerce/catalogue/queries.ts";
import type { FlowContext } from "../context.ts";
import { escapeHtml } from "../format.ts";
import { translator } from "../i18n.ts";
import type { FlowEnv } from "./env.ts";
import { BRAND_PAGE_SIZE } from "./ewallet.ts";
import { ask, type Convo, type FlowArgs, pickPaged } from "./kit.ts";
import { productLabel } from "./labels.ts";
import { offerCard, sayRefusal } from "./offer.ts";
import { PRODUCT_PAGE_SIZE } from "./pulsa-data.ts";

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
    const brand = await pickPaged(conversation, ctx, t, {
      text: t("pick-game"),
      hint: t("hint-buttons"),
      empty: t("no-products"),
      pageSize: BRAND_PAGE_SIZE,
      columns: 2,
      load: async (offset, limit) => {
        const brands = await listBrands(env.deps.db, { type: "game" }, { tier: args.tier });
        return {
          total: brands.length,
          items: brands
            .slice(offset, offset + limit)
            .map((b) => ({ label: b.brand, value: b.brand })),
        };
      },
    });
    if (brand === undefined) return;
    const code = await pickPaged(conversation, ctx, t, {
      text: t("pick-game-item", { game: escapeHtml(brand) }),
      hint: t("hint-buttons"),
      empty: t("no-products"),
      pageSize: PRODUCT_PAGE_SIZE,
      load: async (offset, limit) => {
        const page = await productsByBrand(env.deps.db, "game", brand, {
          tier: args.tier,
          limit,
          offset,
        });
        return {
          total: page.total,
          items: page.items.map((i) => ({ label: productLabel(i), value: i.code })),
        };
      },
    });
    if (code === undefined) return;
    const accountId = await ask(conversation, ctx, t, {
      text: t("ask-game-id", { game: escapeHtml(brand) }),
      parse: parseGameId,
      hint: t("hint-game-id"),
    });
    let destination = accountId;
    if (needsZone(brand)) {
      const zone = await ask(conversation, ctx, t, {
        text: t("ask-game-zone", { game: escapeHtml(brand) }),
        parse: parseZone,
        hint: t("hint-game-zone"),
      });
      destination = `${accountId}(${zone})`;
    }
    const outcome = await offerCard(conversation, ctx, t, env, {
      productCode: code,
      destination,
      bill: false,
    });
    if (!outcome.ok) await sayRefusal(ctx, t, outcome);
  };
}
