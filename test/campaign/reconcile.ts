import { FAILED_ORDER_REASONS } from "../../src/commerce/center/replies.ts";
import {
  CHECK_SLACK_MS,
  type Facts,
  FINAL_FAILURE_PROOFS,
  isFinal,
  NOT_FOUND_WINDOW_MS,
  type OrderFact,
  REROUTE_PROOFS,
  type SupplierCallFact,
} from "./facts.ts";

// the invariants a campaign must end with, one function each. Every check returns the
// violations it found (empty: it holds), so each can be shown to fail on made-up books.

export interface Violation {
  check: string;
  detail: string;
}

type Check = (f: Facts) => Violation[];

const v = (check: string, detail: string): Violation => ({ check, detail });

function countBy<T>(items: readonly T[], key: (t: T) => string): Map<string, number> {
  const out = new Map<string, number>();
  for (const item of items) out.set(key(item), (out.get(key(item)) ?? 0) + 1);
  return out;
}

/** a transaction's or an attempt's place: a ref_id is unique at one supplier */
const at = (x: { supplier: string; refId: string }) => `${x.supplier} ${x.refId}`;

/**
 * every ref_id is created at most once at each supplier, and only for an attempt kios holds
 * at that supplier
 */
export const refIdsOnceAtSupplier: Check = (f) => {
  const out: Violation[] = [];
  const created = countBy(
    f.calls.filter((r) => r.result === "created"),
    at,
  );
  for (const [where, n] of created)
    if (n > 1) out.push(v("ref-id-once", `${where} created ${n} times at the supplier`));
  for (const [where, n] of countBy(f.transactions, at))
    if (n > 1) out.push(v("ref-id-once", `${where} has ${n} supplier transactions`));
  const known = new Set(f.attempts.map(at));
  for (const t of f.transactions)
    if (!known.has(at(t)))
      out.push(v("ref-id-once", `${t.supplier} holds ${t.refId}, kios has no such attempt there`));
  return out;
};

/**
 * each wallet = what was credited (by the campaign, by paid QRIS deposits) − purchases not
 * failed + the margins its downlines' successful orders earned it
 */
export const walletsMatch: Check = (f) => {
  const expected = new Map<number, number>(f.credits);
  const add = (user: number, amount: number) =>
    expected.set(user, (expected.get(user) ?? 0) + amount);
  for (const p of f.payments) {
    if (p.status === "paid") add(p.userId, p.amount);
  }
  for (const o of f.orders) {
    if (o.testing || o.status === "failed") continue;
    add(o.userId, -o.price);
    // a margin is credited with the capture, once the order succeeded
    if (o.status === "success") for (const m of o.margins) add(m.userId, m.amount);
  }
  const users = new Set([...expected.keys(), ...f.wallets.keys()]);
  const out: Violation[] = [];
  for (const u of users) {
    const want = expected.get(u) ?? 0;
    const have = f.wallets.get(u) ?? 0;
    if (want !== have)
      out.push(
        v("wallet", `user ${u}: wallet ${have}, credits − purchases = ${want} (${have - want})`),
      );
  }
  return out;
};

/** supplier and ref_id → the transaction that supplier holds */
function transactionsByPlace(f: Facts) {
  return new Map(f.transactions.map((t) => [at(t), t]));
}

/** no order is refunded that a supplier completed (at any of its attempts) */
export const nothingRefundedThatSupplierCompleted: Check = (f) => {
  const held = transactionsByPlace(f);
  const failed = new Map(f.orders.filter((o) => o.status === "failed").map((o) => [o.id, o]));
  const places = [
    ...f.orders.filter((o) => failed.has(o.id)).map((o) => ({ orderId: o.id, ...o })),
    ...f.attempts.filter((a) => failed.has(a.orderId)),
  ];
  const done = new Set<string>();
  const out: Violation[] = [];
  for (const p of places) {
    if (done.has(at(p)) || held.get(at(p))?.status !== "success") continue;
    done.add(at(p));
    out.push(
      v(
        "refund-of-success",
        `order ${p.orderId} (${p.refId}) refunded; ${p.supplier} completed it`,
      ),
    );
  }
  return out;
};

/** no order is charged as a success that the supplier of its attempt did not complete */
export const successConfirmedBySupplier: Check = (f) => {
  const held = transactionsByPlace(f);
  return f.orders
    .filter((o) => o.status === "success" && !o.testing && held.get(at(o))?.status !== "success")
    .map((o) =>
      v(
        "success-unconfirmed",
        `order ${o.id} (${o.refId}) succeeded in kios; ${o.supplier} says ${held.get(at(o))?.status ?? "nothing"}`,
      ),
    );
};

/**
 * each supplier's balance fell by exactly what kios booked to it: the costs of the
 * successful attempts there (the route that succeeded; the owner's top-ups of the first
 * supplier aside). The sandbox refunds what fails, so only what succeeded stays spent.
 * Together those bookings are shop:supplier_cost (the database was fresh), so the ledger
 * holds no supplier cost that no supplier charged, and no supplier charged what kios did
 * not book to it.
 */
export const supplierBalancesMatchCost: Check = (f) => {
  const out: Violation[] = [];
  const testing = new Set(f.orders.filter((o) => o.testing).map((o) => o.id));
  const won = f.attempts.filter((a) => a.status === "success" && !testing.has(a.orderId));
  const toppedUp = f.ownerTopups.reduce((sum, t) => sum + t.amount, 0);
  f.suppliers.forEach((s, i) => {
    const mine = won.filter((a) => a.supplier === s.name);
    const booked = mine.reduce((sum, a) => sum + a.cost, 0);
    // the owner tops up the first supplier, the one /recon reads
    const spent = s.before + (i === 0 ? toppedUp : 0) - s.after;
    if (spent !== booked) {
      out.push(
        v(
          "supplier-cost",
          `${s.name}: balance fell by ${spent}${i === 0 ? " (top-ups aside)" : ""}; kios booked ${booked} to it (${mine.length} successful attempts)`,
        ),
      );
    }
  });
  const names = new Set(f.suppliers.map((s) => s.name));
  for (const a of won.filter((x) => !names.has(x.supplier))) {
    out.push(v("supplier-cost", `order ${a.orderId} succeeded at ${a.supplier}, no such supplier`));
  }
  const total = won.reduce((sum, a) => sum + a.cost, 0);
  if (total !== f.supplierCost) {
    out.push(
      v(
        "supplier-cost",
        `shop:supplier_cost is ${f.supplierCost}; the successful attempts cost ${total}`,
      ),
    );
  }
  return out;
};

/**
 * each top-up the owner made is booked once, whichever admin booked it and by which path
 * (the check's button, /supplier_topup), and shop:supplier_prepaid holds exactly those
 */
export const topupsBookedOnce: Check = (f) => {
  const out: Violation[] = [];
  const live = f.topups.filter((t) => !t.reversed);
  const made = countBy(f.ownerTopups, (t) => String(t.amount));
  const booked = countBy(live, (t) => String(t.amount));
  for (const amount of new Set([...made.keys(), ...booked.keys()])) {
    const m = made.get(amount) ?? 0;
    const b = booked.get(amount) ?? 0;
    if (m !== b) {
      out.push(v("topup-once", `a supplier top-up of ${amount}: made ${m} times, booked ${b}`));
    }
  }
  const sum = live.reduce((total, t) => total + t.amount, 0);
  if (f.supplierPrepaid !== sum) {
    out.push(
      v("topup-once", `shop:supplier_prepaid is ${f.supplierPrepaid}; live top-ups sum to ${sum}`),
    );
  }
  return out;
};

/**
 * every balance check's verdict is what happened: the check after the owner's top-up
 * finds that rise, and no check reports a difference the books don't have (a phantom rise
 * from orders in flight, or the fall after it). The sandbox loses no money: the only real
 * difference is the owner's unrecorded top-up, at the first supplier.
 */
export const reconVerdicts: Check = (f) => {
  const out: Violation[] = [];
  const first = f.suppliers[0]?.name;
  for (const c of f.checks) {
    if (c.status === "baseline" || c.drift === null || c.previousReadAt === null) continue;
    const from = c.previousReadAt;
    // the owner tops up the first supplier only: another's check must find no rise
    const topped = c.supplier === null || c.supplier === first ? f.ownerTopups : [];
    const real = topped
      .filter((t) => t.at > from && t.at <= c.readAt)
      .reduce((sum, t) => sum + t.amount, 0);
    const off = c.drift - real;
    if (off > c.inFlightRise + c.tolerance || off < -c.inFlightFall - c.tolerance) {
      out.push(
        v(
          "recon-verdict",
          `check ${c.id} found ${c.drift} where the owner put in ${real}: a ${off > 0 ? "phantom rise" : "false loss"} of ${off} beyond what was in flight (+${c.inFlightRise}/-${c.inFlightFall})`,
        ),
      );
    } else if (real > 0 !== (c.status === "drift" || c.status === "explained")) {
      out.push(v("recon-verdict", `check ${c.id} is ${c.status} where the owner put in ${real}`));
    }
  }
  return out;
};

/** a bill (product and customer number) is paid at most once, at the supplier and in kios */
export const billsPaidOnce: Check = (f) => {
  const out: Violation[] = [];
  const paidAtSupplier = f.transactions.filter((t) => t.kind === "bill" && t.status !== "failed");
  for (const [bill, n] of countBy(paidAtSupplier, (t) => `${t.code} ${t.customerNo}`))
    if (n > 1) out.push(v("bill-once", `bill ${bill} paid ${n} times at the supplier`));
  const paidInKios = f.orders.filter((o) => o.kind === "bill" && o.status !== "failed");
  for (const [bill, n] of countBy(paidInKios, (o) => `${o.productCode} ${o.destination}`))
    if (n > 1) out.push(v("bill-once", `bill ${bill} has ${n} orders in kios that are not failed`));
  return out;
};

/**
 * an open order the supplier has no record of, inside the window in which kios must not
 * refund it yet, with its next check planned: waiting as the rules say, not stuck
 */
export function waitingByRule(f: Facts, o: OrderFact): boolean {
  if (isFinal(o) || o.submittedAt === null || o.nextCheckAt === null) return false;
  if (f.transactions.some((t) => at(t) === at(o))) return false;
  return (
    f.now - o.submittedAt < NOT_FOUND_WINDOW_MS + CHECK_SLACK_MS &&
    o.nextCheckAt > f.now - CHECK_SLACK_MS
  );
}

/** every order is final, or flagged and announced to an admin (or waiting by rule) */
export const ordersFinal: Check = (f) => {
  const announced = new Set(
    f.notifications
      .filter(
        (n) => n.type === "order_flagged" && n.status === "sent" && f.adminIds.includes(n.chatId),
      )
      .map((n) => n.orderId),
  );
  const when = (ms: number | null) =>
    ms === null ? "none" : `${Math.round((ms - f.now) / 1000)} s from now`;
  return f.orders
    .filter((o) => !isFinal(o) && !(o.flagged && announced.has(o.id)) && !waitingByRule(f, o))
    .map((o) =>
      v(
        "order-final",
        `order ${o.id} (${o.refId}) is ${o.status}${o.flagged ? ", flagged but not announced" : ""}; ` +
          `${o.supplier}: ${f.transactions.find((t) => at(t) === at(o))?.status ?? "no record"}; next check: ${when(o.nextCheckAt)}`,
      ),
    );
};

const RESULT_HEAD = { success: /^✅ Berhasil\b/, failed: /^❌ Gagal\b/ } as const;
const PROCESSING_HEAD = /^⏳ Diproses\b/;

function pushPattern(o: OrderFact): RegExp {
  const escaped = o.destination.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  return new RegExp(`^(✅ Pesanan berhasil|❌ Pesanan gagal): .* ke ${escaped}\\.`);
}

/** each final order shows its result exactly once, its card never goes back to ⏳, at most one push */
export const oneFinalMessage: Check = (f) => {
  const out: Violation[] = [];
  for (const o of f.orders) {
    // an H2H door's order is answered and reported there (centerReportPerFinal); a text
    // command's in `R#…` lines (textOneOrderPerRef)
    if (!isFinal(o) || o.h2h || o.text) continue;
    const status = o.status as "success" | "failed";
    const messages = f.chats.get(o.chatId) ?? [];
    const ref = `Ref: ${o.refId}`;
    const showing = messages.filter((m) => m.text.includes(ref));
    const results = showing.filter((m) => RESULT_HEAD[status].test(m.text));
    const wrong = showing.filter((m) =>
      RESULT_HEAD[status === "success" ? "failed" : "success"].test(m.text),
    );
    if (results.length !== 1)
      out.push(
        v(
          "one-final-message",
          `order ${o.id} (${o.refId}, ${status}) shows its result ${results.length} times`,
        ),
      );
    if (wrong.length > 0)
      out.push(
        v("one-final-message", `order ${o.id} (${o.refId}) is ${status}; a message says otherwise`),
      );
    const pushes = messages.filter((m) => pushPattern(o).test(m.text));
    if (pushes.length > 1)
      out.push(v("one-final-message", `order ${o.id} (${o.refId}) pushed ${pushes.length} times`));
    const card = messages.find((m) => m.id === o.messageId);
    if (card) {
      const texts = [...card.history, card.text];
      const firstResult = texts.findIndex(
        (t) => RESULT_HEAD.success.test(t) || RESULT_HEAD.failed.test(t),
      );
      if (firstResult >= 0 && texts.slice(firstResult + 1).some((t) => PROCESSING_HEAD.test(t)))
        out.push(
          v(
            "card-forward-only",
            `order ${o.id} (${o.refId}): its card went from the result back to ⏳`,
          ),
        );
    }
  }
  return out;
};

/** a Cancel that kios answered voids the quote: a Pay pressed after it buys nothing */
export const cancelVoidsQuote: Check = (f) => {
  const byQuote = new Map(f.orders.map((o) => [o.confirmKey, o]));
  return f.cancelThenPay
    .filter((c) => c.cancelAnswered && byQuote.has(c.quoteId))
    .map((c) =>
      v(
        "cancel-voids-quote",
        `user ${c.userId} cancelled quote ${c.quoteId}; order ${byQuote.get(c.quoteId)!.id} was placed`,
      ),
    );
};

/**
 * a QRIS deposit is credited once, and only when the gateway says it was paid in full: a
 * credit for a charge the gateway did not settle, for another amount, or twice is money made
 * up; a settled charge kios did not credit (or did not flag, when the amount differs) is a
 * buyer's money lost
 */
export const depositsCreditedOnce: Check = (f) => {
  const charges = new Map(f.charges.map((c) => [c.orderId, c]));
  const out: Violation[] = [];
  for (const p of f.payments) {
    const c = charges.get(p.gatewayOrderId);
    const paidInFull =
      c?.status === "settlement" && c.paidAmount === undefined && c.amount === p.amount;
    const name = `deposit ${p.gatewayOrderId} (user ${p.userId})`;
    if (p.credits > 1) out.push(v("deposit-once", `${name} credited ${p.credits} times`));
    if (p.credits > 0 && !paidInFull) {
      const paid = c?.paidAmount === undefined ? "" : ` (${c.paidAmount} paid of ${c.amount})`;
      out.push(
        v(
          "deposit-once",
          `${name} credited, but the gateway says ${c?.status ?? "nothing"}${paid}`,
        ),
      );
    }
    if (p.credits > 0 && p.credited !== p.amount) {
      out.push(v("deposit-once", `${name} credited ${p.credited} for ${p.amount}`));
    }
    if ((p.status === "paid") !== (p.credits === 1)) {
      out.push(v("deposit-once", `${name} is ${p.status} with ${p.credits} credits`));
    }
  }
  return out;
};

const KIOS_STATUS_OF: Record<string, string> = {
  expire: "expired",
  deny: "denied",
  cancel: "cancelled",
};

/** after the settle phase, kios agrees with every charge the gateway finished */
export const depositsFinal: Check = (f) => {
  const payments = new Map(f.payments.map((p) => [p.gatewayOrderId, p]));
  const out: Violation[] = [];
  for (const c of f.charges) {
    if (c.status === "pending") continue;
    const p = payments.get(c.orderId);
    if (!p) {
      out.push(
        v("deposit-final", `the gateway has ${c.orderId} (${c.status}); kios has no payment`),
      );
      continue;
    }
    const want =
      c.status === "settlement"
        ? c.paidAmount === undefined
          ? "paid"
          : "mismatch"
        : KIOS_STATUS_OF[c.status];
    if (p.status !== want) {
      out.push(
        v(
          "deposit-final",
          `deposit ${c.orderId}: gateway ${c.status}, kios ${p.status} (want ${want})`,
        ),
      );
    }
  }
  return out;
};

/**
 * no order succeeded at two suppliers (or twice at one), and none has two attempts open at
 * once: a second attempt never starts while an earlier one could still succeed
 */
export const oneSuccessfulAttempt: Check = (f) => {
  const out: Violation[] = [];
  const byOrder = new Map<number, Facts["attempts"]>();
  for (const a of f.attempts) byOrder.set(a.orderId, [...(byOrder.get(a.orderId) ?? []), a]);
  for (const [orderId, attempts] of byOrder) {
    const won = attempts.filter((a) => a.status === "success");
    if (won.length > 1) {
      const where = won.map((a) => `${a.supplier} (${a.refId})`).join(", ");
      out.push(v("one-success", `order ${orderId} succeeded ${won.length} times: ${where}`));
    }
    const open = attempts.filter((a) => a.status === "open");
    if (open.length > 1) {
      out.push(v("one-success", `order ${orderId} has ${open.length} attempts open at once`));
    }
  }
  return out;
};

/**
 * every re-route followed a proof that the attempt before it formed nothing, and the
 * proof was true: the supplier that refused holds no transaction for that attempt
 */
export const reroutesFollowProof: Check = (f) => {
  const out: Violation[] = [];
  const held = transactionsByPlace(f);
  for (const a of f.attempts.filter((x) => x.status === "rejected")) {
    const t = held.get(at(a));
    if (t) {
      out.push(
        v(
          "reroute-proof",
          `order ${a.orderId} attempt ${a.seq} was rejected, yet ${a.supplier} holds ${a.refId} (${t.status})`,
        ),
      );
    }
  }
  const key = (orderId: number, seq: number) => `${orderId}:${seq}`;
  const bySeq = new Map(f.attempts.map((a) => [key(a.orderId, a.seq), a]));
  for (const a of f.attempts) {
    if (a.seq === 1) continue;
    const before = bySeq.get(key(a.orderId, a.seq - 1));
    if (a.reroutedFor && FINAL_FAILURE_PROOFS.has(a.reroutedFor)) {
      // after a final failure for the product's sake: the attempt before failed, and its
      // supplier's own books say so (a success there would be a second charge)
      const t = before ? held.get(at(before)) : undefined;
      if (before?.status !== "failed" || t?.status !== "failed") {
        out.push(
          v(
            "reroute-proof",
            `order ${a.orderId} attempt ${a.seq} re-routed for ${a.reroutedFor}, yet attempt ${a.seq - 1} is ${before?.status ?? "missing"} in kios and ${t?.status ?? "unknown"} at ${before?.supplier ?? "its supplier"}`,
          ),
        );
      }
      continue;
    }
    if (!a.reroutedFor || !REROUTE_PROOFS.has(a.reroutedFor)) {
      out.push(
        v("reroute-proof", `order ${a.orderId} attempt ${a.seq} re-routed for ${a.reroutedFor}`),
      );
    } else if (before?.status !== "rejected") {
      out.push(
        v(
          "reroute-proof",
          `order ${a.orderId} attempt ${a.seq} started while attempt ${a.seq - 1} was ${before?.status ?? "missing"}`,
        ),
      );
    }
  }
  return out;
};

/**
 * no order succeeded at two suppliers (or twice at one), by the suppliers' own books: the
 * successful transactions of every supplier, each placed on the kios order whose attempt
 * holds its ref_id there
 */
export const oneSupplierSuccess: Check = (f) => {
  const orderAt = new Map<string, number>();
  for (const o of f.orders) orderAt.set(at(o), o.id);
  for (const a of f.attempts) orderAt.set(at(a), a.orderId);
  const won = new Map<number, string[]>();
  for (const t of f.transactions.filter((x) => x.status === "success")) {
    const id = orderAt.get(at(t));
    if (id !== undefined) won.set(id, [...(won.get(id) ?? []), at(t)]);
  }
  return [...won]
    .filter(([, places]) => places.length > 1)
    .map(([id, places]) =>
      v(
        "one-supplier-success",
        `order ${id} succeeded at ${places.length} places by the suppliers' books: ${places.join(", ")}`,
      ),
    );
};

/**
 * every re-route followed a proof in the books of the supplier that gave it: the attempt
 * before it was refused there with nothing formed, or formed and failed there for the
 * product's or the seller's sake. Never after a timeout, a pending or an unknown answer
 * (the supplier holds it open, or holds no record and no refusal: it may still form it, or
 * kios never heard back), never after the destination's fault.
 */
export const reroutesProvenByBooks: Check = (f) => {
  const out: Violation[] = [];
  const held = transactionsByPlace(f);
  const refused = new Set(f.calls.filter((c) => c.result === "refused").map(at));
  const key = (orderId: number, seq: number) => `${orderId}:${seq}`;
  const bySeq = new Map(f.attempts.map((a) => [key(a.orderId, a.seq), a]));
  for (const a of f.attempts) {
    if (a.seq === 1) continue;
    const before = bySeq.get(key(a.orderId, a.seq - 1));
    if (!before) continue;
    const t = held.get(at(before));
    const where = `order ${a.orderId} attempt ${a.seq} (to ${a.supplier})`;
    if (t) {
      if (t.status !== "failed") {
        out.push(
          v("reroute-books", `${where}: ${before.supplier} holds ${before.refId} ${t.status}`),
        );
      } else if (t.failure !== "product") {
        out.push(
          v(
            "reroute-books",
            `${where}: ${before.supplier} failed ${before.refId} for the ${t.failure === "destination" ? "destination's sake" : "no reason given"}`,
          ),
        );
      }
    } else if (!refused.has(at(before))) {
      out.push(
        v(
          "reroute-books",
          `${where}: ${before.supplier} neither refused nor formed ${before.refId} (a timeout or an unknown answer is no proof)`,
        ),
      );
    }
  }
  return out;
};

/**
 * Digiflazz forms a transaction for a ref_id it does not hold, so a ref_id it refused, or an
 * attempt kios left for another route, is never sent to it again (issue #37's re-send rule).
 * From its own call log: no call after a refusal whose answer kios took (its attempt closed
 * `rejected`: a refusal lost to a kill leaves the attempt open, and re-asking is then right),
 * and no call for an attempt after its order's next attempt was first sent.
 */
export const noResendToDigiflazz: Check = (f) => {
  const out: Violation[] = [];
  const digiflazz = new Set(
    f.suppliers.filter((s) => s.protocol === "digiflazz").map((s) => s.name),
  );
  const callsAt = new Map<string, SupplierCallFact[]>();
  for (const c of f.calls) callsAt.set(at(c), [...(callsAt.get(at(c)) ?? []), c]);
  const sorted = (place: string) => [...(callsAt.get(place) ?? [])].sort((x, y) => x.at - y.at);
  const attemptAt = new Map(f.attempts.map((a) => [at(a), a]));
  for (const place of callsAt.keys()) {
    const calls = sorted(place);
    if (!digiflazz.has(calls[0]!.supplier)) continue;
    const firstRefusal = calls.findIndex((c) => c.result === "refused");
    if (firstRefusal < 0 || firstRefusal === calls.length - 1) continue;
    if (attemptAt.get(place)?.status !== "rejected") continue;
    const after = calls.slice(firstRefusal + 1);
    out.push(
      v(
        "no-resend",
        `${place} refused (rc ${calls[firstRefusal]!.code}) and sent again ${after.length} times (${after.map((c) => c.result).join(", ")})`,
      ),
    );
  }
  const key = (orderId: number, seq: number) => `${orderId}:${seq}`;
  const bySeq = new Map(f.attempts.map((a) => [key(a.orderId, a.seq), a]));
  for (const a of f.attempts) {
    if (!digiflazz.has(a.supplier)) continue;
    const next = bySeq.get(key(a.orderId, a.seq + 1));
    if (!next) continue;
    const nextSent = sorted(at(next))[0]?.at;
    if (nextSent === undefined) continue;
    const late = sorted(at(a)).filter((c) => c.at > nextSent);
    if (late.length > 0) {
      out.push(
        v(
          "no-resend",
          `${at(a)} sent ${late.length} times after order ${a.orderId} moved on to ${at(next)}`,
        ),
      );
    }
  }
  return out;
};

/** docs/center.md's one pattern for every order reply of the OtomaX door */
const CENTER_REPLY =
  /^R#(\S+) ([^.\s]+)\.(\S+) (SUKSES|GAGAL|PROSES)\.(?: SN: (.*?)\.)?(?: Alasan: (.*?)\.)?(?: Harga ([\d.]+)\.)? Saldo (-?[\d.]+)/;

const member = (x: { memberId: string; refId: string }) => `${x.memberId} ${x.refId}`;

/**
 * the OtomaX door: one order per refID however often and however concurrently it is sent
 * (every answer about it names the stored order's product and dest), every answer read by
 * the documented pattern, and no order of a door reseller outside a refID
 */
export const centerOneOrderPerRef: Check = (f) => {
  const out: Violation[] = [];
  const stored = new Map<string, typeof f.center.orders>();
  for (const o of f.center.orders) stored.set(member(o), [...(stored.get(member(o)) ?? []), o]);
  for (const [ref, rows] of stored) {
    const orders = new Set(rows.map((r) => r.orderId).filter((id) => id !== null));
    if (rows.length > 1 || orders.size > 1)
      out.push(v("center-one-order", `refID ${ref}: ${rows.length} stored, ${orders.size} orders`));
  }
  for (const r of f.center.replies.filter((x) => x.status === 200)) {
    const m = CENTER_REPLY.exec(r.text);
    if (!m || m[1] !== r.refId) {
      out.push(
        v("center-reply", `refID ${member(r)}: a reply the pattern does not read: ${r.text}`),
      );
      continue;
    }
    const row = stored.get(member(r))?.[0];
    // a GAGAL that formed nothing binds nothing (docs/center.md): no row to name
    if (!row) {
      if (m[4] !== "GAGAL")
        out.push(v("center-one-order", `refID ${member(r)}: ${m[4]} with no order stored`));
      continue;
    }
    // a refusal (a GAGAL that is not an order's failure) names its own request and left the
    // refID free (issue #36 item 13): a later request with another product may then order
    // under it. Sent once the refID's order was made, it would have met that order (the
    // refID is claimed before its quote): a refusal then answered a bound refID
    if (m[4] === "GAGAL" && !FAILED_ORDER_REASONS.includes(m[6] ?? "")) {
      if (row.orderedAt !== null && r.sentAt > row.orderedAt)
        out.push(
          v(
            "center-one-order",
            `refID ${member(r)}: refused after its order ${row.orderId} was made: ${r.text}`,
          ),
        );
      continue;
    }
    // the reply names the shop's own code, found in any case (docs/center.md): the same
    // product as the one sent, maybe not in the same case
    if (m[2]?.toLowerCase() !== row.product.toLowerCase() || m[3] !== row.dest) {
      out.push(
        v(
          "center-one-order",
          `refID ${member(r)}: answered ${m[2]}.${m[3]}; its stored request is ${row.product}.${row.dest} (order ${row.orderId ?? "none"}, ${row.status ?? "no order"}): ${r.text}`,
        ),
      );
    }
  }
  const doorUsers = new Set(f.center.members.map((x) => x.userId));
  const doorOrders = new Set(f.center.orders.map((o) => o.orderId));
  for (const o of f.orders.filter((x) => doorUsers.has(x.userId) && !doorOrders.has(x.id))) {
    out.push(v("center-one-order", `order ${o.id} of a door reseller belongs to no refID`));
  }
  return out;
};

/**
 * one report per final at the reseller's report URL, saying what the order became: status
 * SUKSES or GAGAL as the order, the SN of a success, the final reply line in `message`;
 * none for an order not final or a refID kios has no order for
 */
export const centerReportPerFinal: Check = (f) => {
  const out: Violation[] = [];
  const byRef = new Map<string, typeof f.center.reports>();
  for (const r of f.center.reports) {
    const key = `${r.memberId} ${r.refid}`;
    byRef.set(key, [...(byRef.get(key) ?? []), r]);
  }
  const rows = new Map(f.center.orders.map((o) => [member(o), o]));
  for (const o of f.center.orders) {
    const got = byRef.get(member(o)) ?? [];
    const final = o.status === "success" || o.status === "failed";
    if (!final) {
      if (got.length > 0)
        out.push(
          v("center-report", `refID ${member(o)} is ${o.status}; reported ${got.length} times`),
        );
      continue;
    }
    if (got.length !== 1) {
      out.push(v("center-report", `refID ${member(o)} (${o.status}) reported ${got.length} times`));
      continue;
    }
    const r = got[0]!;
    const want = o.status === "success" ? "SUKSES" : "GAGAL";
    const m = CENTER_REPLY.exec(r.message);
    if (
      r.status !== want ||
      m?.[4] !== want ||
      m[1] !== o.refId ||
      (want === "SUKSES") !== (r.sn !== "")
    ) {
      out.push(
        v(
          "center-report",
          `refID ${member(o)} is ${o.status}; reported status=${r.status} sn=${r.sn} message=${r.message}`,
        ),
      );
    }
  }
  for (const key of byRef.keys()) {
    if (!rows.has(key)) out.push(v("center-report", `a report for ${key}, which has no order`));
  }
  return out;
};

/** a text answer's balance: `Saldo 989.650` (docs/center.md) */
const TEXT_SALDO = /Saldo (?:Rp)?(-?[\d.]+)/;

const textAnswers = (f: Facts, userId: number) =>
  (f.chats.get(userId) ?? []).filter((m) => m.text.startsWith("R#"));

/**
 * the text-command resellers (docs/center.md#text-commands): one order per R# however often
 * it is typed, every order of theirs under an R#, every `R#…` answer read by the door's
 * pattern and naming its R#'s order, a SUKSES or an order's failure reason (replies.ts
 * FAILED_ORDER_REASONS) only as that order ended, and each final order's final said in the
 * chat
 */
export const textOneOrderPerRef: Check = (f) => {
  const out: Violation[] = [];
  const members = new Set(f.texts.members);
  const byRef = new Map<string, typeof f.texts.orders>();
  for (const o of f.texts.orders.filter((x) => members.has(x.userId))) {
    if (o.ref === null) continue;
    const key = `${o.userId} ${o.ref}`;
    byRef.set(key, [...(byRef.get(key) ?? []), o]);
  }
  for (const [ref, rows] of byRef) {
    const orders = new Set(rows.map((r) => r.orderId).filter((id) => id !== null));
    if (rows.length > 1 || orders.size > 1)
      out.push(v("text-one-order", `R# ${ref}: ${rows.length} stored, ${orders.size} orders`));
  }
  const underRef = new Set(
    f.texts.orders.filter((o) => o.ref !== null && o.orderId !== null).map((o) => o.orderId),
  );
  for (const o of f.orders.filter((x) => members.has(x.userId) && !underRef.has(x.id))) {
    out.push(v("text-one-order", `order ${o.id} of a text reseller belongs to no R#`));
  }
  for (const userId of members) {
    const answers = textAnswers(f, userId);
    for (const m of answers) {
      const p = CENTER_REPLY.exec(m.text);
      if (!p) {
        out.push(v("text-reply", `user ${userId}: an answer the pattern does not read: ${m.text}`));
        continue;
      }
      const row = byRef.get(`${userId} ${p[1]}`)?.[0];
      if (!row || row.orderId === null) {
        if (p[4] !== "GAGAL")
          out.push(v("text-one-order", `R# ${userId} ${p[1]}: ${p[4]} with no order stored`));
        continue;
      }
      if (p[2]?.toLowerCase() !== row.product?.toLowerCase() || p[3] !== row.dest) {
        out.push(
          v(
            "text-one-order",
            `R# ${userId} ${p[1]}: answered ${p[2]}.${p[3]}; its order ${row.orderId} is ${row.product}.${row.dest}: ${m.text}`,
          ),
        );
      }
      const saidFailed = p[4] === "GAGAL" && FAILED_ORDER_REASONS.includes(p[6] ?? "");
      if (
        (p[4] === "SUKSES" && row.status !== "success") ||
        (saidFailed && row.status !== "failed")
      )
        out.push(
          v(
            "text-one-order",
            `R# ${userId} ${p[1]}: said ${p[4]}; order ${row.orderId} is ${row.status}`,
          ),
        );
    }
    for (const [key, rows] of byRef) {
      const row = rows[0]!;
      if (row.userId !== userId || (row.status !== "success" && row.status !== "failed")) continue;
      const word = row.status === "success" ? "SUKSES" : "GAGAL";
      const told = answers.some((m) => {
        const p = CENTER_REPLY.exec(m.text);
        return p?.[1] === row.ref && p[4] === word;
      });
      if (!told) out.push(v("text-one-order", `R# ${key} (${row.status}): its final never said`));
    }
  }
  return out;
};

/**
 * every `Saldo …` a text reseller is told lies between what was credited and that less every
 * order of theirs; the `S.PIN` asked after the settle says the ledger's balance (when all
 * their orders are final: nothing can move it then)
 */
export const textBalances: Check = (f) => {
  const out: Violation[] = [];
  for (const userId of f.texts.members) {
    const credit = f.credits.get(userId) ?? 0;
    const mine = f.orders.filter((o) => o.userId === userId);
    const spent = mine.reduce((sum, o) => sum + o.price, 0);
    for (const m of f.chats.get(userId) ?? []) {
      const s = TEXT_SALDO.exec(m.text);
      if (!s) continue;
      const said = Number(s[1]!.replace(/\./g, ""));
      if (said > credit || said < credit - spent)
        out.push(
          v(
            "text-balance",
            `user ${userId}: told ${said}, outside ${credit - spent}..${credit}: ${m.text}`,
          ),
        );
    }
    const settled = mine.every((o) => o.status === "success" || o.status === "failed");
    for (const b of f.texts.finalBalances.filter((x) => x.userId === userId)) {
      if (b.said === undefined) out.push(v("text-balance", `user ${userId}: S.PIN unanswered`));
      else if (settled && b.said !== (f.wallets.get(userId) ?? 0))
        out.push(
          v(
            "text-balance",
            `user ${userId}: S.PIN said ${b.said}; the ledger has ${f.wallets.get(userId)}`,
          ),
        );
    }
  }
  return out;
};

/** `kios ledger verify` recomputes every balance cleanly */
export const ledgerClean: Check = (f) =>
  f.ledger.ok && f.ledger.problems.length === 0
    ? []
    : [v("ledger-verify", f.ledger.problems.join("; ") || "ledger verify failed")];

/**
 * the shop's own margin on each successful order is never negative (design rule 21): what
 * the buyer paid, less what the supplier of its successful attempt charged (that supplier's
 * own books), less every upline's margin. A re-route to a backup dearer than the shop's own
 * price pays the uplines from the shop's pocket and fails it
 */
export const shopMarginsNotNegative: Check = (f) =>
  shopMargins(f)
    .filter((x) => x.margin < 0)
    .map(({ order: o, charged, margin }) =>
      v(
        "shop-margin",
        `order ${o.id} (${o.refId}) at ${o.supplier}: price ${o.price} − charged ${charged} ` +
          `− uplines' margins ${uplinesOf(o)} = ${margin}`,
      ),
    );

const uplinesOf = (o: OrderFact) => o.margins.reduce((sum, m) => sum + m.amount, 0);

/**
 * each successful order's margin for the shop: what the buyer paid less what the supplier
 * charged (its own books) and every upline's margin. An order the supplier did not complete
 * is success-unconfirmed's
 */
function shopMargins(f: Facts): { order: OrderFact; charged: number; margin: number }[] {
  const held = transactionsByPlace(f);
  return f.orders.flatMap((o) => {
    const t = held.get(at(o));
    if (o.status !== "success" || o.testing || t?.status !== "success") return [];
    return [{ order: o, charged: t.charged, margin: o.price - t.charged - uplinesOf(o) }];
  });
}

/** the smallest shop margin of the successful orders (the figures line's shop_margin_min) */
export const smallestShopMargin = (f: Facts): number | undefined =>
  shopMargins(f).reduce<number | undefined>(
    (least, x) => (least === undefined || x.margin < least ? x.margin : least),
    undefined,
  );

export const CHECKS = {
  refIdsOnceAtSupplier,
  walletsMatch,
  nothingRefundedThatSupplierCompleted,
  successConfirmedBySupplier,
  supplierBalancesMatchCost,
  topupsBookedOnce,
  reconVerdicts,
  billsPaidOnce,
  ordersFinal,
  oneFinalMessage,
  cancelVoidsQuote,
  depositsCreditedOnce,
  depositsFinal,
  ledgerClean,
  oneSuccessfulAttempt,
  oneSupplierSuccess,
  reroutesFollowProof,
  reroutesProvenByBooks,
  noResendToDigiflazz,
  centerOneOrderPerRef,
  centerReportPerFinal,
  textOneOrderPerRef,
  textBalances,
  shopMarginsNotNegative,
} as const;

export function reconcile(f: Facts): Violation[] {
  return Object.values(CHECKS).flatMap((check) => check(f));
}
