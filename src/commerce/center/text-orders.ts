import { and, eq } from "drizzle-orm";
import type { Executor } from "../../db/client.ts";
import { orders, textOrders } from "../../db/schema.ts";
import { productKind } from "../h2h/orders.ts";
import { cancelQuote } from "../orders/cancel.ts";
import type { OrderEngine } from "../orders/engine.ts";
import { confirmQuote } from "../orders/place.ts";
import { createQuote } from "../orders/quotes.ts";
import type { ConfirmResult, Order, QuoteRefusal } from "../orders/types.ts";

// a center text command's order (docs/center.md#text-commands) through the order engine's
// own way in: createQuote at the reseller's price, then confirmQuote (stored before sent,
// held on the wallet, the same-day repeat rule counted in Pay's own statement). A reseller's
// R# binds to the quote kios made for it (text_orders, unique per reseller), as an H2H
// ref_id does (h2h/orders.ts): however many texts with one R# race, one order and one hold.

export type TextOrderRow = typeof textOrders.$inferSelect;

/** why a text order made no order (the answer's reason); nothing was held */
export type TextRefusal =
  | "unknown_code"
  | "bill_code"
  | "inactive"
  | "invalid_destination"
  | "insufficient_balance"
  | "bought_today"
  | "try_again";

export type TextOrderResult =
  | {
      ok: true;
      order: Order;
      row: TextOrderRow;
      /**
       * this text placed nothing: its R#'s order was already made, by an earlier text or by a
       * concurrent one that confirmed the R#'s quote first (exactly one text forms it)
       */
      repeat: boolean;
    }
  | { ok: false; reason: TextRefusal; boughtToday?: number };

export interface TextOrderRequest {
  userId: number;
  chatId: number;
  code: string;
  destination: string;
  /** CODE.n.DEST: the purchase of the day this is (1 when not typed) */
  nth?: number | undefined;
  ref?: string | undefined;
}

export async function findTextOrder(
  db: Executor,
  userId: number,
  ref: string,
): Promise<{ row: TextOrderRow; order: Order | undefined } | undefined> {
  const [found] = await db
    .select({ row: textOrders, order: orders })
    .from(textOrders)
    .leftJoin(orders, eq(orders.confirmKey, textOrders.quoteId))
    .where(and(eq(textOrders.userId, userId), eq(textOrders.ref, ref)));
  return found ? { row: found.row, order: found.order ?? undefined } : undefined;
}

/** the text order an order was placed by, if it was */
export async function textOrderOf(
  db: Executor,
  orderId: number,
): Promise<TextOrderRow | undefined> {
  const [row] = await db
    .select({ row: textOrders })
    .from(textOrders)
    .innerJoin(orders, eq(orders.confirmKey, textOrders.quoteId))
    .where(eq(orders.id, orderId));
  return row?.row;
}

/** records what the chat's first answer said (the final then comes only after a PROSES) */
export async function markAnswered(db: Executor, rowId: number, word: string): Promise<void> {
  await db.update(textOrders).set({ answered: word }).where(eq(textOrders.id, rowId));
}

function quoteReason(r: QuoteRefusal): TextRefusal {
  switch (r.reason) {
    case "invalid_destination":
      return "invalid_destination";
    case "supplier_error":
      return "try_again";
    default:
      return "inactive";
  }
}

function confirmReason(r: Exclude<ConfirmResult, { ok: true }>): TextRefusal {
  switch (r.reason) {
    case "insufficient_balance":
      return "insufficient_balance";
    case "bought_today":
      return "bought_today";
    case "product_unavailable":
    case "product_closed":
      return "inactive";
    default:
      return "try_again";
  }
}

/**
 * a refused confirmation formed nothing, so the R# binds nothing: the quote is voided under
 * its lock (a concurrent repeat either made its order first, which is then the answer, or
 * finds it void) and the row goes
 */
async function release(engine: OrderEngine, row: TextOrderRow): Promise<Order | undefined> {
  const voided = await cancelQuote(engine.db, {
    quoteId: row.quoteId,
    userId: row.userId,
    now: new Date(engine.clock.now()),
  });
  if (voided.state === "ordered") return voided.order;
  await engine.db
    .delete(textOrders)
    .where(and(eq(textOrders.id, row.id), eq(textOrders.quoteId, row.quoteId)));
  return undefined;
}

async function confirmRow(engine: OrderEngine, row: TextOrderRow): Promise<TextOrderResult> {
  const result = await confirmQuote(engine, { quoteId: row.quoteId, userId: row.userId });
  if (result.ok) return { ok: true, order: result.order, row, repeat: result.duplicate };
  const order = await release(engine, row);
  if (order) return { ok: true, order, row, repeat: true };
  return result.reason === "bought_today"
    ? { ok: false, reason: "bought_today", boughtToday: result.count }
    : { ok: false, reason: confirmReason(result) };
}

/** one order of a text command: placed, the stored one of its R#, or refused */
export async function placeTextOrder(
  engine: OrderEngine,
  o: TextOrderRequest,
): Promise<TextOrderResult> {
  if (o.ref !== undefined) {
    const stored = await findTextOrder(engine.db, o.userId, o.ref);
    if (stored?.order) return { ok: true, order: stored.order, row: stored.row, repeat: true };
    if (stored) {
      // a text with this R# still in flight: its quote's one order is the answer; refused,
      // it let the R# go and this text goes on as a new one
      // (whichever of the texts confirms that quote first formed the order: only it says so)
      const joined = await confirmRow(engine, stored.row);
      if (joined.ok) return joined;
    }
  }
  const kind = await productKind(engine.db, o.code);
  if (kind === undefined) return { ok: false, reason: "unknown_code" };
  if (kind === "pasca") return { ok: false, reason: "bill_code" };
  const quoted = await createQuote(engine, {
    userId: o.userId,
    chatId: o.chatId,
    productCode: o.code,
    destination: o.destination,
    // the repeat rule as the chat's: CODE.DEST is the first of the day, CODE.n.DEST the n-th
    repeat: { nth: o.nth ?? 1 },
  });
  if (!quoted.ok) return { ok: false, reason: quoteReason(quoted) };
  const [mine] = await engine.db
    .insert(textOrders)
    .values({ userId: o.userId, ref: o.ref ?? null, quoteId: quoted.quote.id })
    .onConflictDoNothing({ target: [textOrders.userId, textOrders.ref] })
    .returning();
  // a concurrent text with the same R# bound it first: its quote is the one confirmed
  const row = mine ?? (await findTextOrder(engine.db, o.userId, o.ref!))?.row;
  if (!row) return { ok: false, reason: "try_again" };
  return confirmRow(engine, row);
}
