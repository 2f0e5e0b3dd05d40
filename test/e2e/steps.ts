import { DEFAULT_BOT, type MessageView, signInitData } from "@kios/bot-api-server";
import { eq } from "drizzle-orm";
import { expect } from "vitest";
import {
  type AttemptLine,
  attemptsOfOrders,
  listUserOrders,
} from "../../src/commerce/orders/queries.ts";
import type { Order } from "../../src/commerce/orders/types.ts";
import { walletBalance } from "../../src/commerce/wallet/ledger.ts";
import { verifyLedger } from "../../src/commerce/wallet/verify.ts";
import { supplierReports } from "../../src/db/schema.ts";
import type { Journey } from "../helpers/e2e.ts";

// the steps a person takes in the chat, shared by the journeys (not a test file itself)

/** "Rp10.400" → 10400 */
export function rupiahOf(text: string | undefined, label: string): number {
  const m = new RegExp(`${label}: Rp([\\d.]+)`).exec(text ?? "");
  if (!m) throw new Error(`no "${label}: Rp…" in:\n${text}`);
  return Number(m[1]!.replaceAll(".", ""));
}

export const formatRupiah = (n: number) => `Rp${n.toLocaleString("id-ID")}`;

/** /start and one button of the main menu; returns the menu message */
export async function openMenu(j: Journey, u: number, entry: RegExp): Promise<MessageView> {
  const at = j.say(u, "/start");
  const menu = await j.waitMessage(u, /Halo/, at);
  j.tap(u, menu, entry);
  return menu;
}

/** Pulsa & Data → number → Pulsa → Telkomsel 10.000 (or `item`) → the confirmation card */
export async function airtimeCard(
  j: Journey,
  u: number,
  typed: string,
  item: RegExp = /^Telkomsel 10\.000 ·/,
): Promise<MessageView> {
  const menu = await openMenu(j, u, /Pulsa & Data/);
  await j.waitMessage(u, /nomor HP/, menu.message_id);
  const at = j.say(u, typed);
  const which = await j.waitMessage(u, /pulsa atau paket data/, at);
  j.tap(u, which, /^Pulsa$/);
  const list = await j.waitMessage(u, /^Pulsa Telkomsel untuk 08\d+:$/, which.message_id);
  await j.tapItem(u, list, item);
  return j.waitMessage(u, /Konfirmasi pembelian/, list.message_id);
}

/** Tagihan → PLN Pascabayar → customer number → the bill card */
export async function plnBillCard(j: Journey, u: number, number: string): Promise<MessageView> {
  const menu = await openMenu(j, u, /Tagihan/);
  const kinds = await j.waitMessage(u, /Pilih jenis tagihan/, menu.message_id);
  await j.tapItem(u, kinds, /^PLN Pascabayar$/);
  await j.waitMessage(u, /Masukkan nomor pelanggan/, kinds.message_id);
  const at = j.say(u, number);
  await j.waitMessage(u, /Mengecek tagihan/, at);
  return j.waitMessage(u, /^🧾 Tagihan /, at);
}

export async function lastOrder(j: Journey, u: number): Promise<Order> {
  const { items } = await listUserOrders(j.app.app.database.db, u, { limit: 1, offset: 0 });
  if (!items[0]) throw new Error(`user ${u} has no order`);
  return items[0];
}

/** an order's attempts, in the order they were made (one per supplier it was sent to) */
export async function attemptsOf(j: Journey, orderId: number): Promise<AttemptLine[]> {
  return (await attemptsOfOrders(j.app.app.database.db, [orderId])).get(orderId) ?? [];
}

export async function callbacksFor(j: Journey, refId: string) {
  return j.app.app.database.db
    .select()
    .from(supplierReports)
    .where(eq(supplierReports.refId, refId));
}

/** the money after a journey: the user's wallet and a ledger that recomputes cleanly */
export async function expectMoney(j: Journey, u: number, balance: number): Promise<void> {
  expect(await walletBalance(j.app.app.database.db, u)).toBe(balance);
  const report = await verifyLedger(j.app.app.database);
  expect(report.problems).toEqual([]);
  expect(report.ok).toBe(true);
}

// biome-ignore lint/suspicious/noExplicitAny: the Mini App's answers, read field by field by the assertions
export type Json = Record<string, any>;

/**
 * the Mini App's API as user `u`'s Telegram opens it (initData signed for the bot); a body
 * makes a POST, as does a path ending in /pay
 */
export function miniAppAs(
  j: Journey,
  u: number,
  languageCode = "id",
): (path: string, body?: unknown) => Promise<{ status: number; body: Json }> {
  const initData = signInitData(DEFAULT_BOT.token, {
    user: { id: u, first_name: `User${u}`, language_code: languageCode },
    auth_date: Math.floor(j.clock.now() / 1000),
  });
  return async (path, body) => {
    const res = await fetch(`${j.app.baseUrl}/app/api${path}`, {
      method: body === undefined && !path.endsWith("/pay") ? "GET" : "POST",
      headers: {
        authorization: `tma ${initData}`,
        ...(body === undefined ? {} : { "content-type": "application/json" }),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return { status: res.status, body: (await res.json()) as Json };
  };
}
