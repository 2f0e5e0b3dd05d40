import type { BotApiServer, ChatView, MessageView } from "@kios/bot-api-server";
import {
  botMessagesAfter,
  buttonByLabel,
  type Chat,
  callbackDataOf,
  chatOf,
  messageById,
} from "./chat.ts";
import type { Random } from "./rng.ts";

// the customers: scripted people who buy through the bot as a person would, including the
// awkward things people do (tapping Pay twice, Cancel and Pay at once, two people paying the
// same bill). A bot that does not answer within answerMs is a lost tap: they try again, a
// few times, then give up, as a person would. Lost updates are not money violations.

export type ScenarioKind = "buy" | "double-tap" | "cancel-then-pay" | "menu-buy" | "bill-pair";

export interface Journal {
  /** what the campaign credited to each wallet */
  credits: Map<number, number>;
  /** Cancel and Pay pressed together on one card */
  cancelThenPay: { userId: number; quoteId: string }[];
  scenarios: Record<ScenarioKind, number>;
  /** cards whose Pay was taken (the card moved on) */
  paid: number;
  /** an action repeated because the bot did not answer in time */
  retries: number;
  /** scenarios given up after the retries */
  abandoned: number;
  /** the bot answered without a card (a refusal) */
  refused: number;
  /** the first few refusals, for the report */
  refusals: string[];
  /** PINs typed on a card's keypad after Pay, and the card moved on to the order */
  pinPays: number;
}

export function emptyJournal(): Journal {
  return {
    credits: new Map(),
    cancelThenPay: [],
    scenarios: { buy: 0, "double-tap": 0, "cancel-then-pay": 0, "menu-buy": 0, "bill-pair": 0 },
    paid: 0,
    retries: 0,
    abandoned: 0,
    refused: 0,
    refusals: [],
    pinPays: 0,
  };
}

export interface Customer {
  id: number;
  /** resellers quick-order (CODE.DESTINATION); the others walk the menu */
  reseller: boolean;
  index: number;
  /** the wallet's PIN, when they set one: Pay asks for it on a keypad */
  pin?: string | undefined;
}

export interface CustomerRun {
  telegram: BotApiServer;
  journal: Journal;
  /** a person's patience for one answer */
  answerMs: number;
  tries: number;
  /** takes one order from the budget; false once it is spent */
  takeOrder(n?: number): boolean;
  /** a bill-pair partner for this customer (another reseller) */
  partnerOf(c: Customer): Customer | undefined;
  /** a fresh, campaign-wide number for a bill */
  nextBillNumber(): number;
  /** the shop's codes the customers type: prepaid ones and the postpaid PLN bill (world.ts) */
  codes: { prepaid: readonly string[]; bill: string };
}
/**
 * the sandbox's outcome table; "123" is its default (pending, then success by callback).
 * 941 and 943 fail for the product's sake (out of stock, at once and after pending: the
 * next route may save the sale), 946 for the destination's (no route may)
 */
const ENDINGS = [
  "901",
  "902",
  "903",
  "904",
  "905",
  "906",
  "907",
  "908",
  "123",
  "941",
  "943",
  "946",
] as const;
const ENDING_WEIGHTS = [3, 2, 3, 2, 2, 0.5, 1.5, 2, 3, 1, 1, 0.5];
const BILL_ENDINGS = ["901", "903", "904", "905", "907", "908", "120"] as const;

function weighted<T>(rng: Random, items: readonly T[], weights: readonly number[]): T {
  const total = weights.reduce((a, b) => a + b, 0);
  let x = rng.next() * total;
  for (let i = 0; i < items.length; i++) {
    x -= weights[i]!;
    if (x < 0) return items[i]!;
  }
  return items.at(-1)!;
}

const isQuoteCard = (m: MessageView, destination: string) =>
  /Konfirmasi pembelian/.test(m.text ?? "") &&
  (m.text ?? "").includes(`Tujuan: ${destination}`) &&
  callbackDataOf(m).some((d) => d.startsWith("pay:"));

const isBillCard = (m: MessageView, number: string) =>
  /^🧾 Tagihan /.test(m.text ?? "") &&
  (m.text ?? "").includes(`No. pelanggan: ${number}`) &&
  callbackDataOf(m).some((d) => d.startsWith("pay:"));

/**
 * a PIN keypad (docs/resellers.md#the-pin), known by its labels as a person knows it: a key
 * for each digit and ✅ (what each key's data says is the keypad's own business)
 */
const isKeypad = (m: MessageView | undefined) =>
  m !== undefined &&
  buttonByLabel(m, /^✅$/) !== undefined &&
  buttonByLabel(m, /^\d$/) !== undefined;

/** the card's keyboard as a person sees it: an edit changes it */
const keysOf = (m: MessageView | undefined) => JSON.stringify(m?.reply_markup ?? null);

/** what one person does with a card: ask for it, then press its buttons */
interface Person {
  chat: Chat;
  /** sends text until a card it recognises comes back; undefined on a refusal or giving up */
  requestCard(text: string, isCard: (m: MessageView) => boolean): Promise<MessageView | undefined>;
  /** presses Pay (as the scenario says) until the card moves on from the quote */
  pay(card: MessageView, how: "once" | "twice" | "cancel-first"): Promise<void>;
}

function person(run: CustomerRun, c: Customer): Person {
  const chat = chatOf(run.telegram, c.id);
  return {
    chat,
    async requestCard(text, isCard) {
      for (let attempt = 0; attempt < run.tries; attempt++) {
        if (attempt > 0) run.journal.retries += 1;
        const at = chat.say(text);
        const card = await chat.waitFor((v) => botMessagesAfter(v, at).find(isCard), run.answerMs);
        if (card) return card;
        const answered = botMessagesAfter(chat.view(), at).filter(
          // a result pushed for an earlier order is not an answer to this message
          (m) => !/Mengecek tagihan|^(✅|❌) Pesanan /.test(m.text ?? ""),
        );
        if (answered.length > 0) {
          run.journal.refused += 1;
          if (run.journal.refusals.length < 5)
            run.journal.refusals.push(`${text} → ${answered.map((m) => m.text).join(" | ")}`);
          return undefined;
        }
      }
      run.journal.abandoned += 1;
      return undefined;
    },
    async pay(card, how) {
      const payData = callbackDataOf(card).find((d) => d.startsWith("pay:"))!;
      const cancelData = callbackDataOf(card).find((d) => d.startsWith("cq:"));
      // moved on from the quote: neither its Pay nor (with a PIN) the keypad it opened
      const movedOn = (v: ChatView) => {
        const now = messageById(v, card.message_id);
        return now && !callbackDataOf(now).includes(payData) && !isKeypad(now) ? now : undefined;
      };
      const keypad = (v: ChatView) => {
        const now = messageById(v, card.message_id);
        return isKeypad(now) ? now : undefined;
      };
      /** the card moved on, or (with a PIN) its keypad came up: the PIN typed on it */
      const settled = async (): Promise<boolean> => {
        const seen = await chat.waitFor((v) => movedOn(v) ?? keypad(v), run.answerMs);
        if (!seen) return false;
        if (!isKeypad(seen)) return true;
        if (!c.pin || !(await typePin(seen, c.pin))) return false;
        if (!(await chat.waitFor(movedOn, run.answerMs))) return false;
        run.journal.pinPays += 1;
        return true;
      };
      /** a person's PIN, key by key, each press seen on the keypad before the next; then ✅ */
      const typePin = async (pad: MessageView, pin: string): Promise<boolean> => {
        let now: MessageView | undefined = pad;
        for (const digit of [...pin, "✅"]) {
          const key: string | undefined = now && buttonByLabel(now, new RegExp(`^${digit}$`));
          if (!now || !key || !chat.press(now, key)) return false;
          if (digit === "✅") return true;
          const before = keysOf(now);
          now = await chat.waitFor((v) => {
            const m = messageById(v, card.message_id);
            return isKeypad(m) && keysOf(m) !== before ? m : undefined;
          }, run.answerMs);
        }
        return false;
      };
      if (how === "cancel-first" && cancelData) {
        // both taps land before the bot answers either: the card still shows both buttons
        chat.press(card, cancelData);
        chat.press(card, payData);
        run.journal.cancelThenPay.push({ userId: c.id, quoteId: payData.slice("pay:".length) });
        await settled();
        return;
      }
      for (let attempt = 0; attempt < run.tries; attempt++) {
        if (attempt > 0) run.journal.retries += 1;
        if (!chat.press(card, payData)) break;
        if (how === "twice" && attempt === 0) chat.press(card, payData);
        if (await settled()) {
          run.journal.paid += 1;
          return;
        }
        // a keypad left half-typed (a lost press): not tapped again, as a person would not
        if (keypad(chat.view())) break;
      }
      if (movedOn(chat.view())) run.journal.paid += 1;
      else run.journal.abandoned += 1;
    },
  };
}

export function runCustomer(run: CustomerRun, c: Customer, rng: Random): Promise<void> {
  const me = person(run, c);
  const chat = me.chat;
  let sequence = 0;

  const destination = (ending: string) =>
    `0812${String(c.index).padStart(2, "0")}${String(++sequence % 1000).padStart(3, "0")}${ending}`;

  async function quickBuy(how: "once" | "twice" | "cancel-first"): Promise<void> {
    const dest = destination(weighted(rng, ENDINGS, ENDING_WEIGHTS));
    const card = await me.requestCard(`${rng.pick(run.codes.prepaid)}.${dest}`, (m) =>
      isQuoteCard(m, dest),
    );
    if (card) await me.pay(card, how);
  }

  /** the menu: Pulsa & Data → number → Pulsa → Telkomsel 10.000 (paging) → the card */
  async function menuCard(dest: string): Promise<MessageView | undefined> {
    const step = <T>(found: (v: ChatView) => T | undefined) => chat.waitFor(found, run.answerMs);
    for (let attempt = 0; attempt < run.tries; attempt++) {
      if (attempt > 0) run.journal.retries += 1;
      const at = chat.say("/start");
      const menu = await step((v) =>
        botMessagesAfter(v, at).find((m) => /Halo/.test(m.text ?? "")),
      );
      const entry = menu && buttonByLabel(menu, /Pulsa & Data/);
      if (!menu || !entry || !chat.press(menu, entry)) continue;
      const ask = await step((v) =>
        botMessagesAfter(v, menu.message_id).find((m) => /nomor HP/.test(m.text ?? "")),
      );
      if (!ask) continue;
      const typed = chat.say(dest);
      const which = await step((v) =>
        botMessagesAfter(v, typed).find((m) => /pulsa atau paket data/.test(m.text ?? "")),
      );
      const pulsa = which && buttonByLabel(which, /^Pulsa$/);
      if (!which || !pulsa || !chat.press(which, pulsa)) continue;
      let list = await step((v) =>
        botMessagesAfter(v, which.message_id).find((m) =>
          /^Pulsa .* untuk 08\d+:$/.test(m.text ?? ""),
        ),
      );
      for (let page = 0; list && page < 20; page++) {
        const item = buttonByLabel(list, /^Telkomsel 10\.000 ·/);
        if (item) {
          if (!chat.press(list, item)) break;
          const listId = list.message_id;
          return step((v) => botMessagesAfter(v, listId).find((m) => isQuoteCard(m, dest)));
        }
        const next = buttonByLabel(list, /^▶️$/);
        if (!next || !chat.press(list, next)) break;
        const shown = callbackDataOf(list).join("|");
        const id = list.message_id;
        list = await step((v) => {
          const now = messageById(v, id);
          return now && callbackDataOf(now).join("|") !== shown ? now : undefined;
        });
      }
    }
    run.journal.abandoned += 1;
    return undefined;
  }

  async function menuBuy(): Promise<void> {
    const dest = destination(weighted(rng, ENDINGS, ENDING_WEIGHTS));
    const card = await menuCard(dest);
    if (card) await me.pay(card, rng.chance(0.2) ? "twice" : "once");
  }

  /** two people look up the same bill at once and both press Pay */
  async function billPair(partner: Customer): Promise<void> {
    const number = `5321${String(run.nextBillNumber()).padStart(5, "0")}${rng.pick(BILL_ENDINGS)}`;
    const people = [me, person(run, partner)];
    const cards = await Promise.all(
      people.map((p) => p.requestCard(`${run.codes.bill}.${number}`, (m) => isBillCard(m, number))),
    );
    await Promise.all(people.map((p, i) => (cards[i] ? p.pay(cards[i], "once") : undefined)));
  }

  async function one(): Promise<boolean> {
    if (!c.reseller) {
      if (!run.takeOrder()) return false;
      run.journal.scenarios["menu-buy"] += 1;
      await menuBuy();
      return true;
    }
    const roll = rng.next();
    const partner = run.partnerOf(c);
    if (roll < 0.12 && partner) {
      if (!run.takeOrder(2)) return false;
      run.journal.scenarios["bill-pair"] += 1;
      await billPair(partner);
      return true;
    }
    if (!run.takeOrder()) return false;
    if (roll < 0.24) {
      run.journal.scenarios["double-tap"] += 1;
      await quickBuy("twice");
    } else if (roll < 0.34) {
      run.journal.scenarios["cancel-then-pay"] += 1;
      await quickBuy("cancel-first");
    } else {
      run.journal.scenarios.buy += 1;
      await quickBuy("once");
    }
    return true;
  }

  return (async () => {
    while (await one()) {
      // a short pause between purchases, as people have
      await new Promise((r) => setTimeout(r, rng.int(0, 300)));
    }
  })();
}
