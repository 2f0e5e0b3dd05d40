import { closureOf } from "../commerce/catalogue/availability.ts";
import type { CatalogueItem } from "../commerce/catalogue/queries.ts";
import { failureOf } from "../commerce/orders/failure.ts";
import { isFinal, type Order, type Quote } from "../commerce/orders/types.ts";

// what the Mini App's API answers: plain JSON, times as Unix milliseconds

/** what a product's destination is, so the page asks for the right thing */
export type DestinationKind = "phone" | "meter" | "game_id" | "customer_no";

/** games whose account id comes with a zone (server) id, written "id(zone)" */
const ZONE_GAMES = /MOBILE\s*LEGEND|MAGIC\s*CHESS/i;

function destinationOf(item: CatalogueItem): DestinationKind {
  if (item.type === "game") return "game_id";
  if (item.type === "pasca") return "customer_no";
  return item.category.toLowerCase() === "pln" ? "meter" : "phone";
}

export function productJson(
  item: CatalogueItem,
  now: number,
  names: { categoryName: string; brandName: string },
) {
  const closed = closureOf(item, now);
  return {
    code: item.code,
    name: item.name,
    brand: item.brand,
    category: item.category,
    /** the category and the brand in the shop's words, to show (brand and category stay the keys) */
    ...names,
    type: item.type,
    operator: item.operator,
    /** what this buyer pays (a bill: the admin fee on top of the bill) */
    price: item.price,
    description: item.description,
    /** the supplier's daily cut-off window (WIB), when it has one */
    cutOff:
      item.startCutOff && item.endCutOff ? { start: item.startCutOff, end: item.endCutOff } : null,
    /** closed now (cut-off or paused) until then */
    closedUntil: closed?.until ?? null,
    destination: destinationOf(item),
    zone: item.type === "game" && ZONE_GAMES.test(item.brand),
  };
}

export function quoteJson(q: Quote) {
  return {
    id: q.id,
    kind: q.kind,
    productCode: q.productCode,
    productName: q.productName,
    destination: q.destination,
    price: q.price,
    testing: q.testing,
    expiresAt: q.expiresAt.getTime(),
    balance: q.balance,
    balanceAfter: q.balanceAfter,
    bill: q.bill
      ? { customerName: q.bill.customerName, tagihan: q.bill.tagihan, admin: q.bill.admin }
      : null,
    /** bought today already: the sheet asks before it is bought again (Pay checks it) */
    sameDay: q.sameDay ? { count: q.sameDay.count, last: q.sameDay.last.getTime() } : null,
  };
}

export function orderJson(o: Order) {
  return {
    id: o.id,
    refId: o.refId,
    status: o.status,
    final: isFinal(o.status),
    productCode: o.productCode,
    productName: o.productName,
    destination: o.destination,
    price: o.price,
    testing: o.testing,
    sn: o.status === "success" ? o.sn : null,
    failure: o.status === "failed" ? failureOf(o) : null,
    createdAt: o.createdAt.getTime(),
  };
}
