import type { Params } from "../params.ts";
import type { BotState } from "../state.ts";
import type { WebhookDeliverer } from "../webhook.ts";
import type { World } from "../world.ts";

export interface MethodContext {
  world: World;
  bot: BotState;
  params: Params;
  webhooks: WebhookDeliverer;
  /** aborts when the HTTP client goes away; long polls stop waiting then */
  signal: AbortSignal;
}

/** a result with Telegram's optional human-readable `description` next to it */
export class Described {
  constructor(
    readonly result: unknown,
    readonly description: string,
  ) {}
}

type MethodHandler = (ctx: MethodContext) => unknown;

/** method tables are keyed by lowercase name: Telegram's method names are case-insensitive */
export type MethodTable = Record<string, MethodHandler>;
