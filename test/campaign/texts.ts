import type { BotApiServer } from "@kios/bot-api-server";
import { sleep } from "./chaos.ts";
import { botMessagesAfter, chatOf } from "./chat.ts";
import type { Random } from "./rng.ts";

// resellers who type the center's text commands in Telegram (docs/center.md#text-commands),
// as a reseller's Telegram "center" software does: `CODE.DEST.PIN R#ref`, sometimes the same
// text again at once (an impatient resend), the same R# once more later, and `S.PIN` now and
// then. Every answer is read at the end from the chat itself (reconcile.ts's text checks):
// one order per R#, each answer read by the documented pattern, the balances it says.

export interface TextReseller {
  userId: number;
  pin: string;
}

export interface TextJournal {
  /** each R# typed: the product and dest of its first text */
  sent: { userId: number; ref: string; product: string; dest: string }[];
  /** each `S.PIN` asked after the settle: the balance said (undefined: no answer in time) */
  finalBalances: { userId: number; said: number | undefined }[];
}

export const emptyTextJournal = (): TextJournal => ({ sent: [], finalBalances: [] });

export interface TextRun {
  telegram: BotApiServer;
  journal: TextJournal;
  takeOrder(): boolean;
  /** how long a person waits for an answer, ms */
  answerMs: number;
  /** the wait between a reseller's orders, ms */
  pauseMs: number;
}

const TEXT_CODES = ["TSEL5", "TSEL10", "TSEL50"] as const;
/** the seed sandbox's endings, as the door's actor uses them (center.ts) */
const TEXT_ENDINGS = ["901", "902", "903", "904", "123", "941", "946"] as const;

/** docs/center.md's balance in an answer: `Saldo 989.650` (a recap says `Saldo Rp…`) */
export const SALDO = /Saldo (?:Rp)?(-?[\d.]+)/;
export const rupiahOf = (s: string) => Number(s.replace(/\./g, ""));

export async function runTextReseller(run: TextRun, r: TextReseller, rng: Random): Promise<void> {
  const chat = chatOf(run.telegram, r.userId);
  const answerTo = (ref: string, after: number) =>
    chat.waitFor(
      (v) => botMessagesAfter(v, after).find((m) => (m.text ?? "").startsWith(`R#${ref} `)),
      run.answerMs,
    );
  for (let n = 1; run.takeOrder(); n++) {
    const ref = `T${r.userId % 1000}-${n}`;
    const product = rng.pick(TEXT_CODES);
    const dest = `0813${String(10_000 + Math.floor(rng.next() * 89_999)).padStart(5, "0")}${rng.pick(TEXT_ENDINGS)}`;
    run.journal.sent.push({ userId: r.userId, ref, product, dest });
    const text = `${product}.${dest}.${r.pin} R#${ref}`;
    const at = chat.say(text);
    // the software's impatient resend of the same text
    if (rng.next() < 0.4) chat.say(text);
    await answerTo(ref, at);
    await sleep(run.pauseMs);
    // and once more later: the stored order answers
    const again = chat.say(text);
    await answerTo(ref, again);
    if (n % 3 === 0) {
      const asked = chat.say(`S.${r.pin}`);
      await chat.waitFor(
        (v) => botMessagesAfter(v, asked).find((m) => /^Saldo /.test(m.text ?? "")),
        run.answerMs,
      );
    }
  }
}

/** after the settle: each reseller's `S.PIN`, to compare with the ledger */
export async function askFinalBalance(run: TextRun, r: TextReseller): Promise<void> {
  const chat = chatOf(run.telegram, r.userId);
  const asked = chat.say(`S.${r.pin}`);
  const answer = await chat.waitFor(
    (v) => botMessagesAfter(v, asked).find((m) => /^Saldo /.test(m.text ?? "")),
    run.answerMs * 3,
  );
  const m = SALDO.exec(answer?.text ?? "");
  run.journal.finalBalances.push({ userId: r.userId, said: m ? rupiahOf(m[1]!) : undefined });
}
