import type { BotApiServer, MessageView } from "@kios/bot-api-server";
import { botMessagesAfter, buttonByLabel, type Chat, chatOf, messageById } from "./chat.ts";
import type { CampaignSupplier } from "./suppliers.ts";

// the shop's owner and a member of staff, both admins. They read the supplier balance with
// /recon (before the customers come, while they buy, after the settle), and when the owner
// tops the supplier account up during the run, both book that one top-up at the same
// moment: the owner by the check's button when it offers one (else by /supplier_topup), the
// staff member by /supplier_topup, as two people who both saw the money arrive would.

export interface OwnerJournal {
  /** money the owner put into the supplier account: how much, and when (ms since the epoch) */
  topups: { amount: number; at: number }[];
  /** /recon answered */
  recons: number;
  /** the admins' bookings answered: recorded, or told it was already booked */
  booked: number;
  alreadyBooked: number;
  /** the rise's check offered the button (nothing was in flight at its reading) */
  buttonOffered: boolean;
  /** an answer that did not come in time: asked again */
  retries: number;
  /** gave up after the retries */
  unanswered: number;
}

export function emptyOwnerJournal(): OwnerJournal {
  return {
    topups: [],
    recons: 0,
    booked: 0,
    alreadyBooked: 0,
    buttonOffered: false,
    retries: 0,
    unanswered: 0,
  };
}

const CHECK_ANSWER = /^🧮 Cek saldo supplier #\d+/;
/** the supplier's balance request met a fault: the owner asks again */
const CHECK_FAILED = /^(Saldo supplier tidak dapat dibaca|Maaf, terjadi gangguan)/;
const BOOKING_ANSWER = /^(✅ Tercatat: top-up supplier|Sudah dicatat: top-up)/;

export interface Owner {
  /** /recon, answered (or given up on) */
  recon(): Promise<MessageView | undefined>;
  /** the owner tops the supplier account up, then both admins book it at once */
  topUp(amount: number): Promise<void>;
}

export function owner(o: {
  telegram: BotApiServer;
  /** the first supplier: the one /recon reads first and the owner tops up */
  supplier: CampaignSupplier;
  ownerId: number;
  staffId: number;
  journal: OwnerJournal;
  answerMs: number;
  tries: number;
}): Owner {
  const j = o.journal;
  const ownerChat = chatOf(o.telegram, o.ownerId);
  const staffChat = chatOf(o.telegram, o.staffId);

  /** says `text` until the bot answers it as `answer` says (a kill may lose an answer) */
  async function ask(chat: Chat, text: string, answer: RegExp): Promise<MessageView | undefined> {
    for (let attempt = 0; attempt < o.tries; attempt++) {
      if (attempt > 0) j.retries += 1;
      const said = chat.say(text);
      const found = await chat.waitFor(
        (v) => botMessagesAfter(v, said).find((m) => answer.test(m.text ?? "")),
        o.answerMs,
      );
      if (found) return found;
    }
    j.unanswered += 1;
    return undefined;
  }

  function counted(m: MessageView | undefined): void {
    if (!m) return;
    if ((m.text ?? "").startsWith("Sudah dicatat")) j.alreadyBooked += 1;
    else j.booked += 1;
  }

  /** the owner taps "it was a top-up" and waits for the check's message to say it is explained */
  async function tap(check: MessageView, data: string): Promise<void> {
    for (let attempt = 0; attempt < o.tries; attempt++) {
      if (attempt > 0) j.retries += 1;
      const shown = messageById(ownerChat.view(), check.message_id) ?? check;
      if (!ownerChat.press(shown, data)) break;
      const answered = await ownerChat.waitFor((v) => {
        const answers = v.callback_answers.filter((a) => a.data === data);
        return answers.at(-1)?.text || undefined;
      }, o.answerMs);
      if (answered !== undefined) {
        if (answered.startsWith("Sudah dicatat")) j.alreadyBooked += 1;
        else j.booked += 1;
        return;
      }
    }
    j.unanswered += 1;
  }

  return {
    async recon() {
      for (let attempt = 0; attempt < o.tries; attempt++) {
        const answer = await ask(
          ownerChat,
          "/recon",
          new RegExp(`${CHECK_ANSWER.source}|${CHECK_FAILED.source}`),
        );
        if (!answer) return undefined;
        if (CHECK_ANSWER.test(answer.text ?? "")) {
          j.recons += 1;
          return answer;
        }
        j.retries += 1;
      }
      j.unanswered += 1;
      return undefined;
    },
    async topUp(amount) {
      o.supplier.credit(amount);
      j.topups.push({ amount, at: Date.now() });
      const check = await this.recon();
      const button = check && buttonByLabel(check, /Ya, top-up/);
      j.buttonOffered = button !== undefined;
      const typed = `/supplier_topup ${amount} transfer BCA`;
      await Promise.all([
        button ? tap(check!, button) : ask(ownerChat, typed, BOOKING_ANSWER).then(counted),
        ask(staffChat, typed, BOOKING_ANSWER).then(counted),
      ]);
    },
  };
}
