import { Composer } from "grammy";
import type { BotContext } from "../context.ts";
import { adminDepositButtons } from "../deposits/admin-deposits.ts";
import { adminPayments } from "../deposits/admin-payments.ts";
import { adminReconButtons, adminReconciliation } from "../reconciliation/checks.ts";
import { adminSupplierTopupButtons, adminSupplierTopups } from "../reconciliation/topups.ts";
import { adminLaporan, adminLaporanButtons } from "../reports/laporan.ts";
import { adminBroadcast } from "./broadcast.ts";
import { adminCatalogue } from "./catalogue.ts";
import { adminExport } from "./export.ts";
import { adminOrderButtons, adminOrders } from "./orders.ts";
import { adminPauseButtons, adminPauses } from "./pauses.ts";
import { adminTestOrder } from "./test-order.ts";
import { adminWallet } from "./wallet.ts";

// admin commands exist only for ADMIN_IDS: for anyone else these updates fall through to
// the unknown-command answer, so the bot does not even admit they exist.

export const ADMIN_COMMANDS = [
  "balance",
  "sync",
  "credit",
  "debit",
  "role",
  "markup",
  "stats",
  "pending",
  "broadcast",
  "user",
  "test",
  "recon",
  "supplier_topup",
  "supplier_topup_reverse",
  "payment",
  "export",
  "laporan",
  "resume",
] as const;

export function adminCommands(): Composer<BotContext> {
  const composer = new Composer<BotContext>();
  composer
    .filter((ctx) => ctx.isAdmin)
    .use(
      adminCatalogue(),
      adminPauses(),
      adminWallet(),
      adminOrders(),
      adminBroadcast(),
      adminTestOrder(),
      adminReconciliation(),
      adminSupplierTopups(),
      adminPayments(),
      adminExport(),
      adminLaporan(),
    );
  return composer;
}

/** admin buttons, handled before any flow so a running flow never swallows them */
export function adminButtons(): Composer<BotContext> {
  const composer = new Composer<BotContext>();
  composer
    .filter((ctx) => ctx.isAdmin)
    .use(
      adminDepositButtons(),
      adminOrderButtons(),
      adminReconButtons(),
      adminSupplierTopupButtons(),
      adminLaporanButtons(),
      adminPauseButtons(),
    );
  return composer;
}
