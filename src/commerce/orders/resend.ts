import { sql } from "drizzle-orm";
import type { Executor } from "../../db/client.ts";
import { rowsOf } from "../../db/sql-rows.ts";
import type { SentRequest } from "../../supplier/types.ts";
import { routeCodeOf } from "./routing.ts";
import type { Order } from "./types.ts";

// the status check that can buy (design rule 22, docs/suppliers.md#the-re-send-rule). At a
// supplier whose status check re-sends the order (Digiflazz), a ref_id it does not hold
// forms a new transaction, so an attempt is sent only while it is its order's current, open
// attempt, only with the body stored before its first send, never within a minute of its
// last send and never once it is older than the supplier's limit. Every send claims the
// attempt in one conditional UPDATE, so no two paths (a status check, the sweep, a report,
// an admin's re-check, a restart) send one attempt at once, and a closed attempt is never
// sent again.

/** the supplier asks for no re-check of one transaction within a minute */
const RESEND_SPACING_MS = 60_000;
/** a re-send of a transaction older than this forms a new one (the documentation) */
const RESEND_LIMIT_MS = 90 * 24 * 3600_000;

/** what a status check may do with the order's current attempt */
export type ResendClaim =
  | { send: SentRequest }
  /** sent less than a minute ago: not before this */
  | { wait: Date }
  /** older than the supplier's limit: an admin decides */
  | { tooOld: true }
  /** never sent (nothing stored): `since` is when the attempt was made */
  | { neverSent: Date }
  /** closed, or no longer the order's current attempt: never sent again */
  | { closed: true };

const OPEN_ORDER = sql`('submitted', 'unknown', 'pending')`;

/**
 * stores the body of an attempt's first send and claims it, or returns undefined when it was
 * stored already (sent before, perhaps by a process that crashed) or is no longer current
 */
export async function claimFirstSend(
  exec: Executor,
  order: Pick<Order, "id" | "refId">,
  body: SentRequest,
  now: Date,
): Promise<boolean> {
  const rows = rowsOf(
    await exec.execute(sql`
      update order_attempts a set sent = ${JSON.stringify(body)}::jsonb, sent_at = ${now.toISOString()}::timestamptz
      from orders o
      where a.order_id = ${order.id} and a.ref_id = ${order.refId} and a.status = 'open'
        and a.sent is null and o.id = a.order_id and o.ref_id = a.ref_id
        and o.status in ${OPEN_ORDER}
      returning a.id`),
  );
  return rows.length === 1;
}

/** claims the order's current attempt for a status check's re-send, or says why not */
export async function claimResend(
  exec: Executor,
  order: Pick<Order, "id" | "refId">,
  now: Date,
): Promise<ResendClaim> {
  const spacing = new Date(now.getTime() - RESEND_SPACING_MS).toISOString();
  const limit = new Date(now.getTime() - RESEND_LIMIT_MS).toISOString();
  const claimed = rowsOf<{ sent: SentRequest | string }>(
    await exec.execute(sql`
      update order_attempts a set sent_at = ${now.toISOString()}::timestamptz
      from orders o
      where a.order_id = ${order.id} and a.ref_id = ${order.refId} and a.status = 'open'
        and a.sent is not null and a.sent_at <= ${spacing}::timestamptz
        and a.created_at > ${limit}::timestamptz
        and o.id = a.order_id and o.ref_id = a.ref_id and o.status in ${OPEN_ORDER}
      returning a.sent`),
  );
  const [row] = claimed;
  if (row) return { send: typeof row.sent === "string" ? JSON.parse(row.sent) : row.sent };
  // why not: read what stands in the way
  const [a] = rowsOf<{
    status: string;
    sent: unknown;
    sent_at: unknown;
    created_at: unknown;
    current: boolean;
  }>(
    await exec.execute(sql`
      select a.status, a.sent, a.sent_at, a.created_at,
        (o.ref_id = a.ref_id and o.status in ${OPEN_ORDER}) as current
      from order_attempts a join orders o on o.id = a.order_id
      where a.order_id = ${order.id} and a.ref_id = ${order.refId}`),
  );
  if (a?.status !== "open" || !a.current) return { closed: true };
  const created = new Date(a.created_at as string);
  if (a.sent === null) return { neverSent: created };
  if (created.getTime() <= now.getTime() - RESEND_LIMIT_MS) return { tooOld: true };
  return { wait: new Date(new Date(a.sent_at as string).getTime() + RESEND_SPACING_MS) };
}

/** a bill's status body (Digiflazz's status-pasca only reads: nothing is stored for it) */
export function billStatusBody(order: Order): SentRequest {
  return {
    kind: "bill",
    code: routeCodeOf(order),
    customerNo: order.destination,
    refId: order.refId,
    testing: order.testing,
  };
}
