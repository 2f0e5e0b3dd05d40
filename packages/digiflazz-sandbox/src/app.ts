import type { Clock } from "@kios/kit";
import { Hono } from "hono";
import { envelope, refusal, txnData } from "./answers.ts";
import type { PascaItem, PrepaidItem } from "./catalogue.ts";
import type { FaultDice } from "./faults.ts";
import { billOutcomeOf, type Outcome, outcomeOf, RC_MESSAGES } from "./outcomes.ts";
import { md5Sign } from "./sign.ts";
import {
  type SandboxAccount,
  type SandboxCall,
  type SandboxState,
  type Txn,
  txnKey,
} from "./state.ts";
import type { WebhookSender } from "./webhook.ts";

// the buyer API's four endpoints as Digiflazz documents them: POST JSON, an md5 sign in the
// body, every answer in {"data": …}, refusals read from data.rc (sent here with HTTP 400
// for a malformed or unsigned request, 200 otherwise: the documentation shows both).

const FULL_LIST_WINDOW_MS = 5 * 60_000;
const RESEND_SPACING_MS = 60_000;
const WIB_MS = 7 * 3600_000;

export interface AppDeps {
  state: SandboxState;
  prepaid: PrepaidItem[];
  pasca: PascaItem[];
  clock: Clock;
  webhooks: WebhookSender;
  /** how long a pending transaction waits before its final state (ms) */
  settleDelayMs: number;
  /** schedules a settlement (the sandbox keeps the timers so close() can clear them) */
  later(ms: number, run: () => void): void;
  /** the faults' dice (faults.ts); all off unless set */
  dice: FaultDice;
  /** how long a reply held by the timeout fault waits (ms) */
  slowReplyMs: number;
}

const wibDay = (ms: number) => new Date(ms + WIB_MS).toISOString().slice(0, 10);
const str = (v: unknown) => (typeof v === "string" ? v : undefined);

export function createDigiflazzApp(deps: AppDeps) {
  const { state, clock } = deps;
  const app = new Hono();

  async function bodyOf(c: { req: { text(): Promise<string> } }) {
    try {
      const parsed: unknown = JSON.parse(await c.req.text());
      return parsed !== null && typeof parsed === "object" && !Array.isArray(parsed)
        ? (parsed as Record<string, unknown>)
        : undefined;
    } catch {
      return undefined;
    }
  }

  /** the account whose username and sign the body carries, or the refusal's rc */
  function signedBy(
    body: Record<string, unknown>,
    what: string | undefined,
  ): SandboxAccount | "40" | "41" {
    const username = str(body.username);
    const sign = str(body.sign);
    if (!username || !sign || what === undefined) return "40";
    const account = state.accounts.get(username);
    if (!account || md5Sign(username, account.apiKey, what) !== sign) return "41";
    return account;
  }

  app.post("/v1/cek-saldo", async (c) => {
    const body = await bodyOf(c);
    if (body?.cmd !== "deposit") return c.json(refusal("40"), 400);
    const account = signedBy(body, "depo");
    if (typeof account === "string") return c.json(refusal(account), 400);
    return c.json(envelope({ deposit: account.balance }));
  });

  app.post("/v1/price-list", async (c) => {
    const body = await bodyOf(c);
    const cmd = body?.cmd;
    if (!body || (cmd !== "prepaid" && cmd !== "pasca")) return c.json(refusal("40"), 400);
    const account = signedBy(body, "pricelist");
    if (typeof account === "string") return c.json(refusal(account), 400);
    const filters = (["code", "category", "brand", "type"] as const).filter((k) => str(body[k]));
    const list: (PrepaidItem | PascaItem)[] = cmd === "prepaid" ? deps.prepaid : deps.pasca;
    if (filters.length === 0) {
      // the whole list: at most once per window per account and list
      const windowKey = `${account.username}:${cmd}`;
      const last = state.fullListAt.get(windowKey);
      const now = clock.now();
      const record = (result: "served" | "refused") =>
        state.fullLists.push({ username: account.username, cmd, at: now, result });
      if (last !== undefined && now - last < FULL_LIST_WINDOW_MS) {
        record("refused");
        return c.json(refusal("83"));
      }
      state.fullListAt.set(windowKey, now);
      record("served");
      // served, so its window is open, and the answer held past the buyer's timeout
      if (deps.dice.slowList()) await new Promise((r) => setTimeout(r, deps.slowReplyMs));
      return c.json(envelope(list));
    }
    const matches = list.filter((p) =>
      filters.every((k) => {
        const want = str(body[k])!.toLowerCase();
        const field =
          k === "code" ? p.buyer_sku_code : (p as unknown as Record<string, unknown>)[k];
        return typeof field === "string" && field.toLowerCase() === want;
      }),
    );
    return c.json(envelope(matches));
  });

  app.post("/v1/deposit", async (c) => {
    const body = await bodyOf(c);
    const amount = body?.amount;
    if (!body || typeof amount !== "number" || !Number.isSafeInteger(amount) || amount < 10_000) {
      return c.json(refusal("40"), 400);
    }
    if (!str(body.bank) || !str(body.owner_name)) return c.json(refusal("40"), 400);
    const account = signedBy(body, "deposit");
    if (typeof account === "string") return c.json(refusal(account), 400);
    // the unique digits that let the transfer be matched to the ticket
    const unique = 100 + (Number(clock.now() % 900) | 0);
    return c.json(
      envelope({
        rc: "00",
        amount: amount + unique,
        notes: `DEP ${account.username.toUpperCase()} ${unique}`,
        bank: str(body.bank)!.toUpperCase(),
        account_no: "1234567890",
        account_name: "PT SANDBOX DIGIFLAZZ",
      }),
    );
  });

  // what the call being answered did (set by refuse, form and resent; each /transaction is
  // answered synchronously between its body and its reply, so one slot serves)
  let lastResult: SandboxCall["result"] = "invalid";

  app.post("/v1/transaction", async (c) => {
    const body = await bodyOf(c);
    if (!body) return c.json(refusal("40"), 400);
    state.requests.push(body);
    const refId = str(body.ref_id);
    const commands = str(body.commands);
    // the calls that may form a transaction are logged (status-pasca and inq-pasca read only)
    const logged = commands === undefined || commands === "pay-pasca";
    const log = (result: SandboxCall["result"], rc: string, delivered: boolean) => {
      if (logged) {
        state.calls.push({
          username: str(body.username) ?? "",
          refId: refId ?? "",
          at: clock.now(),
          result,
          rc,
          delivered,
        });
      }
    };
    if (logged && deps.dice.before() === "error") {
      log("error", "", false);
      return c.json({ message: "Internal Server Error" }, 500);
    }
    lastResult = "invalid";
    const { answer, status } = answerTransaction(body, refId, commands);
    // set inside answerTransaction, which TypeScript cannot see
    const result = lastResult as SandboxCall["result"];
    // a lost or late answer only after the work, so a refusal always reaches the buyer
    const effect = logged && result === "created" ? deps.dice.after() : undefined;
    log(result, str(answer.data.rc) ?? "", effect === undefined);
    if (effect === "error") return c.json({ message: "Internal Server Error" }, 500);
    if (effect === "slow") await new Promise((resolve) => setTimeout(resolve, deps.slowReplyMs));
    return c.json(answer, status);
  });

  function answerTransaction(
    body: Record<string, unknown>,
    refId: string | undefined,
    commands: string | undefined,
  ): { answer: { data: Record<string, unknown> }; status: 200 | 400 } {
    const account = signedBy(body, refId);
    if (typeof account === "string") {
      return { answer: refusal(account, { ref_id: refId ?? "" }), status: 400 };
    }
    const sku = str(body.buyer_sku_code);
    const customerNo = str(body.customer_no);
    if (!refId || !sku || !customerNo) {
      return { answer: refusal("40", { ref_id: refId }), status: 400 };
    }
    const ok = (answer: { data: Record<string, unknown> }) => ({ answer, status: 200 as const });
    if (commands === "inq-pasca") return ok(inquire(account, refId, sku, customerNo));
    if (commands === "pay-pasca")
      return ok(pay(account, refId, sku, customerNo, body.testing === true));
    if (commands === "status-pasca") return ok(billStatus(account, refId));
    if (commands !== undefined) return { answer: refusal("40", { ref_id: refId }), status: 400 };
    return ok(prepaidOrder(account, body, refId, sku, customerNo));
  }

  function held(account: SandboxAccount, refId: string): Txn | undefined {
    return state.txns.get(txnKey(account.username, refId));
  }

  function resent(t: Txn) {
    lastResult = "repeat";
    const now = clock.now();
    if (now - t.lastSentAt < RESEND_SPACING_MS) state.earlyResends.push(t.refId);
    t.lastSentAt = now;
  }

  function prepaidOrder(
    account: SandboxAccount,
    body: Record<string, unknown>,
    refId: string,
    sku: string,
    customerNo: string,
  ) {
    const stored = held(account, refId);
    if (stored) {
      // the status check: the same request again returns the stored transaction
      resent(stored);
      if (stored.kind !== "prepaid" || stored.sku !== sku || stored.customerNo !== customerNo) {
        return refusal("49", { ref_id: refId, customer_no: customerNo, buyer_sku_code: sku });
      }
      return envelope(txnData(stored, account.balance));
    }
    // a ref_id it does not hold forms a new transaction: this is the trap
    const testing = body.testing === true;
    const about = { ref_id: refId, customer_no: customerNo, buyer_sku_code: sku };
    const refuse = (rc: string) => {
      lastResult = "refused";
      state.refused.add(`${account.username}:${refId}`);
      return refusal(rc, { ...about, buyer_last_saldo: account.balance, price: 0 });
    };
    const product = deps.prepaid.find((p) => p.buyer_sku_code === sku);
    if (!product?.buyer_product_status) return refuse("43");
    if (!product.seller_product_status) return refuse("62");
    const maxPrice = body.max_price;
    if (
      maxPrice !== undefined &&
      (typeof maxPrice !== "number" || !Number.isSafeInteger(maxPrice))
    ) {
      return refuse("40");
    }
    if (typeof maxPrice === "number" && product.price > maxPrice) return refuse("69");
    const outcome = deps.dice.outcome(outcomeOf(customerNo, testing));
    if (outcome.initial === "refused") return refuse(outcome.rc);
    if (!testing && account.balance < product.price) return refuse("44");
    // a refusal fault: the product or the seller out for a moment, nothing formed
    const faulted = deps.dice.refusal();
    if (faulted) return refuse(faulted);
    const refusedBefore = state.refused.delete(`${account.username}:${refId}`);
    if (refusedBefore) state.trapSprung.push(refId);
    const t = form(account, "prepaid", refId, sku, customerNo, testing, product.price, outcome);
    return envelope(txnData(t, account.balance));
  }

  function form(
    account: SandboxAccount,
    kind: "prepaid" | "bill",
    refId: string,
    sku: string,
    customerNo: string,
    testing: boolean,
    price: number,
    outcome: Outcome,
    bill?: Txn["bill"],
  ): Txn {
    lastResult = "created";
    const now = clock.now();
    if (!testing) account.balance -= price;
    const t: Txn = {
      refId,
      username: account.username,
      kind,
      sku,
      customerNo,
      testing,
      status: "Pending",
      rc: outcome.rc,
      message: RC_MESSAGES[outcome.rc] ?? "Pending",
      price,
      sn: "",
      outcome,
      createdAt: now,
      lastSentAt: now,
      bill,
    };
    state.txns.set(txnKey(account.username, refId), t);
    if (outcome.initial === "pending") {
      deps.later(deps.settleDelayMs, () => settle(account, t));
    } else {
      finish(account, t, outcome.initial === "success" ? "success" : "failed", outcome.rc);
    }
    return t;
  }

  /** the final state of a transaction (and a refund of its price when it failed) */
  function finish(account: SandboxAccount, t: Txn, final: "success" | "failed", rc: string) {
    t.status = final === "success" ? "Sukses" : "Gagal";
    t.rc = rc;
    t.message = RC_MESSAGES[rc] ?? t.status;
    if (final === "success")
      t.sn = `SN${t.refId.replace(/[^A-Za-z0-9]/g, "").slice(-10)}${t.createdAt % 1000}`;
    else if (!t.testing) account.balance += t.price;
  }

  function settle(account: SandboxAccount, t: Txn) {
    if (t.status !== "Pending") return;
    finish(account, t, t.outcome.final, t.outcome.finalRc);
    if (!account.webhookUrl) return;
    const target = { url: account.webhookUrl, secret: account.webhookSecret };
    const fault = deps.dice.webhook();
    if (fault.forge) {
      // the opposite outcome under a wrong signature: the shop must not believe it
      const lie =
        t.outcome.final === "success"
          ? { status: "Gagal", rc: "02" }
          : { status: "Sukses", rc: "00" };
      deps.webhooks.send(
        target,
        "update",
        { ...txnData(t, account.balance), ...lie },
        t.kind === "bill",
        true,
      );
    }
    if (fault.drop) return;
    deps.webhooks.send(target, "update", txnData(t, account.balance), t.kind === "bill");
    if (fault.duplicate) {
      deps.webhooks.send(target, "update", txnData(t, account.balance), t.kind === "bill");
    }
  }

  function inquire(account: SandboxAccount, refId: string, sku: string, customerNo: string) {
    const product = deps.pasca.find((p) => p.buyer_sku_code === sku);
    const about = { ref_id: refId, customer_no: customerNo, buyer_sku_code: sku };
    if (!product?.buyer_product_status) return refusal("43", about);
    if (billOutcomeOf(customerNo).inquiry === "none") return refusal("60", about);
    // the bill: its amount from the number, so an inquiry repeated shows the same one
    const tagihan = 50_000 + (Number(customerNo.slice(-4)) % 50) * 1_000;
    const admin = product.admin;
    const sellingPrice = tagihan + admin;
    // the shop's cost is the price after the seller's commission, not selling_price
    const price = sellingPrice - product.commission;
    const now = clock.now();
    const periode = new Date(now + WIB_MS).toISOString().slice(0, 7).replace("-", "");
    const bill = {
      customer_name: `Pelanggan ${customerNo.slice(-4)}`,
      admin,
      selling_price: sellingPrice,
      periode,
      desc: {
        tarif: "R1",
        daya: 1300,
        lembar_tagihan: 1,
        detail: [{ periode, nilai_tagihan: String(tagihan), admin: String(admin), denda: "0" }],
      },
    };
    state.inquiries.set(txnKey(account.username, refId), {
      refId,
      username: account.username,
      sku,
      customerNo,
      day: wibDay(now),
      price,
      bill,
    });
    return envelope({
      ...about,
      ...bill,
      message: "Transaksi Sukses",
      status: "Sukses",
      rc: "00",
      sn: "",
      buyer_last_saldo: account.balance,
      price,
    });
  }

  function pay(
    account: SandboxAccount,
    refId: string,
    sku: string,
    customerNo: string,
    testing: boolean,
  ) {
    const stored = held(account, refId);
    if (stored) {
      resent(stored);
      return envelope(txnData(stored, account.balance));
    }
    const about = { ref_id: refId, customer_no: customerNo, buyer_sku_code: sku };
    const inquiry = state.inquiries.get(txnKey(account.username, refId));
    if (!inquiry || inquiry.sku !== sku || inquiry.customerNo !== customerNo) {
      return refusal("50", about);
    }
    // pay-pasca follows its inquiry the same day
    if (inquiry.day !== wibDay(clock.now())) return refusal("50", about);
    if (!testing && account.balance < inquiry.price) {
      lastResult = "refused";
      return refusal("44", about);
    }
    const how = billOutcomeOf(customerNo).payment;
    const outcome: Outcome =
      how === "success"
        ? { initial: "success", final: "success", rc: "00", finalRc: "00" }
        : how === "failed"
          ? { initial: "failed", final: "failed", rc: "02", finalRc: "02" }
          : {
              initial: "pending",
              final: how === "pending-success" ? "success" : "failed",
              rc: "03",
              finalRc: how === "pending-success" ? "00" : "02",
            };
    const t = form(
      account,
      "bill",
      refId,
      sku,
      customerNo,
      testing,
      inquiry.price,
      outcome,
      inquiry.bill,
    );
    return envelope(txnData(t, account.balance));
  }

  function billStatus(account: SandboxAccount, refId: string) {
    const stored = held(account, refId);
    // not paid (yet): Gagal with no data, which is not a failed payment
    if (stored?.kind !== "bill") {
      return envelope({
        ref_id: refId,
        status: "Gagal",
        rc: "02",
        message: "Data tidak ditemukan",
        sn: "",
      });
    }
    return envelope(txnData(stored, account.balance));
  }

  return {
    app,
    /** settles every pending transaction now (the campaign's settle phase) */
    settleAll: () => {
      for (const t of state.txns.values()) {
        const account = state.accounts.get(t.username);
        if (account && t.status === "Pending") settle(account, t);
      }
    },
    settle: (username: string, refId: string) => {
      const account = state.accounts.get(username);
      const t = state.txns.get(txnKey(username, refId));
      if (account && t) settle(account, t);
    },
  };
}
