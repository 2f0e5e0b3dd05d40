import { describe, expect, it } from "vitest";
import type { AttemptFact, CheckFact, Facts, OrderFact } from "./facts.ts";
import { CHECKS, reconcile } from "./reconcile.ts";

// each invariant of the fault campaign, fed books that break it: a check that cannot fail
// proves nothing. The consistent books pass every check.

const NOW = Date.UTC(2026, 0, 1, 10, 0, 0);
const USER = 8_100_000;
const ADMIN = 9_000_001;

function order(over: Partial<OrderFact> = {}): OrderFact {
  return {
    id: 1,
    refId: "K1",
    confirmKey: "Q1",
    userId: USER,
    chatId: USER,
    messageId: 10,
    kind: "prepaid",
    productCode: "TSEL10",
    destination: "081200001901",
    price: 10_400,
    supplier: "main",
    status: "success",
    flagged: false,
    testing: false,
    submittedAt: NOW - 60_000,
    nextCheckAt: null,
    margins: [],
    h2h: false,
    text: false,
    ...over,
  };
}

function attempt(over: Partial<AttemptFact> = {}): AttemptFact {
  return {
    orderId: 1,
    seq: 1,
    supplier: "main",
    refId: "K1",
    cost: 10_100,
    status: "success",
    reroutedFor: null,
    ...over,
  };
}

const TOPUP = 5_000_000;

function check(over: Partial<CheckFact> = {}): CheckFact {
  return {
    id: 1,
    supplier: null,
    readAt: NOW - 10_000,
    previousReadAt: NOW - 20_000,
    status: "ok",
    drift: 0,
    inFlightRise: 0,
    inFlightFall: 0,
    tolerance: 0,
    ...over,
  };
}

/** one successful order, consistent everywhere */
function books(): Facts {
  return {
    orders: [order()],
    // bought at the first supplier at once
    attempts: [attempt()],
    // one QRIS deposit of Rp50.000, paid and credited once
    payments: [
      {
        id: 1,
        gatewayOrderId: "KIOS-P1",
        userId: USER,
        amount: 50_000,
        status: "paid",
        credits: 1,
        credited: 50_000,
      },
    ],
    charges: [{ orderId: "KIOS-P1", amount: 50_000, status: "settlement" }],
    notifications: [],
    wallets: new Map([[USER, 100_000 + 50_000 - 10_400]]),
    credits: new Map([[USER, 100_000]]),
    supplierCost: 10_100,
    // the owner put Rp5.000.000 into the supplier account; a check found it, booked once
    // the first supplier charged the order (and got the top-up); the second sold nothing
    suppliers: [
      { name: "main", protocol: "seed", before: 1_000_000, after: 1_000_000 - 10_100 + TOPUP },
      { name: "backup", protocol: "seed", before: 250_000, after: 250_000 },
    ],
    supplierPrepaid: TOPUP,
    ownerTopups: [{ amount: TOPUP, at: NOW - 50_000 }],
    checks: [
      check({ id: 1, readAt: NOW - 90_000, previousReadAt: null, status: "baseline", drift: null }),
      // an order was open at the rise's reading: it may read up to its cost off
      check({
        id: 2,
        readAt: NOW - 40_000,
        previousReadAt: NOW - 90_000,
        status: "explained",
        drift: TOPUP,
        inFlightRise: 10_100,
      }),
      check({ id: 3, readAt: NOW - 10_000, previousReadAt: NOW - 40_000 }),
    ],
    topups: [{ id: 1, amount: TOPUP, checkId: 2, reversed: false, recordedBy: ADMIN }],
    transactions: [
      {
        supplier: "main",
        refId: "K1",
        kind: "order",
        code: "TSEL10",
        customerNo: "081200001901",
        status: "success",
        charged: 10_100,
      },
    ],
    calls: [{ supplier: "main", refId: "K1", result: "created", at: NOW - 60_000, code: "" }],
    chats: new Map([
      [
        USER,
        [
          {
            id: 10,
            text: "✅ Berhasil\nProduk: Telkomsel 10.000\nRef: K1\nSN: 123",
            history: ["🧾 Konfirmasi pembelian", "⏳ Diproses"],
          },
        ],
      ],
    ]),
    adminIds: [ADMIN],
    cancelThenPay: [],
    ledger: { ok: true, problems: [] },
    center: { members: [], sent: [], replies: [], reports: [], orders: [] },
    texts: { members: [], sent: [], finalBalances: [], orders: [] },
    now: NOW,
  };
}

const checksOf = (f: Facts) => reconcile(f).map((v) => v.check);

describe("campaign reconciliation", () => {
  it("consistent books pass every check", () => {
    expect(reconcile(books())).toEqual([]);
  });

  it("center-one-order: a reply names the stored order's product (in any case) and dest", () => {
    const withDoor = (text: string, sentAt = NOW, orderedAt: number | null = null) => {
      const f = books();
      f.center = {
        members: [{ memberId: "M1", userId: 7 }],
        sent: [],
        replies: [{ memberId: "M1", refId: "A1", status: 200, text, sentAt }],
        reports: [],
        orders: [
          {
            memberId: "M1",
            refId: "A1",
            product: "TSEL10",
            dest: "081200001901",
            orderId: orderedAt === null ? null : 7,
            status: orderedAt === null ? null : "success",
            orderedAt,
          },
        ],
      };
      return CHECKS.centerOneOrderPerRef(f);
    };
    // a refusal of another product left the refID free; a later request ordered under it.
    // Refused once that order was made, it answered a bound refID
    const refused = "R#A1 TSEL50.081200001901 GAGAL. Alasan: kode produk tidak ada. Saldo 5.000";
    expect(withDoor(refused, NOW - 5_000, NOW)).toEqual([]);
    expect(withDoor(refused, NOW + 5_000, NOW)).toHaveLength(1);
    // a Digiflazz-first shop's own code is the SKU in lower case: the same product
    expect(withDoor("R#A1 tsel10.081200001901 PROSES. Harga 10.400. Saldo 5.000")).toEqual([]);
    expect(withDoor("R#A1 XL10.081200001901 PROSES. Harga 10.400. Saldo 5.000")).toHaveLength(1);
    expect(withDoor("R#A1 TSEL10.081200009999 PROSES. Harga 10.400. Saldo 5.000")).toHaveLength(1);
  });

  it("text-one-order / text-reply / text-balance: a text reseller's R# answers and balances", () => {
    const T = 8_800_000;
    const withTexts = (messages: string[], over: { status?: string; said?: number } = {}) => {
      const f = books();
      f.orders.push(
        order({ id: 2, refId: "K2", confirmKey: "Q2", userId: T, chatId: T, text: true }),
      );
      f.orders[1]!.status = (over.status ?? "success") as OrderFact["status"];
      f.credits.set(T, 100_000);
      f.wallets.set(T, 100_000 - 10_400);
      f.chats.set(
        T,
        messages.map((text, i) => ({ id: 100 + i, text, history: [] })),
      );
      f.texts = {
        members: [T],
        sent: [{ userId: T, ref: "A1", product: "TSEL10", dest: "081200001901" }],
        finalBalances: [{ userId: T, said: over.said ?? 100_000 - 10_400 }],
        orders: [
          {
            userId: T,
            ref: "A1",
            orderId: 2,
            product: "TSEL10",
            dest: "081200001901",
            status: over.status ?? "success",
            price: 10_400,
          },
        ],
      };
      return [...CHECKS.textOneOrderPerRef(f), ...CHECKS.textBalances(f)].map((x) => x.check);
    };
    const proses = "R#A1 TSEL10.081200001901 PROSES. Harga 10.400. Saldo 89.600";
    const sukses = "R#A1 TSEL10.081200001901 SUKSES. SN: 123. Harga 10.400. Saldo 89.600";
    expect(withTexts([proses, sukses, "Saldo 89.600"])).toEqual([]);
    // its final never said; a SUKSES for a failed order; another product; unreadable
    expect(withTexts([proses])).toEqual(["text-one-order"]);
    expect(withTexts([proses, sukses], { status: "failed" })).toContain("text-one-order");
    expect(withTexts([sukses.replace("TSEL10", "XL10")])).toContain("text-one-order");
    expect(withTexts([sukses, "R#A1 TSEL10 SUKSES"])).toEqual(["text-reply"]);
    // a balance above the credit, and an S.PIN that disagrees with the ledger
    expect(withTexts([sukses, "Saldo 100.001"])).toEqual(["text-balance"]);
    expect(withTexts([sukses], { said: 90_000 })).toEqual(["text-balance"]);
  });

  it("ref-id-once: a ref_id created twice, or one kios never ordered", () => {
    const twice = books();
    twice.calls.push({
      supplier: "main",
      refId: "K1",
      result: "created",
      at: NOW - 50_000,
      code: "",
    });
    expect(CHECKS.refIdsOnceAtSupplier(twice)).toHaveLength(1);
    const stranger = books();
    stranger.transactions.push({ ...stranger.transactions[0]!, refId: "K-UNKNOWN", charged: 0 });
    expect(checksOf(stranger)).toContain("ref-id-once");
    // repeats are the idempotency rule working, not a violation
    const repeat = books();
    repeat.calls.push({
      supplier: "main",
      refId: "K1",
      result: "repeat",
      at: NOW - 50_000,
      code: "",
    });
    expect(reconcile(repeat)).toEqual([]);
    // one ref_id at each of two suppliers is two attempts' own, not a repeat
    const elsewhere = books();
    elsewhere.calls.push({
      supplier: "backup",
      refId: "K1",
      result: "created",
      at: NOW - 50_000,
      code: "",
    });
    expect(CHECKS.refIdsOnceAtSupplier(elsewhere)).toEqual([]);
    // a transaction at a supplier where kios made no attempt with that ref_id
    const misplaced = books();
    misplaced.transactions[0] = { ...misplaced.transactions[0]!, supplier: "backup" };
    expect(CHECKS.refIdsOnceAtSupplier(misplaced).map((x) => x.detail)).toEqual([
      "backup holds K1, kios has no such attempt there",
    ]);
  });

  it("shop-margin: a downline's order whose supplier charged more than the uplines leave the shop", () => {
    const f = books();
    const UPLINE = USER + 1;
    // the buyer paid 10.400 with the upline's 200 in it: the shop's own share is 10.200
    f.orders = [order({ margins: [{ userId: UPLINE, amount: 200 }] })];
    f.credits.set(UPLINE, 0);
    f.wallets.set(UPLINE, 200);
    expect(CHECKS.shopMarginsNotNegative(f)).toEqual([]);
    // a backup at exactly the shop's share leaves it nothing: no loss
    f.transactions[0] = { ...f.transactions[0]!, charged: 10_200 };
    expect(CHECKS.shopMarginsNotNegative(f)).toEqual([]);
    f.transactions[0] = { ...f.transactions[0]!, charged: 10_300 };
    expect(CHECKS.shopMarginsNotNegative(f).map((x) => x.detail)).toEqual([
      "order 1 (K1) at main: price 10400 − charged 10300 − uplines' margins 200 = -100",
    ]);
    // a failed order, or one the supplier did not complete, costs the shop nothing here
    f.transactions[0] = { ...f.transactions[0]!, status: "failed" };
    expect(CHECKS.shopMarginsNotNegative(f)).toEqual([]);
  });

  it("wallet: a balance that is not credits − successful purchases", () => {
    const f = books();
    f.wallets.set(USER, 150_000);
    expect(CHECKS.walletsMatch(f)).toEqual([
      expect.objectContaining({ check: "wallet", detail: expect.stringContaining("(10400)") }),
    ]);
    const open = books();
    // an open order still holds its price
    open.orders.push(order({ id: 2, refId: "K2", confirmKey: "Q2", status: "pending" }));
    expect(CHECKS.walletsMatch(open)).toHaveLength(1);
  });

  it("wallet: an upline's margin on a downline's success counts, and one never paid is missed", () => {
    const f = books();
    const UPLINE = USER + 1;
    f.orders = [order({ margins: [{ userId: UPLINE, amount: 200 }] })];
    f.credits.set(UPLINE, 0);
    f.wallets.set(UPLINE, 200);
    expect(CHECKS.walletsMatch(f)).toEqual([]);
    f.wallets.set(UPLINE, 0);
    expect(CHECKS.walletsMatch(f).map((x) => x.detail)).toEqual([
      `user ${UPLINE}: wallet 0, credits − purchases = 200 (-200)`,
    ]);
    // a failed order earns its uplines nothing
    f.orders = [order({ status: "failed", margins: [{ userId: UPLINE, amount: 200 }] })];
    f.wallets.set(UPLINE, 200);
    f.wallets.set(USER, (f.wallets.get(USER) ?? 0) + 10_400);
    expect(CHECKS.walletsMatch(f).map((x) => x.check)).toEqual(["wallet"]);
  });

  it("deposit-once: credited twice, for a charge not settled, for another amount, or not at all", () => {
    const twice = books();
    twice.payments[0] = { ...twice.payments[0]!, credits: 2, credited: 100_000 };
    expect(CHECKS.depositsCreditedOnce(twice).length).toBeGreaterThan(0);
    const denied = books();
    denied.charges[0] = { ...denied.charges[0]!, status: "deny" };
    expect(checksOf(denied)).toContain("deposit-once");
    const short = books();
    short.charges[0] = { ...short.charges[0]!, paidAmount: 5_000 };
    expect(checksOf(short)).toContain("deposit-once");
    const lost = books();
    lost.payments[0] = { ...lost.payments[0]!, credits: 0, credited: 0 };
    expect(CHECKS.depositsCreditedOnce(lost)).toHaveLength(1);
    // a deposit kios credited that the wallet does not show
    const wallet = books();
    wallet.wallets.set(USER, 100_000 - 10_400);
    expect(checksOf(wallet)).toContain("wallet");
  });

  it("deposit-final: a charge the gateway finished that kios left open or read otherwise", () => {
    const open = books();
    open.payments[0] = { ...open.payments[0]!, status: "pending", credits: 0, credited: 0 };
    open.wallets.set(USER, 100_000 - 10_400);
    expect(checksOf(open)).toContain("deposit-final");
    const expired = books();
    expired.charges.push({ orderId: "KIOS-P2", amount: 10_000, status: "expire" });
    expired.payments.push({
      id: 2,
      gatewayOrderId: "KIOS-P2",
      userId: USER,
      amount: 10_000,
      status: "cancelled",
      credits: 0,
      credited: 0,
    });
    expect(CHECKS.depositsFinal(expired)).toEqual([
      expect.objectContaining({ detail: expect.stringContaining("want expired") }),
    ]);
    const unknown = books();
    unknown.charges.push({ orderId: "KIOS-NONE", amount: 10_000, status: "settlement" });
    expect(CHECKS.depositsFinal(unknown)).toHaveLength(1);
    // a QR still payable is no one's fault
    const pending = books();
    pending.charges.push({ orderId: "KIOS-P3", amount: 10_000, status: "pending" });
    expect(reconcile(pending)).toEqual([]);
  });

  it("refund-of-success: kios refunded what the supplier completed", () => {
    const f = books();
    f.orders[0] = order({ status: "failed" });
    f.wallets.set(USER, 150_000);
    expect(checksOf(f)).toContain("refund-of-success");
  });

  it("success-unconfirmed: kios charged a success the supplier failed", () => {
    const f = books();
    f.transactions[0] = { ...f.transactions[0]!, status: "failed", charged: 0 };
    expect(CHECKS.successConfirmedBySupplier(f)).toHaveLength(1);
  });

  it("supplier-cost: the supplier's balance change differs from shop:supplier_cost", () => {
    const f = books();
    f.supplierCost = 10_000;
    expect(CHECKS.supplierBalancesMatchCost(f).map((x) => x.detail)).toEqual([
      "shop:supplier_cost is 10000; the successful attempts cost 10100",
    ]);
  });

  /** the order re-routed: refused at the first supplier, bought at the second for 10.050 */
  function rerouted(): Facts {
    const f = books();
    f.orders = [order({ refId: "K1B", supplier: "backup" })];
    f.attempts = [
      attempt({ status: "rejected" }),
      attempt({
        seq: 2,
        supplier: "backup",
        refId: "K1B",
        cost: 10_050,
        reroutedFor: "PRODUCT_INACTIVE",
      }),
    ];
    f.transactions = [
      { ...f.transactions[0]!, supplier: "backup", refId: "K1B", code: "BTSEL10", charged: 10_050 },
    ];
    // the first supplier's own books hold the refusal that sent the order on
    f.calls = [
      {
        supplier: "main",
        refId: "K1",
        result: "refused",
        at: NOW - 55_000,
        code: "PRODUCT_INACTIVE",
      },
      { supplier: "backup", refId: "K1B", result: "created", at: NOW - 50_000, code: "" },
    ];
    f.suppliers = [
      { name: "main", protocol: "seed", before: 1_000_000, after: 1_000_000 + TOPUP },
      { name: "backup", protocol: "seed", before: 250_000, after: 250_000 - 10_050 },
    ];
    f.supplierCost = 10_050;
    f.chats.get(USER)![0]!.text = "✅ Berhasil\nProduk: Telkomsel 10.000\nRef: K1B\nSN: 123";
    return f;
  }

  it("supplier-cost per supplier: a re-routed order is booked to the supplier that sold it", () => {
    expect(reconcile(rerouted())).toEqual([]);
  });

  it("supplier-cost per supplier: a success booked to the wrong supplier", () => {
    // the first supplier was charged, kios booked the success to the second: the total
    // agrees with shop:supplier_cost, each supplier's books do not
    const f = rerouted();
    f.attempts[1] = { ...f.attempts[1]!, cost: 10_100 };
    f.suppliers = [
      { name: "main", protocol: "seed", before: 1_000_000, after: 1_000_000 - 10_100 + TOPUP },
      { name: "backup", protocol: "seed", before: 250_000, after: 250_000 },
    ];
    f.supplierCost = 10_100;
    expect(CHECKS.supplierBalancesMatchCost(f).map((x) => x.detail)).toEqual([
      "main: balance fell by 10100 (top-ups aside); kios booked 0 to it (0 successful attempts)",
      "backup: balance fell by 0; kios booked 10100 to it (1 successful attempts)",
    ]);
  });

  it("supplier-cost per supplier: a failed attempt whose charge the second supplier kept", () => {
    const f = rerouted();
    f.suppliers[1] = { ...f.suppliers[1]!, after: 250_000 - 10_050 - 5_000 };
    expect(CHECKS.supplierBalancesMatchCost(f).map((x) => x.detail)).toEqual([
      "backup: balance fell by 15050; kios booked 10050 to it (1 successful attempts)",
    ]);
  });

  it("reroute-proof: a refusal that was no proof, as the refusing supplier formed the transaction", () => {
    const f = rerouted();
    f.transactions.push({ ...f.transactions[0]!, supplier: "main", refId: "K1", charged: 0 });
    f.calls.push({ supplier: "main", refId: "K1", result: "created", at: NOW - 50_000, code: "" });
    expect(checksOf(f)).toContain("reroute-proof");
  });

  it("one-supplier-success: the suppliers' books show one order sold twice, whatever kios says", () => {
    const f = rerouted();
    // kios closed the first attempt rejected; the first supplier's books have it sold
    f.transactions.push({ ...f.transactions[0]!, supplier: "main", refId: "K1", charged: 10_100 });
    expect(CHECKS.oneSuccessfulAttempt(f)).toEqual([]);
    expect(CHECKS.oneSupplierSuccess(f).map((x) => x.detail)).toEqual([
      "order 1 succeeded at 2 places by the suppliers' books: backup K1B, main K1",
    ]);
  });

  it("reroute-books: a re-route after a timeout, a pending, a destination's failure: no proof in the books", () => {
    const ok = rerouted();
    expect(CHECKS.reroutesProvenByBooks(ok)).toEqual([]);
    // a timeout: kios says it was refused, the first supplier has neither a refusal nor a
    // transaction (a 500 before the work, or an answer never read)
    const timeout = rerouted();
    timeout.calls = timeout.calls.filter((c) => c.supplier !== "main");
    timeout.calls.push({
      supplier: "main",
      refId: "K1",
      result: "error",
      at: NOW - 55_000,
      code: "",
    });
    expect(CHECKS.reroutesProvenByBooks(timeout).map((x) => x.detail)).toEqual([
      "order 1 attempt 2 (to backup): main neither refused nor formed K1 (a timeout or an unknown answer is no proof)",
    ]);
    // the first supplier holds it pending: it may still succeed
    const pending = rerouted();
    const held = { ...pending.transactions[0]!, supplier: "main", refId: "K1", charged: 0 };
    pending.transactions.push({ ...held, status: "pending" });
    expect(CHECKS.reroutesProvenByBooks(pending).map((x) => x.detail)).toEqual([
      "order 1 attempt 2 (to backup): main holds K1 pending",
    ]);
    // failed for the destination's sake: no other route may sell to it
    const destination = rerouted();
    destination.transactions.push({ ...held, status: "failed", failure: "destination" });
    expect(CHECKS.reroutesProvenByBooks(destination).map((x) => x.detail)).toEqual([
      "order 1 attempt 2 (to backup): main failed K1 for the destination's sake",
    ]);
    // failed for the product's sake: the proof
    const product = rerouted();
    product.transactions.push({ ...held, status: "failed", failure: "product" });
    expect(CHECKS.reroutesProvenByBooks(product)).toEqual([]);
  });

  it("no-resend: a ref_id Digiflazz refused, or an attempt left for another route, sent to it again", () => {
    const f = rerouted();
    f.suppliers[0] = { ...f.suppliers[0]!, protocol: "digiflazz" };
    expect(CHECKS.noResendToDigiflazz(f)).toEqual([]);
    // refused (rc 68), kios closed the attempt rejected, then sent it again: the trap formed it
    const again = rerouted();
    again.suppliers[0] = { ...again.suppliers[0]!, protocol: "digiflazz" };
    again.calls[0] = { ...again.calls[0]!, code: "68" };
    again.calls.push({
      supplier: "main",
      refId: "K1",
      result: "created",
      at: NOW - 20_000,
      code: "00",
    });
    expect(CHECKS.noResendToDigiflazz(again).map((x) => x.detail)).toEqual([
      "main K1 refused (rc 68) and sent again 1 times (created)",
      "main K1 sent 1 times after order 1 moved on to backup K1B",
    ]);
    // at the seed's own protocol a repeat is a harmless read: not this check's
    const seed = rerouted();
    seed.calls.push({
      supplier: "main",
      refId: "K1",
      result: "repeat",
      at: NOW - 20_000,
      code: "",
    });
    expect(CHECKS.noResendToDigiflazz(seed)).toEqual([]);
    // a refusal whose answer kios never took (its attempt still open): re-asking is right
    const unseen = rerouted();
    unseen.suppliers[0] = { ...unseen.suppliers[0]!, protocol: "digiflazz" };
    unseen.attempts = [attempt({ status: "open" })];
    unseen.calls = [
      { supplier: "main", refId: "K1", result: "refused", at: NOW - 55_000, code: "62" },
      { supplier: "main", refId: "K1", result: "created", at: NOW - 20_000, code: "00" },
    ];
    expect(CHECKS.noResendToDigiflazz(unseen)).toEqual([]);
  });

  it("refund-of-success: an order refunded though an earlier attempt succeeded elsewhere", () => {
    const f = rerouted();
    f.orders = [order({ refId: "K1B", supplier: "backup", status: "failed" })];
    f.attempts = [
      { ...f.attempts[0]!, status: "rejected" },
      { ...f.attempts[1]!, status: "failed" },
    ];
    f.transactions = [{ ...books().transactions[0]! }];
    expect(CHECKS.nothingRefundedThatSupplierCompleted(f).map((x) => x.detail)).toEqual([
      "order 1 (K1) refunded; main completed it",
    ]);
  });

  it("supplier-cost: the owner's top-up left out of the supplier's books", () => {
    const f = books();
    f.ownerTopups = [];
    expect(checksOf(f)).toContain("supplier-cost");
  });

  it("topup-once: the owner's top-up booked twice, not at all, or prepaid off", () => {
    const twice = books();
    // the second admin's /supplier_topup booked it again, dated now
    twice.topups.push({ id: 2, amount: TOPUP, checkId: null, reversed: false, recordedBy: 2 });
    twice.supplierPrepaid = 2 * TOPUP;
    expect(CHECKS.topupsBookedOnce(twice)).toEqual([
      expect.objectContaining({ detail: `a supplier top-up of ${TOPUP}: made 1 times, booked 2` }),
    ]);
    // reversed, the second booking no longer counts
    twice.topups[1] = { ...twice.topups[1]!, reversed: true };
    twice.supplierPrepaid = TOPUP;
    expect(CHECKS.topupsBookedOnce(twice)).toEqual([]);
    const none = books();
    none.topups = [];
    expect(checksOf(none)).toContain("topup-once");
    const prepaid = books();
    prepaid.supplierPrepaid = 2 * TOPUP;
    expect(CHECKS.topupsBookedOnce(prepaid)[0]!.detail).toContain("shop:supplier_prepaid");
  });

  it("recon-verdict: a phantom rise, the fall after it, or the owner's top-up missed", () => {
    const phantom = books();
    // an order sent while the balance request travelled, counted as charged: +10.100
    phantom.checks[2] = check({ id: 3, status: "drift", drift: 10_100 });
    expect(CHECKS.reconVerdicts(phantom)).toEqual([
      expect.objectContaining({ detail: expect.stringContaining("a phantom rise of 10100") }),
    ]);
    const fall = books();
    fall.checks[2] = check({ id: 3, status: "drift", drift: -10_100 });
    expect(CHECKS.reconVerdicts(fall)[0]!.detail).toContain("a false loss of -10100");
    // within what was in flight at its reading, the same difference is no verdict
    const inFlight = books();
    inFlight.checks[2] = check({ id: 3, status: "ok", drift: 10_100, inFlightRise: 10_100 });
    expect(reconcile(inFlight)).toEqual([]);
    // the rise check read more than the owner put in, beyond what was in flight
    const more = books();
    more.checks[1] = { ...more.checks[1]!, drift: TOPUP + 20_200 };
    expect(CHECKS.reconVerdicts(more)).toHaveLength(1);
    const missed = books();
    missed.checks[1] = { ...missed.checks[1]!, status: "ok", drift: TOPUP, inFlightRise: TOPUP };
    expect(CHECKS.reconVerdicts(missed)[0]!.detail).toContain("is ok where the owner put in");
  });

  it("recon-verdict: the owner's top-up of the first supplier is no rise at the second", () => {
    const f = books();
    // a check of the second supplier's balance over the same window as the rise's
    const backup = { ...f.checks[1]!, id: 4, supplier: "backup" };
    f.checks.push({ ...backup, status: "ok", drift: 0, inFlightRise: 0 });
    expect(CHECKS.reconVerdicts(f)).toEqual([]);
    f.checks[3] = backup;
    expect(CHECKS.reconVerdicts(f).map((x) => x.detail)).toEqual([
      "check 4 found 5000000 where the owner put in 0: a phantom rise of 5000000 beyond what was in flight (+10100/-0)",
    ]);
    // the first supplier's own check, named, counts the top-up as before
    f.checks[3] = { ...backup, supplier: "main" };
    expect(CHECKS.reconVerdicts(f)).toEqual([]);
  });

  it("bill-once: one bill paid by two users", () => {
    const f = books();
    const bill = { kind: "bill" as const, code: "PLNPOST", customerNo: "532100001901" };
    f.transactions = [
      { ...bill, supplier: "main", refId: "B1", status: "success", charged: 50_000 },
      { ...bill, supplier: "main", refId: "B2", status: "success", charged: 50_000 },
    ];
    f.orders = [
      order({
        id: 1,
        refId: "B1",
        kind: "bill",
        productCode: "PLNPOST",
        destination: bill.customerNo,
      }),
      order({
        id: 2,
        refId: "B2",
        confirmKey: "Q2",
        userId: USER + 1,
        kind: "bill",
        productCode: "PLNPOST",
        destination: bill.customerNo,
      }),
    ];
    const found = CHECKS.billsPaidOnce(f);
    expect(found.map((v) => v.detail)).toEqual([
      "bill PLNPOST 532100001901 paid 2 times at the supplier",
      "bill PLNPOST 532100001901 has 2 orders in kios that are not failed",
    ]);
  });

  it("order-final: open and not flagged, or flagged and never announced", () => {
    const f = books();
    f.orders[0] = order({ status: "pending", nextCheckAt: NOW + 5_000 });
    expect(CHECKS.ordersFinal(f)).toHaveLength(1);
    f.orders[0] = order({ status: "pending", flagged: true });
    expect(CHECKS.ordersFinal(f)[0]!.detail).toContain("flagged but not announced");
    f.notifications.push({ type: "order_flagged", orderId: 1, chatId: ADMIN, status: "sent" });
    expect(CHECKS.ordersFinal(f)).toEqual([]);
  });

  it("order-final: the supplier never saw it, inside the refund window, with a next check: waiting", () => {
    const f = books();
    f.transactions = [];
    f.calls = [];
    f.orders[0] = order({ status: "unknown", nextCheckAt: NOW + 30_000 });
    expect(CHECKS.ordersFinal(f)).toEqual([]);
    // no next check planned: stuck, whatever the window says
    f.orders[0] = order({ status: "unknown", nextCheckAt: null });
    expect(CHECKS.ordersFinal(f)).toHaveLength(1);
    // long past the window
    f.orders[0] = order({ status: "unknown", submittedAt: NOW - 20 * 60_000, nextCheckAt: NOW });
    expect(CHECKS.ordersFinal(f)).toHaveLength(1);
  });

  it("one-final-message: no result shown, shown twice, pushed twice, or contradicted", () => {
    const none = books();
    none.chats.set(USER, [{ id: 10, text: "⏳ Diproses\nRef: K1", history: [] }]);
    expect(CHECKS.oneFinalMessage(none)[0]!.detail).toContain("shows its result 0 times");

    const twice = books();
    twice.chats.get(USER)!.push({ id: 11, text: "✅ Berhasil\nRef: K1\nSN: 123", history: [] });
    expect(CHECKS.oneFinalMessage(twice)[0]!.detail).toContain("shows its result 2 times");

    const pushed = books();
    const push = "✅ Pesanan berhasil: Telkomsel 10.000 ke 081200001901.\nSN: 123";
    pushed.chats.get(USER)!.push({ id: 11, text: push, history: [] });
    expect(CHECKS.oneFinalMessage(pushed)).toEqual([]);
    pushed.chats.get(USER)!.push({ id: 12, text: push, history: [] });
    expect(CHECKS.oneFinalMessage(pushed)[0]!.detail).toContain("pushed 2 times");

    const contradicted = books();
    contradicted.chats.get(USER)!.push({ id: 11, text: "❌ Gagal\nRef: K1", history: [] });
    expect(CHECKS.oneFinalMessage(contradicted)[0]!.detail).toContain("says otherwise");
  });

  it("card-forward-only: a card that went from the result back to ⏳", () => {
    const f = books();
    f.chats.set(USER, [
      {
        id: 10,
        text: "✅ Berhasil\nRef: K1\nSN: 123",
        history: ["🧾 Konfirmasi pembelian", "✅ Berhasil\nRef: K1\nSN: 123", "⏳ Diproses"],
      },
    ]);
    expect(checksOf(f)).toEqual(["card-forward-only"]);
  });

  it("cancel-voids-quote: a Cancel kios answered, then Pay bought anyway", () => {
    const f = books();
    f.cancelThenPay = [{ userId: USER, quoteId: "Q1", cancelAnswered: true }];
    expect(CHECKS.cancelVoidsQuote(f)).toHaveLength(1);
    // the Cancel was lost (never answered): the Pay alone may buy
    f.cancelThenPay = [{ userId: USER, quoteId: "Q1", cancelAnswered: false }];
    expect(CHECKS.cancelVoidsQuote(f)).toEqual([]);
  });

  it("one-success: an order that succeeded at two suppliers, or had two attempts open", () => {
    const f = books();
    f.attempts = [
      attempt({ status: "success" }),
      attempt({ seq: 2, supplier: "backup", refId: "K1B", reroutedFor: "PRODUCT_INACTIVE" }),
    ];
    expect(CHECKS.oneSuccessfulAttempt(f).map((x) => x.detail)).toEqual([
      "order 1 succeeded 2 times: main (K1), backup (K1B)",
    ]);
    f.attempts = [
      attempt({ status: "open" }),
      attempt({ seq: 2, supplier: "backup", status: "open", reroutedFor: "PRODUCT_INACTIVE" }),
    ];
    expect(CHECKS.oneSuccessfulAttempt(f).map((x) => x.check)).toEqual(["one-success"]);
  });

  it("reroute-proof: a re-route after a timeout, or while the first attempt was still open", () => {
    const f = books();
    // the first attempt formed nothing at the first supplier
    f.transactions = [];
    const rerouted = (first: AttemptFact["status"], proof: string | null) => [
      attempt({ status: first }),
      attempt({ seq: 2, supplier: "backup", refId: "K1B", reroutedFor: proof }),
    ];
    f.attempts = rerouted("rejected", "PRODUCT_INACTIVE");
    expect(CHECKS.reroutesFollowProof(f)).toEqual([]);
    f.attempts = rerouted("rejected", "TIMEOUT");
    expect(CHECKS.reroutesFollowProof(f).map((x) => x.detail)).toEqual([
      "order 1 attempt 2 re-routed for TIMEOUT",
    ]);
    f.attempts = rerouted("open", "PRODUCT_INACTIVE");
    expect(CHECKS.reroutesFollowProof(f).map((x) => x.detail)).toEqual([
      "order 1 attempt 2 started while attempt 1 was open",
    ]);
  });

  it("reroute-proof: a re-route after a final failure the first supplier's books do not show", () => {
    const f = books();
    const failedAtMain = (status: "failed" | "success") => ({
      supplier: "main",
      refId: "K1",
      kind: "order" as const,
      code: "TSEL10",
      customerNo: "081200001941",
      status,
      charged: 10_100,
    });
    f.attempts = [
      attempt({ status: "failed" }),
      attempt({ seq: 2, supplier: "backup", refId: "K1B", reroutedFor: "OUT_OF_STOCK" }),
    ];
    // out of stock at the first: failed there, bought at the backup
    f.transactions = [failedAtMain("failed")];
    expect(CHECKS.reroutesFollowProof(f)).toEqual([]);
    // the first supplier completed it after all: the re-route charged twice
    f.transactions = [failedAtMain("success")];
    expect(CHECKS.reroutesFollowProof(f).map((x) => x.detail)).toEqual([
      "order 1 attempt 2 re-routed for OUT_OF_STOCK, yet attempt 1 is failed in kios and success at main",
    ]);
    // a reason that is the destination's is no proof for another route
    f.transactions = [failedAtMain("failed")];
    f.attempts[1] = { ...f.attempts[1]!, reroutedFor: "INVALID_CUSTOMER_NO" };
    expect(CHECKS.reroutesFollowProof(f).map((x) => x.check)).toEqual(["reroute-proof"]);
  });

  it("ledger-verify: a problem reported by kios ledger verify", () => {
    const f = books();
    f.ledger = { ok: false, problems: ["user:8100000 balance 1 != entries 0"] };
    expect(CHECKS.ledgerClean(f)).toEqual([
      { check: "ledger-verify", detail: "user:8100000 balance 1 != entries 0" },
    ]);
  });
});
