import { sql } from "drizzle-orm";
import { expect, vi } from "vitest";
import type { Executor } from "../../src/db/client.ts";
import { notifications } from "../../src/db/schema.ts";
import { patient } from "./patience.ts";

/** an order's result notification went out: its outbox row is sent */
export async function resultDelivered(db: Executor, orderId: number): Promise<void> {
  await vi.waitFor(
    async () => {
      const rows = await db
        .select({ status: notifications.status })
        .from(notifications)
        .where(
          sql`${notifications.payload}->>'type' = 'order_final' and (${notifications.payload}->>'orderId')::bigint = ${orderId}`,
        );
      expect(rows.map((r) => r.status)).toEqual(["sent"]);
    },
    { timeout: patient(30_000) },
  );
}
