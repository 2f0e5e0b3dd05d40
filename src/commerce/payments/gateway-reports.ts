import { sha256Hex } from "@kios/kit";
import { eq } from "drizzle-orm";
import type { Executor } from "../../db/client.ts";
import { gatewayReports } from "../../db/schema.ts";

/** stores a verified gateway notification once; duplicate when this exact body was already received */
export async function storeGatewayReport(
  exec: Executor,
  n: { gateway: string; gatewayOrderId: string; rawBody: string },
): Promise<{ id: number; duplicate: boolean }> {
  const bodyHash = sha256Hex(n.rawBody);
  const [row] = await exec
    .insert(gatewayReports)
    .values({ gateway: n.gateway, gatewayOrderId: n.gatewayOrderId, rawBody: n.rawBody, bodyHash })
    .onConflictDoNothing({ target: gatewayReports.bodyHash })
    .returning({ id: gatewayReports.id });
  if (row) return { id: row.id, duplicate: false };
  const [existing] = await exec
    .select({ id: gatewayReports.id })
    .from(gatewayReports)
    .where(eq(gatewayReports.bodyHash, bodyHash));
  return { id: existing!.id, duplicate: true };
}
