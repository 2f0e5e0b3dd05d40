import { DepositError, depositLimits, requestDeposit } from "../../commerce/wallet/deposits.ts";
import type { BotDeps } from "../deps.ts";
import { kick } from "../ui/kick.ts";
import type { DepositOutcome } from "./deposit-view.ts";

/**
 * a user asks to top up: the request is stored and every admin gets it (through the
 * outbox) with Confirm / Reject buttons. Returns plain JSON for conversations.
 */
export async function startDeposit(
  deps: BotDeps,
  userId: number,
  amount: number,
): Promise<DepositOutcome> {
  try {
    const d = await requestDeposit(deps.db, {
      userId,
      amount,
      clock: deps.clock,
      maxAmount: deps.config.maxAmount,
      adminIds: deps.config.adminIds,
    });
    await kick(deps);
    return {
      ok: true,
      deposit: {
        id: d.id,
        amount: d.amount,
        payAmount: d.payAmount,
        reference: d.reference,
        instructions: d.instructions,
        expiresAt: d.expiresAt.getTime(),
      },
    };
  } catch (err) {
    if (!(err instanceof DepositError)) throw err;
    return { ok: false, reason: err.reason, ...(await depositLimits(deps.db)) };
  }
}
