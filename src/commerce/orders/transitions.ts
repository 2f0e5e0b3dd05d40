import { and, eq, inArray, sql } from "drizzle-orm";
import { builtOncePerShape } from "../../db/built-once.ts";
import type { Executor } from "../../db/client.ts";
import { isStatementUndone } from "../../db/errors.ts";
import { h2hKeys, h2hOrders, notifications, orders } from "../../db/schema.ts";
import type { SupplierError, SupplierTransaction } from "../../supplier/types.ts";
import { type PausePolicy, pauseIfFailing } from "../catalogue/pauses.ts";
import { enqueueNotification } from "../notifications/outbox.ts";
import { marginsEarned } from "../resellers/earned.ts";
import { captureCallValues, captureOrder, releaseOrder } from "../wallet/ledger.ts";
import type { OrderFence } from "./lock.ts";
import { orderColumnsOf } from "./order-columns.ts";
import { closeAttemptOf } from "./routing.ts";
import type { Order, OrderStatus } from "./types.ts";

// the one place an order's state moves. Every move is a conditional update that only
// goes forward, and the money moves in the same database transaction as the state.

const OPEN: OrderStatus[] = ["created", "submitted", "unknown", "pending"];

/** how far along each state is: a move to a lower rank is stale and changes nothing */
const RANK: Record<OrderStatus, number> = {
  created: 0,
  submitted: 1,
  unknown: 2,
  pending: 3,
  success: 4,
  failed: 4,
};

export interface Finalisation {
  status: "success" | "failed";
  sn?: string | null;
  reason?: string | null;
  supplierCode?: string | null;
  supplierMessage?: string | null;
  /** what the supplier says it charged (else the quoted cost) */
  supplierPrice?: number | null;
  /** a failure's machine-readable reason from the supplier's record (kept on the attempt) */
  supplierReason?: string | null;
}

/** what varies a move's statement: one built statement per shape (db/built-once.ts) */
interface MoveShape {
  from: readonly OrderStatus[];
  /** moved only while this attempt is the order's current one */
  attempt: boolean;
  /** the settlement lock's fence in the condition, the lock freed in the same write */
  lock: boolean;
  /**
   * the order's capture in the same statement (finaliseAtOnce): moved only while its price,
   * cost, margins (none) and testing are the ones the capture was computed from
   */
  capture: boolean;
}

const at = (name: string) => sql`${sql.param(sql.placeholder(name), orders.finalAt)}`;
const value = (name: string) => sql`${sql.placeholder(name)}`;

/**
 * the order moved and its open attempt final with it, in one statement (design rule 15:
 * the one that could still succeed): built once per shape, every value a placeholder
 */
const moveStatement = builtOncePerShape(
  (s: MoveShape) => `${s.from.join(",")}|${s.attempt}|${s.lock}|${s.capture}`,
  (tx, s) => {
    const move = tx.$with("moved").as(
      tx
        .update(orders)
        .set({
          status: value("status"),
          sn: value("sn"),
          failureReason: value("failureReason"),
          supplierCode: value("supplierCode"),
          supplierMessage: value("supplierMessage"),
          supplierPrice: value("supplierPrice"),
          finalAt: at("now"),
          nextCheckAt: null,
          updatedAt: at("now"),
          ...(s.lock ? { lockHolder: null, lockUntil: null } : {}),
        })
        .where(
          and(
            eq(orders.id, sql.placeholder("id")),
            inArray(orders.status, [...s.from]),
            s.attempt ? eq(orders.refId, sql.placeholder("attempt")) : undefined,
            s.lock ? eq(orders.lockHolder, sql.placeholder("holder")) : undefined,
            ...(s.capture
              ? [
                  eq(orders.price, sql.placeholder("price")),
                  eq(orders.cost, sql.placeholder("orderCost")),
                  sql`${orders.margins} = '[]'::jsonb`,
                  eq(orders.testing, false),
                ]
              : []),
          ),
        )
        .returning(),
    );
    const closed = closeAttemptOf(tx, move, {
      status: value("status"),
      at: at("now"),
      code: value("supplierCode"),
      reason: value("supplierReason"),
      message: value("answerMessage"),
    });
    // the buyer's notification rides in the move: queued exactly when the order moved. Not
    // for a server's order whose result stays out of the chat (h2hResultMuted: an H2H key's
    // unless it asks, the OtomaX door's always): its server has the result, and a queued one
    // would wait out Telegram's limits for nothing, holding every other chat's notifications
    // behind a server's burst
    const notified = tx.$with("notified", { id: sql<number>`id` }).as(sql`
      insert into ${notifications} (key, chat_id, payload)
      select 'order:' || m.id || ':final', m.chat_id,
        jsonb_build_object('type', 'order_final', 'orderId', m.id, 'late', ${value("late")}::boolean)
      from ${move} m
      where not exists (
        select 1 from ${h2hOrders} ho left join ${h2hKeys} k on k.id = ho.key_id
        where ho.quote_id = m.confirm_key
          and (ho.center_key_id is not null or not k.chat_results))
      on conflict (key) do nothing
      returning id`);
    if (!s.capture) return tx.with(move, closed, notified).select().from(move);
    // the hold captured by the same statement: not applied, it fails the whole statement
    const captured = tx.$with("captured", { stored: sql<unknown>`stored` }).as(sql`
      select kios_transfer_or_fail(${value("captureKey")}::text, ${value("captureKind")}::text,
        ${value("captureMemo")}::text, ${value("captureActorId")}::bigint,
        ${value("captureLegs")}::jsonb, ${value("captureRequires")}::jsonb) as stored
      from ${move}`);
    return tx
      .with(move, closed, notified, captured)
      .select({
        ...orderColumnsOf(move),
        captured: sql<unknown>`(select stored from ${captured})`,
        queued: sql<boolean>`exists (select 1 from ${notified})`,
      })
      .from(move);
  },
);

/**
 * moves an open order to success or failed, settling its hold once (capture or release)
 * and queueing its notification. Returns the order, or undefined when it was already
 * final (a late, duplicate or racing result: nothing happens).
 */
export async function finaliseOrder(
  tx: Executor,
  order: Order,
  f: Finalisation,
  now: Date,
  late: boolean,
  options: {
    /**
     * the states this decision is valid from. A decision drawn from the order as it was
     * read ("it was never sent", "the supplier has no record") names that state, so a
     * submission that raced it is never refunded by mistake.
     */
    from?: readonly OrderStatus[];
    /** told when the supplier charged more than the quote, or a product is paused */
    adminIds?: readonly number[] | undefined;
    /** the first supplier's name: a pause closes the failing supplier's route (pauses.ts) */
    firstSupplier?: string | undefined;
    /** when a product's failures close it for a while (default DEFAULT_PAUSE_POLICY) */
    pause?: PausePolicy | undefined;
    /** told of every order that became final (metrics) */
    onFinal?: ((order: Order) => void) | undefined;
    /**
     * the ref_id of the attempt the decision is about (a supplier's answer): it settles the
     * order only while that attempt is the order's current one, never an attempt the order
     * was re-routed to since (design rules 5 and 15)
     */
    attempt?: string | undefined;
    /**
     * the settlement lock's fence, folded into the move (lock.ts): it matches only while
     * the lock is the caller's, and frees it with the move
     */
    lock?: Pick<OrderFence, "holder"> | undefined;
    /**
     * what the supplier said in the answer that settles the order, kept on its attempt with
     * the move (the code and the time come from the finalisation): no write of its own
     */
    answerMessage?: string | null | undefined;
  } = {},
): Promise<Order | undefined> {
  const from = options.from ?? OPEN;
  const shape = {
    from,
    attempt: options.attempt !== undefined,
    lock: options.lock !== undefined,
    capture: false,
  };
  let [moved] = await moveStatement(tx, shape, moveValues(order, f, now, late, options));
  if (!moved) return undefined;

  if (!moved.testing) {
    if (f.status === "success") {
      // the ledger records what the supplier actually charged; the margin absorbs a difference
      const cost = f.supplierPrice && f.supplierPrice > 0 ? f.supplierPrice : moved.cost;
      // a demoted upline's margin stays with the shop (design rule 19)
      moved = { ...moved, margins: [...(await marginsEarned(tx, moved))] };
      await captureOrder(tx, {
        orderId: moved.id,
        price: moved.price,
        cost,
        margins: moved.margins,
      });
      if (cost > moved.cost) {
        moved = await reportOvercharge(tx, moved, cost, now, options.adminIds ?? []);
      }
    } else {
      await releaseOrder(tx, { orderId: moved.id, userId: moved.userId, amount: moved.price });
      await pauseIfFailing(tx, {
        orderId: moved.id,
        refId: moved.refId,
        productCode: moved.productCode,
        supplierCode: moved.supplierCode,
        price: moved.price,
        now,
        policy: options.pause,
        adminIds: options.adminIds ?? [],
        firstSupplier: options.firstSupplier,
      });
    }
  }
  // its notification was queued by the move (moveStatement)
  options.onFinal?.(moved);
  return moved;
}

/** a move's values but its capture's */
function moveValues(
  order: Order,
  f: Finalisation,
  now: Date,
  late: boolean,
  o: {
    attempt?: string | undefined;
    lock?: Pick<OrderFence, "holder"> | undefined;
    answerMessage?: string | null | undefined;
  },
) {
  return {
    id: order.id,
    status: f.status,
    sn: f.status === "success" ? (f.sn ?? null) : null,
    failureReason: f.status === "failed" ? (f.reason ?? null) : null,
    supplierCode: f.supplierCode ?? null,
    supplierMessage: f.supplierMessage ?? null,
    supplierPrice: f.supplierPrice ?? null,
    now,
    attempt: o.attempt ?? null,
    holder: o.lock?.holder ?? null,
    supplierReason: f.supplierReason ?? null,
    answerMessage: o.answerMessage?.slice(0, 500) ?? null,
    late,
  };
}

/**
 * a supplier's answer that settles its attempt with a success, in one statement with no
 * transaction around it: the order moved, its attempt closed with the answer, the buyer's
 * notification queued and the hold captured, atomic as any one statement is (4 statements
 * as a transaction: begin, the move, the capture, commit). Only for what that statement
 * settles whole: a success from an open state, for the attempt sent, of an order with no
 * uplines' margins (theirs are their own transfers, and a demoted upline's is the shop's),
 * charged no more than its cost (an overcharge flags the order and tells the admins). The
 * capture is computed from the order in hand, and the statement moves the order only while
 * its price, cost, margins and testing are those. Undefined: it moved nothing (another
 * answer settled the order first, the order is not as read, or the capture was refused and
 * undid the statement); the caller settles it with finaliseOrder in a transaction, which
 * finds out which, as before.
 */
export async function finaliseAtOnce(
  db: Executor,
  order: Order,
  f: Finalisation & { status: "success" },
  now: Date,
  options: {
    /** the ref_id of the attempt the answer is about (finaliseOrder's option) */
    attempt: string;
    answerMessage?: string | null | undefined;
    onFinal?: ((order: Order) => void) | undefined;
  },
): Promise<{ order: Order; queued: boolean } | undefined> {
  const cost = f.supplierPrice && f.supplierPrice > 0 ? f.supplierPrice : order.cost;
  if (order.testing || order.margins.length > 0 || cost > order.cost) return undefined;
  const capture = captureCallValues({ orderId: order.id, price: order.price, cost });
  let rows: Awaited<ReturnType<typeof moveStatement>>;
  try {
    rows = await moveStatement(
      db,
      { from: OPEN, attempt: true, lock: false, capture: true },
      {
        ...moveValues(order, f, now, false, options),
        price: order.price,
        orderCost: order.cost,
        captureKey: capture.key,
        captureKind: capture.kind,
        captureMemo: capture.memo,
        captureActorId: capture.actorId,
        captureLegs: capture.legs,
        captureRequires: capture.requires,
      },
    );
  } catch (err) {
    if (isStatementUndone(err)) return undefined;
    throw err;
  }
  const [row] = rows;
  if (!row) return undefined;
  const { captured: _, queued, ...moved } = row as Order & { captured?: unknown; queued: boolean };
  options.onFinal?.(moved);
  return { order: moved, queued };
}

/**
 * the supplier charged more than the buyer was quoted on: the capture above records the
 * real cost, and the order is flagged and every admin told (never absorbed in silence)
 */
async function reportOvercharge(
  tx: Executor,
  order: Order,
  charged: number,
  now: Date,
  adminIds: readonly number[],
): Promise<Order> {
  const [flagged] = await tx
    .update(orders)
    .set({ flaggedAt: sql`coalesce(${orders.flaggedAt}, ${now.toISOString()}::timestamptz)` })
    .where(eq(orders.id, order.id))
    .returning();
  for (const adminId of adminIds) {
    await enqueueNotification(tx, {
      key: `order:${order.id}:overcharge:${adminId}`,
      chatId: adminId,
      payload: { type: "order_overcharged", orderId: order.id, quoted: order.cost, charged },
    });
  }
  return flagged ?? order;
}

/**
 * records that the outcome of the order's attempt `order.refId` is still open (pending or
 * unknown), never moving backwards, and only while that attempt is the order's current one
 */
export async function markOpen(
  tx: Executor,
  order: Order,
  status: "pending" | "unknown",
  now: Date,
  nextCheckAt: Date,
  supplier?: { code?: string | null; message?: string | null },
): Promise<Order | undefined> {
  const allowedFrom = OPEN.filter((s) => RANK[s] <= RANK[status]);
  const [moved] = await tx
    .update(orders)
    .set({
      status,
      nextCheckAt,
      updatedAt: now,
      supplierCode: supplier?.code || undefined,
      supplierMessage: supplier?.message || undefined,
    })
    .where(
      and(
        eq(orders.id, order.id),
        eq(orders.refId, order.refId),
        inArray(orders.status, allowedFrom),
      ),
    )
    .returning();
  return moved;
}

/** the finalisation a supplier transaction calls for, or null while it is still pending. */
export function finalisationOf(t: SupplierTransaction): Finalisation | null {
  if (t.status === "pending") return null;
  return t.status === "success"
    ? successOf(t)
    : {
        status: "failed",
        reason: t.message || "the supplier reported a failure",
        supplierCode: t.supplierCode,
        supplierMessage: t.message,
        supplierReason: t.reason ?? null,
      };
}

/** the finalisation of a supplier transaction that succeeded */
export function successOf(t: SupplierTransaction): Finalisation & { status: "success" } {
  return {
    status: "success",
    sn: t.sn,
    supplierCode: t.supplierCode,
    supplierMessage: t.message,
    supplierPrice: t.price > 0 ? t.price : null,
  };
}

/**
 * a definite refusal: kios's normalised code (the same for both interfaces), so the buyer
 * is shown a reason in their language rather than kios's own technical explanation
 */
export function rejectionOf(error: SupplierError): Finalisation {
  return {
    status: "failed",
    reason: error.message,
    supplierCode: error.code,
    supplierMessage: null,
  };
}

/** bumps the check counter and schedules the next status poll. */
export async function scheduleCheck(
  tx: Executor,
  orderId: number,
  nextCheckAt: Date,
  flag: boolean,
): Promise<void> {
  await tx
    .update(orders)
    .set({
      checks: sql`${orders.checks} + 1`,
      nextCheckAt,
      flaggedAt: flag ? sql`coalesce(${orders.flaggedAt}, now())` : undefined,
    })
    .where(and(eq(orders.id, orderId), inArray(orders.status, OPEN)));
}
