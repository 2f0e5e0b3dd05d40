import { sha256Hex } from "@kios/kit";
import { eq } from "drizzle-orm";
import type { Executor } from "../../db/client.ts";
import { paymentNotifications } from "../../db/schema.ts";

/** stores a verified gateway notification once; duplicate when this exact body was already received */
export async function storePaymentNotification(
  exec: Executor,
  n: { gateway: string; gatewayOrderId: string; rawBody: string },
): Promise<{ id: number; duplicate: boolean }> {
  const bodyHash = sha256Hex(n.rawBody);
  const [row] = await exec
    .insert(paymentNotifications)
    .values({ gateway: n.gateway, gatewayOrderId: n.gatewayOrderId, rawBody: n.rawBody, bodyHash })
    .onConflictDoNothing({ target: paymentNotifications.bodyHash })
    .returning({ id: paymentNotifications.id });
  if (row) return { id: row.id, duplicate: false };
  const [existing] = await exec
    .select({ id: paymentNotifications.id })
    .from(paymentNotifications)
    .where(eq(paymentNotifications.bodyHash, bodyHash));
  return { id: existing!.id, duplicate: true };
}
