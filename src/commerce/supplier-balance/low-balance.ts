import type { Executor } from "../../db/client.ts";
import { enqueueNotification } from "../notifications/outbox.ts";

/** tells an admin a supplier's balance runs low: once per reading (a reading is one supplier's) */
export async function alertLowBalance(
  exec: Executor,
  a: { checkId: number; known: number; adminId: number; supplier: string },
): Promise<void> {
  await enqueueNotification(exec, {
    key: `recon:${a.checkId}:low:${a.adminId}`,
    chatId: a.adminId,
    payload: {
      type: "supplier_low_balance",
      checkId: a.checkId,
      known: a.known,
      supplier: a.supplier,
    },
  });
}
