import type { BotApiServer } from "@kios/bot-api-server";
import type { RunningGatewaySandbox } from "@kios/gateway-sandbox";
import type { DatabaseHandle } from "../../src/db/client.ts";
import { botMessagesAfter, chatOf } from "./chat.ts";
import type { Random } from "./rng.ts";

// the depositors: people who top up by QRIS while the customers buy and kios is killed. Each
// asks /deposit in chat, then their bank pays it (sometimes with its notification lost or
// forged), pays another amount, declines, lets it expire, or never pays. The gateway's
// books and kios's are reconciled afterwards (reconcile.ts).

export type DepositEnding =
  | "pay"
  | "pay-silently"
  | "pay-forged"
  | "mismatch"
  | "deny"
  | "expire"
  | "leave";

export interface DepositJournal {
  asked: number;
  /** the bot showed a QR */
  shown: number;
  /** the bot said QRIS is unavailable (a gateway fault) */
  unavailable: number;
  /** no answer within a person's patience */
  unanswered: number;
  endings: Record<DepositEnding, number>;
}

export function emptyDepositJournal(): DepositJournal {
  return {
    asked: 0,
    shown: 0,
    unavailable: 0,
    unanswered: 0,
    endings: {
      pay: 0,
      "pay-silently": 0,
      "pay-forged": 0,
      mismatch: 0,
      deny: 0,
      expire: 0,
      leave: 0,
    },
  };
}

const ENDINGS: readonly DepositEnding[] = [
  "pay",
  "pay",
  "pay",
  "pay-silently",
  "pay-forged",
  "mismatch",
  "deny",
  "expire",
  "leave",
];

export async function runDepositor(o: {
  telegram: BotApiServer;
  gateway: RunningGatewaySandbox;
  db: DatabaseHandle;
  userId: number;
  deposits: number;
  answerMs: number;
  journal: DepositJournal;
  rng: Random;
}): Promise<void> {
  const chat = chatOf(o.telegram, o.userId);
  for (let i = 0; i < o.deposits; i++) {
    const amount = o.rng.pick([10_000, 25_000, 50_000, 100_000]);
    o.journal.asked++;
    const at = chat.say(`/deposit ${amount}`);
    const answer = await chat.waitFor(
      (v) =>
        botMessagesAfter(v, at).find((m) =>
          /dengan QRIS|QRIS sedang tidak bisa/.test(m.caption ?? m.text ?? ""),
        ),
      o.answerMs,
    );
    if (!answer) {
      o.journal.unanswered++;
      continue;
    }
    if (!answer.photo) {
      o.journal.unavailable++;
      continue;
    }
    o.journal.shown++;
    // kios notes the QR's message right after sending it
    let orderId: unknown;
    for (let tries = 0; tries < 50 && typeof orderId !== "string"; tries++) {
      const { rows } = await o.db.executeSql(
        "select gateway_order_id from payments where user_id = $1 and message_id = $2",
        [o.userId, answer.message_id],
      );
      orderId = rows[0]?.gateway_order_id;
      if (typeof orderId !== "string") await new Promise((r) => setTimeout(r, 100));
    }
    if (typeof orderId !== "string") {
      o.journal.unanswered++;
      continue;
    }
    const ending = o.rng.pick(ENDINGS);
    o.journal.endings[ending]++;
    // the bank takes a moment
    await new Promise((r) => setTimeout(r, o.rng.int(50, 800)));
    switch (ending) {
      case "pay":
        o.gateway.pay(orderId);
        break;
      case "pay-silently":
        // its notification is lost: only kios's status poll can see it
        o.gateway.setFaults({ dropNotifications: true });
        o.gateway.pay(orderId);
        o.gateway.setFaults({ dropNotifications: false });
        break;
      case "pay-forged":
        // a forger's notification arrives first; the real one is refused too (forged key)
        o.gateway.setFaults({ forgeNotifications: true });
        o.gateway.pay(orderId);
        o.gateway.setFaults({ forgeNotifications: false });
        break;
      case "mismatch":
        o.gateway.pay(orderId, { amount: amount - 1_000 });
        break;
      case "deny":
        o.gateway.deny(orderId);
        break;
      case "expire":
        o.gateway.expire(orderId);
        break;
      case "leave":
        break;
    }
  }
}
