export type {
  BotOption,
  BotSummary,
  Control,
  Pressed,
  SendOptions,
  Sent,
  UserProfile,
} from "./control.ts";
export { ControlError } from "./control.ts";
export { BotApiError, DESCRIPTIONS } from "./errors.ts";
export { DEFAULT_RATE_LIMITS, type RateLimitSettings } from "./rate-limit.ts";
export {
  type BotApiServer,
  type BotApiServerOptions,
  type BotDefinition,
  createBotApiServer,
  DEFAULT_BOT,
  type RunningBotApiServer,
  startBotApiServer,
} from "./server.ts";
export type { CallbackAnswer, MessageRevision } from "./state.ts";
export type { ChatView, MessageView } from "./views.ts";
export type { WebhookRetry } from "./webhook.ts";
