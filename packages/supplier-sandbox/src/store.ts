import type { BillData } from "./bill-data.ts";
import type { OutcomeRule } from "./outcomes.ts";
import { formatWib } from "./time.ts";
import type {
  SandboxRefusal,
  SandboxRequest,
  SandboxTransaction,
  TransactionKind,
  TransactionState,
} from "./types.ts";

// transactions and inquiry sessions, keyed by account and ref_id (a ref_id is unique per
// account, as ref_id idempotency needs: docs/supplier.md#ref_id).

export interface StoredTransaction {
  apiId: string;
  kind: TransactionKind;
  refId: string;
  cmd: "prepaid" | "game" | "pay-pasca";
  code: string;
  name: string;
  customerNo: string;
  price: number;
  charged: number;
  testing: boolean;
  rule: OutcomeRule;
  status: TransactionState;
  /** the serial number, shown once the transaction succeeds */
  serial: string;
  createdAt: number;
  settleAt: number | null;
  /** when it became final (clock ms); null while pending */
  settledAt: number | null;
  /** secret of the key that placed it: it signs this transaction's callbacks */
  secretKey: string;
  bill?: BillData;
  callbacksDelivered: number;
}

export interface InquirySession {
  apiId: string;
  refId: string;
  code: string;
  customerNo: string;
  bill: BillData;
  createdAt: number;
  expiresAt: number;
}

export interface Store {
  transaction(apiId: string, refId: string): StoredTransaction | undefined;
  /** stores a new transaction and notes its creating request */
  addTransaction(t: StoredTransaction): void;
  /** notes a request answered with an existing transaction */
  noteRepeat(t: StoredTransaction, at: number): void;
  requests(): readonly SandboxRequest[];
  /** notes a new order declined with nothing formed */
  noteRefusal(r: SandboxRefusal): void;
  refusals(): readonly SandboxRefusal[];
  inquiry(apiId: string, refId: string): InquirySession | undefined;
  addInquiry(s: InquirySession): void;
  pending(): StoredTransaction[];
  all(): StoredTransaction[];
  /** a supplier-side reference for requests that came without one */
  newRefId(nowMs: number): string;
}

const key = (apiId: string, refId: string) => `${apiId}\u0000${refId}`;

export function createStore(): Store {
  const transactions = new Map<string, StoredTransaction>();
  const inquiries = new Map<string, InquirySession>();
  const requests: SandboxRequest[] = [];
  const refusals: SandboxRefusal[] = [];
  let sequence = 0;
  const note = (t: StoredTransaction, result: SandboxRequest["result"], at: number) =>
    requests.push({ apiId: t.apiId, refId: t.refId, cmd: t.cmd, result, at });
  return {
    transaction: (apiId, refId) => transactions.get(key(apiId, refId)),
    addTransaction(t) {
      transactions.set(key(t.apiId, t.refId), t);
      note(t, "created", t.createdAt);
    },
    noteRepeat: (t, at) => note(t, "repeat", at),
    requests: () => requests.map((r) => ({ ...r })),
    noteRefusal: (r) => refusals.push({ ...r }),
    refusals: () => refusals.map((r) => ({ ...r })),
    inquiry: (apiId, refId) => inquiries.get(key(apiId, refId)),
    addInquiry(s) {
      inquiries.set(key(s.apiId, s.refId), s);
    },
    pending: () => [...transactions.values()].filter((t) => t.status === "pending"),
    all: () => [...transactions.values()],
    newRefId(nowMs) {
      sequence += 1;
      return `TRX${formatWib(nowMs).replace(/\D/g, "")}${String(sequence).padStart(5, "0")}`;
    },
  };
}

export function snapshot(t: StoredTransaction): SandboxTransaction {
  return {
    apiId: t.apiId,
    kind: t.kind,
    refId: t.refId,
    cmd: t.cmd,
    code: t.code,
    customerNo: t.customerNo,
    status: t.status,
    price: t.price,
    charged: t.charged,
    testing: t.testing,
    sn: t.status === "success" ? t.serial : null,
    outcome: t.rule.name,
    createdAt: t.createdAt,
    settleAt: t.settleAt,
    settledAt: t.settledAt,
    callbacksDelivered: t.callbacksDelivered,
  };
}
