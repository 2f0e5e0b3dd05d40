import type { AttemptLine } from "../../commerce/orders/queries.ts";
import { escapeHtml } from "./format.ts";

// an order's attempts as the admins see them (/status for an admin, /pending); the buyer
// never sees routing

/** "10:00:01" in WIB: an attempt's moments, to the second */
function wibSeconds(at: Date): string {
  return new Date(at.getTime() + 7 * 3_600_000).toISOString().slice(11, 19);
}

/**
 * every attempt of an order on a line of its own, for admins only: its supplier, the code
 * sent, its ref_id, its state, the supplier's answer (and a failure's reason), and when it
 * was made, answered and closed (WIB)
 */
export function attemptDetails(attempts: readonly AttemptLine[]): string[] {
  return attempts.map((a) => {
    const answer = a.answerCode
      ? ` · ${escapeHtml(a.answerCode)}${a.reason ? ` (${escapeHtml(a.reason)})` : ""}`
      : "";
    const times = [a.createdAt, a.answeredAt, a.finalAt]
      .map((t) => (t ? wibSeconds(t) : "…"))
      .join(" → ");
    return `   ${a.seq}. ${escapeHtml(a.supplier)} · <code>${escapeHtml(a.supplierCode)}</code> · <code>${escapeHtml(a.refId)}</code> · ${a.status}${answer} · ${times} WIB`;
  });
}
