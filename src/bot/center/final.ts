import { orderReply } from "../../commerce/center/lookups.ts";
import { textOrderOf } from "../../commerce/center/text-orders.ts";
import { getOrder } from "../../commerce/orders/queries.ts";
import type { Order } from "../../commerce/orders/types.ts";
import { walletBalance } from "../../commerce/wallet/ledger.ts";
import type { NotificationOf, RenderEnv } from "../notifications/sender.ts";
import { escapeHtml } from "../ui/format.ts";

// the final of an order a center text command placed: one message in the answer's form
// (SUKSES or GAGAL, then Saldo), sent only when the first answer said PROSES. When that
// answer is not written yet (the order became final while it was placed), this waits for it
// (a retry, with the outbox's backoff), a few times: a crash before the answer was recorded
// must not keep the final back for good.

/** how many deliveries wait for the first answer before the final goes anyway */
const WAIT_FOR_ANSWER = 4;

class AnswerNotYetRecorded extends Error {}

/** undefined: not a text order (the card's renderer draws it); else the order */
export async function renderTextOrderFinal(
  n: NotificationOf<"order_final">,
  env: RenderEnv,
): Promise<{ order: Order | undefined } | undefined> {
  const row = await textOrderOf(env.db, n.payload.orderId);
  if (!row) return undefined;
  const order = await getOrder(env.db, n.payload.orderId);
  if (!order) return { order: undefined };
  if (row.answered === null && n.attempts < WAIT_FOR_ANSWER) {
    throw new AnswerNotYetRecorded(`text order ${order.id}: its first answer is not recorded yet`);
  }
  // the first answer was final already: it was the one message
  if (row.answered === "SUKSES" || row.answered === "GAGAL") return { order };
  const balance = await walletBalance(env.db, order.userId);
  await env.api.sendMessage(
    n.chatId,
    escapeHtml(await orderReply(env.db, order, row.ref ?? order.refId, balance)),
  );
  return { order };
}
