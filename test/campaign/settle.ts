import { NO_GATEWAY_FAULTS } from "@kios/gateway-sandbox";
import { sleep } from "./chaos.ts";
import { CHECK_SLACK_MS, NOT_FOUND_WINDOW_MS } from "./facts.ts";
import type { World } from "./world.ts";

// after the customers: faults off, every process up, and time for kios to finish what is
// open (status polls, callbacks, the outbox). Bounded: what is still open at the deadline
// stays open and the reconciliation says so.

export interface SettleResult {
  settled: boolean;
  seconds: number;
  /** orders neither final nor flagged at the end that the supplier knows (so kios can settle them) */
  open: number;
  /** orders open because the supplier never saw them (kios waits 10 minutes before a refund) */
  unseen: number;
  /** notifications not yet sent at the end */
  unsent: number;
  /** QRIS deposits kios still holds open though the gateway finished them */
  deposits: number;
}

export async function settle(world: World, timeoutMs: number): Promise<SettleResult> {
  const started = Date.now();
  for (const s of world.suppliers) s.faultsOff();
  world.gateway.setFaults(NO_GATEWAY_FAULTS);
  // QRs nobody paid run out now rather than in 15 minutes
  for (const c of world.gateway.charges())
    if (c.status === "pending") world.gateway.expire(c.orderId);
  for (const p of [world.web, world.worker]) if (!p.running) await p.start(60_000);
  for (;;) {
    await Promise.all(world.suppliers.map((s) => s.settleNow()));
    // an order's current attempt is at one supplier: known there, or not
    const openRefs = (
      await world.db.executeSql(
        `select coalesce(supplier, $1) || ' ' || ref_id as at from orders
          where status not in ('success', 'failed') and flagged_at is null`,
        [world.suppliers[0]!.name],
      )
    ).rows.map((r) => String(r.at));
    const known = new Set(
      world.suppliers.flatMap((s) => s.transactions().map((t) => `${s.name} ${t.refId}`)),
    );
    const open = openRefs.filter((r) => known.has(r)).length;
    const unseen = openRefs.length - open;
    const { rows } = await world.db.executeSql(
      "select count(*)::int as n from notifications where status in ('pending', 'sending')",
    );
    // the H2H doors' results and reports (h2h_callbacks) count as notifications
    const callbacks = await world.db.executeSql(
      `select (select count(*) from h2h_callbacks where status = 'pending')
            + (select count(*) from h2h_orders h join orders o on o.confirm_key = h.quote_id
                where o.status in ('success', 'failed') and h.final_queued_at is null) as n`,
    );
    const unsent = Number(rows[0]?.n ?? 0) + Number(callbacks.rows[0]?.n ?? 0);
    const finished = new Set(
      world.gateway
        .charges()
        .filter((c) => c.status !== "pending")
        .map((c) => c.orderId),
    );
    const deposits = (
      await world.db.executeSql(
        "select gateway_order_id from payments where status in ('created', 'pending')",
      )
    ).rows.filter((r) => finished.has(String(r.gateway_order_id))).length;
    // a settle long enough to outlast kios's not-found window waits for those orders too
    const waitsForUnseen = timeoutMs > NOT_FOUND_WINDOW_MS + CHECK_SLACK_MS;
    const settled =
      open === 0 && unsent === 0 && deposits === 0 && (unseen === 0 || !waitsForUnseen);
    if (settled || Date.now() - started > timeoutMs) {
      return { settled, seconds: (Date.now() - started) / 1000, open, unseen, unsent, deposits };
    }
    await sleep(1000);
  }
}
