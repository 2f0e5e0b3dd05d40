import type { Executor } from "../../db/client.ts";
import { enqueueNotification } from "../notifications/outbox.ts";

/** tells an admin the supplier balance runs low: once per reading */
export async function alertLowBalance(
  exec: Executor,
  a: { checkId: number; known: number; adminId: number },
): Promise<void> {
  await enqueueNotification(exec, {
    key: `recon:${a.checkId}:low:${a.adminId}`,
    chatId: a.adminId,
    payload: { type: "supplier_low_balance", checkId: a.checkId, known: a.known },
  });
}
