// callback_data is at most 64 bytes and visible to the client: short prefixes and short ids
// only, never names, prices or secrets.

export const MAX_CALLBACK_BYTES = 64;

/** every prefix the bot uses, in one place so two features can't collide */
export const CB = {
  /** main menu entries: m:<entry> */
  menu: "m",
  /** cancel the current step or card */
  cancel: "x",
  /** pay a quote: pay:<quoteId> */
  pay: "pay",
  /** cancel a confirmation card: cq:<quoteId> */
  cancelQuote: "cq",
  /** a fresh quote for an expired one: rq:<quoteId> */
  requote: "rq",
  /** open the deposit flow from a card */
  deposit: "tu",
  /** a step's choice: i:<index> */
  item: "i",
  /** a step's list page: pg:<page> */
  page: "pg",
  /** history page: hp:<page> */
  historyPage: "hp",
  /** one order of the history: ho:<orderId>:<page> */
  historyOrder: "ho",
  /** buy again: ba:<orderId> */
  buyAgain: "ba",
  /** language: lg:<id|en> */
  language: "lg",
  /** admin decides a deposit: dc:<id> confirm, dr:<id> reject */
  depositConfirm: "dc",
  depositReject: "dr",
  /** admin re-checks an open order: rc:<orderId> */
  recheck: "rc",
  /** admin decides an order the supplier has no record of: od:<orderId>:<refund|wait> */
  decide: "od",
  /** admin confirms a balance check's unexplained rise as a supplier top-up: rt:<checkId> */
  reconTopup: "rt",
  /**
   * admin says a /supplier_topup that matched a booked one is another top-up of that amount:
   * ta:<booked topupId>:<the command's messageId>
   */
  anotherTopup: "ta",
  /** cancel a QR payment: pc:<paymentId> */
  paymentCancel: "pc",
  /** top up the shortfall by QR, then buy the card: tb:<quoteId> */
  depositAndBuy: "tb",
  /** the manual transfer instead of a QR: dm:<amount> */
  depositManual: "dm",
  /** a successful order's receipt (struk): sk:<orderId> */
  receipt: "sk",
  /** the figures under a /laporan chart as CSV: lc:<days> */
  laporanCsv: "lc",
  /** admin opens a paused product again: pr:<code> */
  productResume: "pr",
  /** admin moves or switches a route: rr:<product code>:<supplier>:<u|d|e|x> */
  route: "rr",
  /** a price list page: hg:<scope key>:<page>, or the categories: hg:i */
  priceList: "hg",
  /** a price list as a picture: hi:<scope key> */
  priceListPicture: "hi",
  /** /downline's list: dl:<page> */
  downlinePage: "dl",
  /** one downline with their orders: do:<userId>:<page> */
  downlineOpen: "do",
  /** the referral link as a QR picture: dq */
  referralQr: "dq",
  /** yes to a referral link's question: rj:<referral code>; no: rn */
  referralJoin: "rj",
  referralDecline: "rn",
  /** send a balance transfer: ts:<transferId>; cancel it: tx:<transferId> */
  transferSend: "ts",
  transferCancel: "tx",
  /**
   * a key of a PIN keypad: pk:<padId>:<position a-j|bk|ok|x|n>. A position names no digit:
   * the keypad's layout is known only to the server (commerce/wallet/pin-pads.ts)
   */
  pinKey: "pk",
  /** /pin's buttons: pw:new (a first PIN), pw:change, pw:remove (behind the current PIN) */
  pinChange: "pw",
} as const;

export type CallbackPrefix = (typeof CB)[keyof typeof CB];

const PART = /^[A-Za-z0-9_-]*$/;

/** builds "prefix:part:part"; throws when a part holds odd characters or it exceeds 64 bytes */
export function cb(prefix: CallbackPrefix, ...parts: Array<string | number>): string {
  for (const part of parts) {
    if (!PART.test(String(part)))
      throw new Error(`callback part ${String(part)} is not short-safe`);
  }
  const data = [prefix, ...parts.map(String)].join(":");
  const bytes = Buffer.byteLength(data, "utf8");
  if (bytes > MAX_CALLBACK_BYTES) {
    throw new Error(`callback_data of ${bytes} bytes exceeds ${MAX_CALLBACK_BYTES}`);
  }
  return data;
}

export interface ParsedCallbackData {
  prefix: string;
  parts: string[];
}

export function parseCb(data: string | undefined): ParsedCallbackData | undefined {
  if (!data) return undefined;
  const [prefix, ...parts] = data.split(":");
  if (!prefix) return undefined;
  return { prefix, parts };
}

/** a regex matching one prefix's callbacks, for bot.callbackQuery() */
export function cbPattern(prefix: CallbackPrefix): RegExp {
  return new RegExp(`^${prefix}(?::|$)`);
}

/** a positive safe integer from a callback part, or undefined */
export function cbInt(part: string | undefined): number | undefined {
  if (part === undefined || !/^\d{1,15}$/.test(part)) return undefined;
  const n = Number(part);
  return Number.isSafeInteger(n) ? n : undefined;
}
