import { Composer } from "grammy";
import type { BotContext } from "../context.ts";
import { supplierBalances } from "./balances.ts";
import { adminReconButtons, adminReconciliation } from "./checks.ts";
import { adminSupplierTopupButtons, adminSupplierTopups } from "./topups.ts";

// the owner's books against each supplier's, for admins: /balance, /recon and its alerts,
// supplier top-ups booked once (/supplier_topup, the alert's button) and reversed

export function reconciliationCommands(): Composer<BotContext> {
  const composer = new Composer<BotContext>();
  composer.command("balance", supplierBalances);
  composer.use(adminReconciliation(), adminSupplierTopups());
  return composer;
}

export function reconciliationButtons(): Composer<BotContext> {
  const composer = new Composer<BotContext>();
  composer.use(adminReconButtons(), adminSupplierTopupButtons());
  return composer;
}
