import type {
  CreatedPayment,
  GatewayPaymentStatus,
  PaymentGateway,
  PaymentState,
} from "../../src/gateway/types.ts";
import { GatewayError } from "../../src/gateway/types.ts";

/** a gateway in memory, driven by the test: what each payment is, and what goes wrong */
export interface FakeGateway extends PaymentGateway {
  readonly payments: Map<string, { amount: number; state: PaymentState; paidAmount?: number }>;
  /** the buyer paid (another amount: a mismatch) */
  pay(orderId: string, amount?: number): void;
  set(orderId: string, state: PaymentState): void;
  /** the next createPayment makes the payment but its answer is lost (a timeout) */
  loseNextCreateAnswer(): void;
  /** the next createPayment is refused outright: nothing is made */
  refuseNextCreate(): void;
  /** the status API fails until told otherwise */
  statusDown: boolean;
  /** called while createPayment is under way: the payment exists, its answer is not back yet */
  onCreate?: (orderId: string) => Promise<void>;
  calls: { create: number; status: number; cancel: number };
}

export function createFakeGateway(): FakeGateway {
  const payments: FakeGateway["payments"] = new Map();
  let loseAnswer = false;
  let refuse = false;
  const statusOf = (orderId: string): GatewayPaymentStatus => {
    const p = payments.get(orderId);
    if (!p) return { orderId, state: "not_found", raw: "404" };
    return {
      orderId,
      state: p.state,
      amount: p.paidAmount ?? p.amount,
      transactionId: `trx-${orderId}`,
      raw: p.state,
    };
  };
  const gateway: FakeGateway = {
    name: "fake",
    chargeTimeoutMs: 15_000,
    payments,
    statusDown: false,
    calls: { create: 0, status: 0, cancel: 0 },
    async createPayment(r): Promise<CreatedPayment> {
      gateway.calls.create++;
      if (refuse) {
        refuse = false;
        throw new GatewayError("charge refused (400)", false, 400);
      }
      payments.set(r.orderId, { amount: r.amount, state: "pending" });
      await gateway.onCreate?.(r.orderId);
      if (loseAnswer) {
        loseAnswer = false;
        throw new GatewayError("timeout", true);
      }
      return {
        orderId: r.orderId,
        transactionId: `trx-${r.orderId}`,
        qrString: `00020101021226QRIS${r.orderId}54${r.amount}`,
        expiresAt: new Date(Date.now() + r.expiresInMinutes * 60_000),
      };
    },
    async status(orderId) {
      gateway.calls.status++;
      if (gateway.statusDown) throw new GatewayError("status: HTTP 503", true, 503);
      return statusOf(orderId);
    },
    async cancel(orderId) {
      gateway.calls.cancel++;
      const p = payments.get(orderId);
      if (p && p.state === "pending") p.state = "cancelled";
      return statusOf(orderId);
    },
    verifyReport: () => undefined,
    pay(orderId, amount) {
      const p = payments.get(orderId);
      if (!p) throw new Error(`no payment ${orderId}`);
      p.state = "paid";
      if (amount !== undefined) p.paidAmount = amount;
    },
    set(orderId, state) {
      const p = payments.get(orderId);
      if (!p) throw new Error(`no payment ${orderId}`);
      p.state = state;
    },
    loseNextCreateAnswer() {
      loseAnswer = true;
    },
    refuseNextCreate() {
      refuse = true;
    },
  };
  return gateway;
}
