import type { orders, quotes } from "../../db/schema.ts";
import { products } from "../../db/schema.ts";
import { routesColumn } from "../catalogue/routes.ts";
import { minMarginColumn } from "./min-margin.ts";

/**
 * what the Pay reads beside its quote: the product, the shop's minimum-margin setting and
 * the product's routes. The Pay reads them with the quote (place.ts); an H2H quote's own
 * statement reads them as it stores the quote, and hands them on (quotes.ts's forPay)
 */
export const payReadColumns = {
  product: products,
  minMargin: minMarginColumn,
  routes: routesColumn(products.code),
};

/** a quote as the Pay reads it: its row, the order it made already, and payReadColumns */
export interface QuoteForPay {
  quote: typeof quotes.$inferSelect;
  already: typeof orders.$inferSelect | null;
  product: typeof products.$inferSelect | null;
  minMargin: unknown;
  routes: unknown;
}
