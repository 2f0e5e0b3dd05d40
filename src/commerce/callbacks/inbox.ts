import { sha256Hex } from "@kios/kit";
import { eq, sql } from "drizzle-orm";
import type { Executor } from "../../db/client.ts";
import { supplierCallbacks } from "../../db/schema.ts";
import type { OrderDeps } from "../orders/deps.ts";
import { getOrderByRef } from "../orders/queries.ts";
import { resolveOrder } from "../orders/resolve.ts";

/** stores a verified callback once; false when this exact body was already received. */
export async function storeCallback(
  exec: Executor,
  c: { rawBody: string; refId: string; reportedStatus: string },
): Promise<{ id: number; duplicate: boolean }> {
  const bodyHash = sha256Hex(c.rawBody);
  const [row] = await exec
    .insert(supplierCallbacks)
    .values({ bodyHash, refId: c.refId, reportedStatus: c.reportedStatus, rawBody: c.rawBody })
    .onConflictDoNothing({ target: supplierCallbacks.bodyHash })
    .returning({ id: supplierCallbacks.id });
  if (row) return { id: row.id, duplicate: false };
  const [existing] = await exec
    .select({ id: supplierCallbacks.id })
    .from(supplierCallbacks)
    .where(eq(supplierCallbacks.bodyHash, bodyHash));
  return { id: existing!.id, duplicate: true };
}

/**
 * acts on a stored callback (rule 6: evidence, not truth): the order it names is checked
 * with the supplier's /v1/status before anything moves.
 */
export async function processCallback(deps: OrderDeps, callbackId: number): Promise<string> {
  const [callback] = await deps.db
    .select()
    .from(supplierCallbacks)
    .where(eq(supplierCallbacks.id, callbackId));
  if (!callback || callback.processedAt) return callback?.outcome ?? "missing";
  const order = await getOrderByRef(deps.db, callback.refId);
  let outcome: string;
  if (!order) {
    outcome = "unknown_ref_id";
  } else {
    const after = await resolveOrder(deps, order.id, { checkSettled: true });
    outcome = after ? `order ${after.status}` : "order missing";
  }
  await deps.db
    .update(supplierCallbacks)
    .set({ processedAt: sql`now()`, outcome })
    .where(eq(supplierCallbacks.id, callbackId));
  return outcome;
}
