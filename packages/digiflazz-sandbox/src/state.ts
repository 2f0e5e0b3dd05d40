import type { Outcome } from "./outcomes.ts";

// what the sandbox holds: accounts, the transactions it formed, and what tests look at
// (every body received, the refused ref_ids and whether one was later formed: the trap).

export interface SandboxAccount {
  username: string;
  apiKey: string;
  /** the webhook's secret as set in the panel; undefined: webhooks go unsigned */
  webhookSecret: string | undefined;
  balance: number;
  webhookUrl: string | undefined;
}

type TxnStatus = "Sukses" | "Pending" | "Gagal";

export interface Txn {
  refId: string;
  username: string;
  kind: "prepaid" | "bill";
  sku: string;
  customerNo: string;
  testing: boolean;
  status: TxnStatus;
  rc: string;
  message: string;
  price: number;
  sn: string;
  outcome: Outcome;
  /** ms: when it was formed, and when its ref_id was last sent */
  createdAt: number;
  lastSentAt: number;
  bill?: BillFields | undefined;
}

interface BillFields {
  customer_name: string;
  admin: number;
  selling_price: number;
  periode: string;
  desc: Record<string, unknown>;
}

interface Inquiry {
  refId: string;
  username: string;
  sku: string;
  customerNo: string;
  /** WIB date (YYYY-MM-DD) of the inquiry: pay-pasca must follow the same day */
  day: string;
  /** what the buyer's deposit is charged */
  price: number;
  bill: BillFields;
}

/** one /transaction call as the sandbox answered it, for the fault campaign's checks */
export interface SandboxCall {
  username: string;
  refId: string;
  /** clock ms */
  at: number;
  /**
   * created: it formed a transaction; repeat: answered with the one its ref_id holds;
   * refused: answered a refusal, nothing formed; error: an HTTP 500 before any work; invalid:
   * unsigned or malformed
   */
  result: "created" | "repeat" | "refused" | "error" | "invalid";
  /** the rc answered (a refusal's, or the transaction's at that moment) */
  rc: string;
  /** the answer reached the buyer as sent (false: replaced by a 500, or held past its timeout) */
  delivered: boolean;
}

export interface SandboxState {
  /** every /transaction call and what became of it, in order */
  calls: SandboxCall[];
  accounts: Map<string, SandboxAccount>;
  txns: Map<string, Txn>;
  inquiries: Map<string, Inquiry>;
  /** every /transaction body, as parsed, in order */
  requests: Record<string, unknown>[];
  /** ref_ids answered with a refusal (nothing formed) */
  refused: Set<string>;
  /** ref_ids refused once and formed by a later send: the trap sprung */
  trapSprung: string[];
  /** re-sends of a ref_id within a minute of its previous send (the documentation asks for none) */
  earlyResends: string[];
  /** the last full price-list fetch per username and cmd (ms) */
  fullListAt: Map<string, number>;
  /** every whole price-list request, in order: served (its window opened) or refused (rc 83) */
  fullLists: { username: string; cmd: string; at: number; result: "served" | "refused" }[];
}

export function createState(accounts: SandboxAccount[]): SandboxState {
  return {
    accounts: new Map(accounts.map((a) => [a.username, a])),
    calls: [],
    txns: new Map(),
    inquiries: new Map(),
    requests: [],
    refused: new Set(),
    trapSprung: [],
    earlyResends: [],
    fullListAt: new Map(),
    fullLists: [],
  };
}

const key = (username: string, refId: string) => `${username}\u0000${refId}`;
export const txnKey = key;
