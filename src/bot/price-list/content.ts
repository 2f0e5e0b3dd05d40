import { closureOf } from "../../commerce/catalogue/availability.ts";
import type { PriceListScope } from "../../commerce/catalogue/price-list.ts";
import type { Tier } from "../../commerce/catalogue/pricing.ts";
import type { CatalogueItem } from "../../commerce/catalogue/queries.ts";
import { brandName, categoryName } from "../ui/catalogue-words.ts";
import { escapeHtml, rupiah, wibDateTime, wibTime } from "../ui/format.ts";
import type { Translate } from "../ui/i18n.ts";
import type { Logo } from "../ui/pictures/logo.ts";

// what /harga says: a page of the caller's prices as chat text, and the whole list as the
// lines of a picture to forward. Rows are grouped under what the scope leaves open (the
// brand within a category, the category within a brand); a closed product says when it
// opens again.

export const PRICE_LIST_PAGE_SIZE = 15;
/** a picture holds this many rows; Telegram shows a photo up to 10,000 px wide + high */
export const PICTURE_MAX_ROWS = 150;
/**
 * a longer list is sent as this many pictures at most (1/3, 2/3, …): 1,500 rows, ten
 * photos of about 300 KB each; past that the caption says to narrow the list
 */
export const PICTURE_MAX_PAGES = 10;

/** a category and a brand in the shop's words: "Pulsa · Telkomsel" (stored: Pulsa, TELKOMSEL) */
function label(t: Translate, category: string | undefined, brand: string | undefined) {
  const parts = [
    category === undefined ? undefined : categoryName(t, category),
    // a bill's brand is its kind again ("PLN PASCABAYAR" both): said once
    brand === undefined || brand === category ? undefined : brandName(brand),
  ].filter((s) => s !== undefined);
  return parts.length > 0 ? parts.join(" · ") : undefined;
}

/** "Pulsa · Telkomsel" */
export function scopeLabel(t: Translate, scope: PriceListScope): string {
  return label(t, scope.category, scope.brand) ?? "";
}

/** the heading a row goes under: the parts of its name the scope leaves open */
function groupOf(t: Translate, scope: PriceListScope, item: CatalogueItem): string | undefined {
  return label(
    t,
    scope.category === undefined ? item.category : undefined,
    scope.brand === undefined && item.brand !== item.category ? item.brand : undefined,
  );
}

/** a bill's price is its admin fee, paid on top of the bill */
function priceText(t: Translate, item: CatalogueItem, price: number): string {
  return item.type === "pasca"
    ? t("price-list-admin-fee", { price: rupiah(price) })
    : rupiah(price);
}

/** items in groups, in their order: a new group whenever the heading changes */
function grouped<T>(
  t: Translate,
  scope: PriceListScope,
  items: readonly CatalogueItem[],
  row: (item: CatalogueItem) => T,
): { heading: string | undefined; rows: T[] }[] {
  const groups: { heading: string | undefined; rows: T[] }[] = [];
  for (const item of items) {
    const heading = groupOf(t, scope, item);
    const last = groups.at(-1);
    if (last && last.heading === heading) last.rows.push(row(item));
    else groups.push({ heading, rows: [row(item)] });
  }
  return groups;
}

/** one product's line: its name and price, closed ones marked (chat HTML) */
export function priceListRow(t: Translate, item: CatalogueItem, tier: Tier, now: number): string {
  const closed = closureOf(item, now);
  // resellers order by code (KODE.TUJUAN); customers tap through the menu
  const code = tier === "reseller" ? `<code>${escapeHtml(item.code)}</code> ` : "";
  const row = `${code}${escapeHtml(item.name)} · ${priceText(t, item, item.price)}`;
  return closed
    ? `⛔ ${row} · ${t("product-closed-label", { until: wibTime(closed.until) })}`
    : row;
}

/** one page of the list, as chat HTML */
export function priceListText(
  t: Translate,
  o: {
    scope: PriceListScope;
    items: readonly CatalogueItem[];
    total: number;
    page: number;
    pages: number;
    tier: Tier;
    now: number;
  },
): string {
  const lines = [
    t("price-list-title", {
      scope: escapeHtml(scopeLabel(t, o.scope)),
      count: String(o.total),
      page: String(o.page + 1),
      pages: String(o.pages),
    }),
  ];
  if (o.tier === "reseller") lines.push(t("price-list-reseller"));
  for (const group of grouped(t, o.scope, o.items, (item) => item)) {
    lines.push("");
    if (group.heading) lines.push(`<b>${escapeHtml(group.heading)}</b>`);
    for (const item of group.rows) lines.push(priceListRow(t, item, o.tier, o.now));
  }
  return lines.join("\n");
}

interface PictureRow {
  name: string;
  price: string;
  /** "tutup s/d 00:15 WIB" for a closed product */
  closed?: string | undefined;
}

/** what a price-list picture says */
export interface PriceListPicture {
  shop: string;
  /** the shop's logo above its name (not on a reseller's own list) */
  logo?: Logo | undefined;
  title: string;
  asOf: string;
  groups: { heading: string | undefined; rows: PictureRow[] }[];
  /** a line saying how many more products did not fit */
  more?: string | undefined;
  footer: string;
}

/**
 * the list as a picture for the caller's buyers: the shop's (or the reseller's own) name,
 * and each price with the amount they add (/struk harga) so it reads as their price
 */
export function priceListPictureOf(
  t: Translate,
  o: {
    shop: string;
    logo?: Logo | undefined;
    scope: PriceListScope;
    items: readonly CatalogueItem[];
    total: number;
    now: number;
    markup: number;
    /** this picture's place among the list's pictures (default: the only one) */
    page?: { index: number; count: number; offset: number } | undefined;
  },
): PriceListPicture {
  const page = o.page ?? { index: 0, count: 1, offset: 0 };
  const shown = o.items.slice(0, PICTURE_MAX_ROWS);
  const last = page.index === page.count - 1;
  // what no picture holds, said under the last one
  const more = last ? o.total - page.offset - shown.length : 0;
  const scope = scopeLabel(t, o.scope);
  return {
    shop: o.shop,
    logo: o.logo,
    title:
      page.count > 1
        ? t("price-list-picture-title-page", {
            scope,
            page: String(page.index + 1),
            pages: String(page.count),
          })
        : t("price-list-picture-title", { scope }),
    asOf: t("price-list-picture-as-of", { when: wibDateTime(o.now) }),
    groups: grouped(t, o.scope, shown, (item) => {
      const closed = closureOf(item, o.now);
      return {
        name: item.name,
        price: priceText(t, item, item.price + o.markup),
        closed: closed ? t("product-closed-label", { until: wibTime(closed.until) }) : undefined,
      };
    }),
    more: more > 0 ? t("price-list-picture-more", { more: String(more) }) : undefined,
    footer: t("price-list-picture-footer"),
  };
}

/**
 * the list as pictures of PICTURE_MAX_ROWS rows each, PICTURE_MAX_PAGES at most: a list
 * too long for one photo is sent as several, each saying which of them it is
 */
export function priceListPicturePages(
  t: Translate,
  o: Omit<Parameters<typeof priceListPictureOf>[1], "page">,
): PriceListPicture[] {
  const items = o.items.slice(0, PICTURE_MAX_ROWS * PICTURE_MAX_PAGES);
  const count = Math.max(1, Math.ceil(items.length / PICTURE_MAX_ROWS));
  return Array.from({ length: count }, (_, index) => {
    const offset = index * PICTURE_MAX_ROWS;
    return priceListPictureOf(t, {
      ...o,
      items: items.slice(offset, offset + PICTURE_MAX_ROWS),
      page: { index, count, offset },
    });
  });
}
