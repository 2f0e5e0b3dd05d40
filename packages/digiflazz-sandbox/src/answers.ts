import { RC_MESSAGES } from "./outcomes.ts";
import type { Txn } from "./state.ts";

// the {"data": …} envelope and a transaction's documented fields.

export const envelope = <T>(data: T) => ({ data });

/** a refusal or an error: the rc, its message, and the state Digiflazz gives it */
export function refusal(rc: string, extra: Record<string, unknown> = {}) {
  return envelope({
    ...extra,
    status: "Gagal",
    rc,
    message: RC_MESSAGES[rc] ?? "Gagal",
    sn: "",
  });
}

export function txnData(t: Txn, balance: number): Record<string, unknown> {
  return {
    ref_id: t.refId,
    customer_no: t.customerNo,
    buyer_sku_code: t.sku,
    message: t.message,
    status: t.status,
    rc: t.rc,
    sn: t.sn,
    buyer_last_saldo: balance,
    price: t.price,
    tele: "@sandbox_seller",
    wa: "081200000000",
    ...(t.bill ?? {}),
  };
}
