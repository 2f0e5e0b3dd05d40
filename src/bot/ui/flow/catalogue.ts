import type { BrandCount, CatalogueItem, Page } from "../../../commerce/catalogue/queries.ts";
import type { FlowContext } from "../../context.ts";
import { brandName } from "../catalogue-words.ts";
import type { Translate } from "../i18n.ts";
import { type Choice, type Convo, type PagedItems, pickPaged } from "./kit.ts";
import { productLabel } from "./labels.ts";

// the catalogue steps the purchase flows share: pick a brand, then one of its products.
// Both only wrap pickPaged, so their loads run inside conversation.external as before.

const BRAND_PAGE_SIZE = 10;
export const PRODUCT_PAGE_SIZE = 8;

/** one page of a list that is loaded whole (brands, bill kinds) */
export function pageOf<T, V>(
  all: readonly T[],
  offset: number,
  limit: number,
  choice: (item: T) => Choice<V>,
): PagedItems<V> {
  return { total: all.length, items: all.slice(offset, offset + limit).map(choice) };
}

/** picks a brand (a game, an e-wallet) from those with something to sell, two a row */
export function pickBrand(
  conversation: Convo,
  ctx: FlowContext,
  t: Translate,
  opts: { text: string; load: () => Promise<BrandCount[]> },
): Promise<string | undefined> {
  return pickPaged(conversation, ctx, t, {
    text: opts.text,
    hint: t("hint-buttons"),
    empty: t("no-products"),
    pageSize: BRAND_PAGE_SIZE,
    columns: 2,
    load: async (offset, limit) =>
      pageOf(await opts.load(), offset, limit, (b) => ({
        label: brandName(b.brand),
        value: b.brand,
      })),
  });
}

/** picks a product from a paged list, labelled with the buyer's price; returns its code */
export function pickProduct(
  conversation: Convo,
  ctx: FlowContext,
  t: Translate,
  opts: {
    text: string;
    load: (page: { limit: number; offset: number }) => Promise<Page<CatalogueItem>>;
    /** the shop's clock: a product in its cut-off window or paused is labelled closed */
    now: () => number;
  },
): Promise<string | undefined> {
  return pickPaged(conversation, ctx, t, {
    text: opts.text,
    hint: t("hint-buttons"),
    empty: t("no-products"),
    pageSize: PRODUCT_PAGE_SIZE,
    load: async (offset, limit) => {
      const page = await opts.load({ limit, offset });
      const now = opts.now();
      return {
        total: page.total,
        items: page.items.map((i) => ({ label: productLabel(t, i, now), value: i.code })),
      };
    },
  });
}
