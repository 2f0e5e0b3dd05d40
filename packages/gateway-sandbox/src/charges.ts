import { randomUUID } from "node:crypto";
import type { Clock } from "@kios/kit";
import { qrisString } from "./qris.ts";
import type { Charge, ChargeStatus } from "./types.ts";

// the sandbox's charges, in memory. Only a pending charge moves; every move is told to the
// listener (which sends the notification). A pending charge past its expiry reads as expired.

export interface ChargeBook {
  create(r: {
    orderId: string;
    amount: number;
    expiryMinutes?: number | undefined;
    acquirer: string;
  }): Charge | undefined;
  get(orderId: string): Charge | undefined;
  byTransaction(transactionId: string): Charge | undefined;
  /** moves a pending charge; returns it as it is after (unchanged when it was final) */
  move(orderId: string, to: ChargeStatus, paidAmount?: number): Charge | undefined;
  list(): Charge[];
  /** expires pending charges whose time is up */
  expireDue(): void;
}

export function createChargeBook(deps: {
  clock: Clock;
  defaultExpiryMinutes: number;
  onMove: (charge: Charge) => void;
}): ChargeBook {
  const charges = new Map<string, Charge>();
  const byTransaction = new Map<string, Charge>();
  const book: ChargeBook = {
    create(r) {
      if (charges.has(r.orderId)) return undefined;
      const now = deps.clock.now();
      const charge: Charge = {
        orderId: r.orderId,
        transactionId: randomUUID(),
        grossAmount: r.amount,
        status: "pending",
        qrString: qrisString(r.orderId, r.amount),
        acquirer: r.acquirer,
        createdAt: now,
        expiresAt: now + (r.expiryMinutes ?? deps.defaultExpiryMinutes) * 60_000,
      };
      charges.set(charge.orderId, charge);
      byTransaction.set(charge.transactionId, charge);
      return charge;
    },
    get(orderId) {
      book.expireDue();
      return charges.get(orderId);
    },
    byTransaction: (id) => byTransaction.get(id),
    move(orderId, to, paidAmount) {
      book.expireDue();
      const charge = charges.get(orderId);
      if (charge?.status !== "pending") return charge;
      charge.status = to;
      if (to === "settlement") {
        charge.settledAt = deps.clock.now();
        if (paidAmount !== undefined && paidAmount !== charge.grossAmount)
          charge.paidAmount = paidAmount;
      }
      deps.onMove(charge);
      return charge;
    },
    list: () => [...charges.values()],
    expireDue() {
      const now = deps.clock.now();
      for (const charge of charges.values()) {
        if (charge.status === "pending" && charge.expiresAt <= now) {
          charge.status = "expire";
          deps.onMove(charge);
        }
      }
    },
  };
  return book;
}
