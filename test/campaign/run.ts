import { rmSync } from "node:fs";
import { setResellerMarkup } from "../../src/commerce/resellers/markups.ts";
import { moveUser } from "../../src/commerce/resellers/tree.ts";
import { setTier as setRole } from "../../src/commerce/users.ts";
import { creditWallet } from "../../src/commerce/wallet/ledger.ts";
import { setFirstPin } from "../../src/commerce/wallet/pin.ts";
import {
  type CenterReseller,
  emptyCenterJournal,
  runCenterReseller,
  startReportServer,
} from "./center.ts";
import { sleep, startChaos } from "./chaos.ts";
import { type Customer, type CustomerRun, emptyJournal, runCustomer } from "./customers.ts";
import { emptyDepositJournal, runDepositor } from "./deposits.ts";
import { type Facts, FINAL_FAILURE_PROOFS } from "./facts.ts";
import { gatherFacts } from "./gather.ts";
import { parseOptions } from "./options.ts";
import { emptyOwnerJournal, owner } from "./owner.ts";
import { reconcile, smallestShopMargin, waitingByRule } from "./reconcile.ts";
import { random } from "./rng.ts";
import { settle } from "./settle.ts";
import {
  askFinalBalance,
  emptyTextJournal,
  runTextReseller,
  type TextReseller,
  type TextRun,
} from "./texts.ts";
import { ADMIN_ID, CAMPAIGN_GATEWAY_FAULTS, STAFF_ID, startWorld, type World } from "./world.ts";

// `npm run campaign`: the fault campaign. Real kios processes on real PostgreSQL, the
// sandbox supplier with every fault on, customers through the Bot API server, SIGKILLs and
// restarts; then a settle phase and the reconciliation of kios against the sandbox's books.
// Prints the violations, then one line of figures; exits 1 on any violation.

const WALLET_CREDIT = 20_000_000;
const FIRST_CUSTOMER_ID = 8_100_000;
const FIRST_DEPOSITOR_ID = 8_500_000;
const FIRST_CENTER_ID = 8_700_000;
const FIRST_TEXT_ID = 8_800_000;
/** each depositor tops up this many times by QRIS */
const DEPOSITS_EACH = 3;
/** what the owner puts into the supplier account during the run */
const OWNER_TOPUP = 5_000_000;
/** what each upline of the tree adds over their own price (Rp, on everything) */
const UPLINE_MARKUP = 200;

async function main(): Promise<number> {
  const options = parseOptions(process.argv.slice(2));
  const began = Date.now();
  const elapsed = () => ((Date.now() - began) / 1000).toFixed(1);
  const say = (line: string) => {
    if (options.verbose) console.error(`[${elapsed()}s] ${line}`);
  };
  const rng = random(options.seed);

  let world: World | undefined;
  let closing: Promise<void> | undefined;
  const closeWorld = () => {
    closing ??= world?.close() ?? Promise.resolve();
    return closing;
  };
  const onSignal = () => {
    console.error("campaign: interrupted; stopping kios and dropping the database");
    void closeWorld().finally(() => process.exit(130));
  };
  process.once("SIGINT", onSignal);
  process.once("SIGTERM", onSignal);

  try {
    world = await startWorld({
      serverUrl: options.databaseUrl,
      seed: options.seed,
      startTimeoutMs: 90_000,
      first: options.first,
      onStep: say,
    });
    const w = world;
    const journal = emptyJournal();

    // the shop's people: an admin (who must have opened the bot to be told anything) and
    // the customers, most of them resellers (quick orders), every fifth one on the menu
    w.telegram.user(ADMIN_ID, { first_name: "Owner", language_code: "id" });
    w.telegram.sendText(ADMIN_ID, "/start");
    w.telegram.user(STAFF_ID, { first_name: "Staff", language_code: "id" });
    w.telegram.sendText(STAFF_ID, "/start");
    const owners = emptyOwnerJournal();
    const shop = owner({
      telegram: w.telegram,
      supplier: w.suppliers[0]!,
      ownerId: ADMIN_ID,
      staffId: STAFF_ID,
      journal: owners,
      answerMs: options.answerSeconds * 1000,
      tries: 3,
    });
    // the first reading, before anyone buys: the baseline the run's checks compare with
    await shop.recon();
    say("baseline balance check");
    const customers: Customer[] = [];
    for (let index = 0; index < options.customers; index++) {
      const id = FIRST_CUSTOMER_ID + index;
      const reseller = index % 5 !== 4;
      w.telegram.user(id, { first_name: `Buyer${index}`, language_code: "id" });
      await creditWallet(w.db.db, {
        userId: id,
        amount: WALLET_CREDIT,
        key: `campaign:credit:${id}`,
      });
      journal.credits.set(id, WALLET_CREDIT);
      if (reseller) await setRole(w.db.db, id, "reseller");
      // the tree (docs/resellers.md): a menu customer buys as the downline of the reseller
      // before them, and that reseller (the fourth of each five) as the downline of the one
      // before them: two uplines, each adding its markup and earning a margin on each of
      // the orders below it that succeed
      if (index % 5 >= 3 && index > 0) {
        const upline = id - 1;
        await moveUser(w.db.db, { userId: id, uplineId: upline });
        await setResellerMarkup(w.db.db, upline, {
          scope: "all",
          percentBp: 0,
          flat: UPLINE_MARKUP,
        });
      }
      // one person in three guards their wallet with a PIN (set as /pin sets it): Pay asks
      // for it on the card's keypad
      const pin = index % 3 === 1 ? String(1000 + ((index * 7919) % 9000)) : undefined;
      if (pin) await setFirstPin(w.db.db, id, pin);
      customers.push({ id, index, reseller, pin });
    }
    const resellers = customers.filter((c) => c.reseller);

    // resellers whose own server orders through the OtomaX GET door (docs/center.md): their
    // credentials made by the owner (`kios center-key`), reports to the campaign's server
    const center = emptyCenterJournal();
    const reportServer = await startReportServer(center);
    const centerResellers: CenterReseller[] = [];
    for (let i = 0; i < Math.max(2, Math.round(options.customers / 10)); i++) {
      const id = FIRST_CENTER_ID + i;
      await creditWallet(w.db.db, {
        userId: id,
        amount: WALLET_CREDIT,
        key: `campaign:credit:${id}`,
      });
      journal.credits.set(id, WALLET_CREDIT);
      await setRole(w.db.db, id, "reseller");
      const made = JSON.parse(await w.kios(["center-key", "create", String(id)])) as {
        memberID: string;
        pin: string;
        password: string;
      };
      await w.kios([
        "center-key",
        "set",
        String(id),
        "--report-url",
        reportServer.urlFor(made.memberID),
      ]);
      centerResellers.push({
        userId: id,
        memberId: made.memberID,
        pin: made.pin,
        password: made.password,
      });
    }
    say(`${centerResellers.length} resellers at the OtomaX door`);

    // resellers who type the center's text commands in chat (docs/center.md#text-commands),
    // each with a PIN: the PIN ends every command
    const texts = emptyTextJournal();
    const textResellers: TextReseller[] = [];
    for (let i = 0; i < Math.max(2, Math.round(options.customers / 10)); i++) {
      const id = FIRST_TEXT_ID + i;
      w.telegram.user(id, { first_name: `Center${i}`, language_code: "id" });
      await creditWallet(w.db.db, {
        userId: id,
        amount: WALLET_CREDIT,
        key: `campaign:credit:${id}`,
      });
      journal.credits.set(id, WALLET_CREDIT);
      await setRole(w.db.db, id, "reseller");
      const pin = String(200_000 + i * 3_917);
      await setFirstPin(w.db.db, id, pin);
      textResellers.push({ userId: id, pin });
    }

    // each supplier its own fault mix (world.ts)
    for (const s of w.suppliers) s.faultsOn();
    w.gateway.setFaults(CAMPAIGN_GATEWAY_FAULTS);
    say("faults on; customers start");
    let ordersStarted = 0;
    let billNumber = 0;
    const customerDeadline = Date.now() + options.customerSeconds * 1000;
    const run: CustomerRun = {
      telegram: w.telegram,
      journal,
      answerMs: options.answerSeconds * 1000,
      tries: 3,
      takeOrder(n = 1) {
        if (ordersStarted >= options.orders || Date.now() > customerDeadline) return false;
        ordersStarted += n;
        return true;
      },
      partnerOf(c) {
        const i = resellers.findIndex((r) => r.id === c.id);
        return resellers.length > 1 ? resellers[(i + 1) % resellers.length] : undefined;
      },
      nextBillNumber: () => ++billNumber,
      codes: w.codes,
    };
    // people who top up by QRIS meanwhile (their own wallets: nothing credited by the campaign)
    const deposits = emptyDepositJournal();
    const depositors = Array.from(
      { length: Math.max(2, Math.round(options.customers / 5)) },
      (_, i) => FIRST_DEPOSITOR_ID + i,
    );
    for (const id of depositors) {
      w.telegram.user(id, { first_name: `Payer${id - FIRST_DEPOSITOR_ID}`, language_code: "id" });
    }
    const textRun = (pauseMs: number): TextRun => ({
      telegram: w.telegram,
      journal: texts,
      takeOrder: () => run.takeOrder(),
      answerMs: options.answerSeconds * 1000,
      pauseMs,
    });
    const customersDone = Promise.all([
      ...customers.map((c) => runCustomer(run, c, rng.fork(c.index + 1))),
      ...centerResellers.map((r, i) =>
        runCenterReseller(
          {
            webUrl: w.webUrl,
            journal: center,
            takeOrder: () => run.takeOrder(),
            pauseMs: 300 + i * 100,
          },
          r,
          rng.fork(20_000 + i),
        ),
      ),
      ...textResellers.map((r, i) =>
        runTextReseller(textRun(300 + i * 100), r, rng.fork(30_000 + i)),
      ),
      ...depositors.map((id, i) =>
        runDepositor({
          telegram: w.telegram,
          gateway: w.gateway,
          db: w.db,
          userId: id,
          deposits: DEPOSITS_EACH,
          answerMs: options.answerSeconds * 1000,
          journal: deposits,
          rng: rng.fork(10_000 + i),
        }),
      ),
    ]).then(() => undefined);
    const chaos = startChaos({
      kills: options.kills,
      budget: options.orders,
      processes: [w.web, w.worker],
      rng: rng.fork(0),
      ordersStarted: () => ordersStarted,
      startTimeoutMs: 90_000,
      customersDone,
      log: say,
    });
    // a third into the budget the owner tops the supplier account up: a check finds the
    // rise, and the owner and the staff book it at the same moment
    let customersFinished = false;
    void customersDone.then(() => {
      customersFinished = true;
    });
    const ownerDone = (async () => {
      while (!customersFinished && ordersStarted < options.orders / 3) await sleep(50);
      await shop.topUp(OWNER_TOPUP);
      say(`owner topped up and booked: ${JSON.stringify(owners)}`);
    })();
    await customersDone;
    say(`customers done (${ordersStarted} orders started)`);
    const kills = await chaos.done;
    await ownerDone;

    const settled = await settle(w, options.settleSeconds * 1000);
    say(`settle: ${JSON.stringify(settled)}`);
    // and a last reading once everything settled: it must agree with the books
    await shop.recon();
    // the text resellers' balances, asked as they would ask it
    await Promise.all(textResellers.map((r) => askFinalBalance(textRun(0), r)));
    const facts = await gatherFacts({
      world: w,
      journal,
      center,
      centerMembers: centerResellers.map((r) => ({ memberId: r.memberId, userId: r.userId })),
      texts,
      textMembers: textResellers.map((r) => r.userId),
      adminIds: [ADMIN_ID],
      ownerTopups: owners.topups,
    });
    const violations = reconcile(facts);

    for (const r of journal.refusals) say(`refused: ${r}`);
    for (const x of violations) console.log(`VIOLATION ${x.check}: ${x.detail}`);
    const count = (s: string) => facts.orders.filter((o) => o.status === s).length;
    const figures = {
      seed: options.seed,
      orders: facts.orders.length,
      success: count("success"),
      failed: count("failed"),
      open: facts.orders.filter((o) => o.status !== "success" && o.status !== "failed").length,
      flagged: facts.orders.filter((o) => o.flagged).length,
      waiting_not_found: facts.orders.filter((o) => waitingByRule(facts, o)).length,
      bills: facts.orders.filter((o) => o.kind === "bill").length,
      kills: kills.length,
      kills_web: kills.filter((k) => k.role === "web").length,
      supplier_txns: facts.transactions.length,
      // failover: attempts after an order's first, and each supplier's successes and refusals
      reroutes: facts.attempts.filter((a) => a.seq > 1).length,
      // of which after a final failure for the product's sake (out of stock, gangguan)
      reroutes_after_failure: facts.attempts.filter(
        (a) => a.reroutedFor !== null && FINAL_FAILURE_PROOFS.has(a.reroutedFor),
      ).length,
      ...perSupplier(facts),
      supplier_repeats: facts.calls.filter((r) => r.result === "repeat").length,
      double_taps: journal.scenarios["double-tap"],
      cancel_pay: journal.scenarios["cancel-then-pay"],
      bill_pairs: journal.scenarios["bill-pair"],
      deposits: facts.payments.length,
      deposits_paid: facts.payments.filter((p) => p.status === "paid").length,
      deposits_mismatch: facts.payments.filter((p) => p.status === "mismatch").length,
      deposits_qr_unavailable: deposits.unavailable,
      deposits_silent: deposits.endings["pay-silently"],
      deposits_forged: deposits.endings["pay-forged"],
      menu_buys: journal.scenarios["menu-buy"],
      // downlines' successful orders, each crediting its uplines' margins
      margin_orders: facts.orders.filter((o) => o.status === "success" && o.margins.length > 0)
        .length,
      // of which under two uplines
      margin_orders_2: facts.orders.filter((o) => o.status === "success" && o.margins.length > 1)
        .length,
      // downlines' orders that tried a second route, and the smallest margin the shop kept on
      // a successful order after the supplier and every upline were paid (never below 0)
      downline_reroutes: facts.attempts.filter(
        (a) => a.seq > 1 && facts.orders.find((o) => o.id === a.orderId)?.margins.length,
      ).length,
      shop_margin_min: smallestShopMargin(facts) ?? 0,
      pin_pays: journal.pinPays,
      // the OtomaX door: its resellers, refIDs sent, requests (repeats included), orders, reports
      center_resellers: centerResellers.length,
      center_refids: center.sent.size,
      center_requests: center.replies.length,
      center_unanswered: center.replies.filter((r) => r.status === 0).length,
      center_orders: facts.center.orders.filter((o) => o.orderId !== null).length,
      center_reports: center.reports.length,
      // the text-command resellers: R#s typed, their orders, the R# answers in their chats
      text_resellers: textResellers.length,
      text_refs: texts.sent.length,
      text_orders: facts.texts.orders.filter(
        (o) => o.orderId !== null && facts.texts.members.includes(o.userId),
      ).length,
      text_answers: facts.texts.members.reduce(
        (n, id) => n + (facts.chats.get(id) ?? []).filter((m) => m.text.startsWith("R#")).length,
        0,
      ),
      // Digiflazz's books: refusals (nothing formed) and the trap sprung (a refused ref_id
      // formed by a later send: only after a refusal kios never read)
      ...digiflazzFigures(w),
      recon_checks: facts.checks.length,
      topup_button: owners.buttonOffered ? 1 : 0,
      topup_bookings: owners.booked,
      topup_already: owners.alreadyBooked,
      retries: journal.retries,
      abandoned: journal.abandoned,
      refused: journal.refused,
      settle_s: Math.round(settled.seconds),
      duration_s: Math.round((Date.now() - began) / 1000),
      violations: violations.length,
    };
    console.log(
      `campaign: ${Object.entries(figures)
        .map(([k, n]) => `${k}=${n}`)
        .join(" ")}`,
    );
    await reportServer.close();
    if (violations.length > 0) console.log(`campaign: kios logs in ${w.logDir}`);
    else rmSync(w.logDir, { recursive: true, force: true });
    return violations.length > 0 ? 1 : 0;
  } finally {
    await closeWorld();
  }
}

/**
 * success_<name>, rejected_<name> and cost_<name>: each supplier's successful attempts, its
 * refusals that sent an order on, and the costs kios booked to it (what supplier-cost
 * compares with its balance)
 */
function perSupplier(facts: Facts): Record<string, number> {
  const out: Record<string, number> = {};
  for (const s of facts.suppliers) {
    const mine = facts.attempts.filter((a) => a.supplier === s.name);
    const won = mine.filter((a) => a.status === "success");
    out[`success_${s.name}`] = won.length;
    out[`rejected_${s.name}`] = mine.filter((a) => a.status === "rejected").length;
    out[`cost_${s.name}`] = won.reduce((sum, a) => sum + a.cost, 0);
  }
  return out;
}

function digiflazzFigures(w: World): Record<string, number> {
  const out: Record<string, number> = {};
  for (const s of w.suppliers.filter((x) => x.protocol === "digiflazz")) {
    const calls = s.calls();
    out[`refusals_${s.name}`] = calls.filter((c) => c.result === "refused").length;
    out[`errors_${s.name}`] = calls.filter((c) => c.result === "error").length;
    out[`resends_${s.name}`] = calls.filter((c) => c.result === "repeat").length;
  }
  return out;
}

main().then(
  (code) => process.exit(code),
  (err) => {
    console.error(`campaign: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`);
    process.exit(2);
  },
);
