// a local Telegram Bot API server (the methods a shop bot uses, users acted through a control
// API) and its chat page: a Telegram-like chat in the browser. Depends on nothing of kios.

export {
  createPlaygroundRoutes,
  type PlaygroundConfig,
  type PlaygroundOptions,
  type PlaygroundUser,
} from "./src/chat-page.ts";
export type {
  BotOption,
  BotSummary,
  Control,
  Pressed,
  SendOptions,
  Sent,
  UserProfile,
} from "./src/control.ts";
export { ControlError } from "./src/control.ts";
export type { ChosenResult, InlineControl, InlineQuerySent } from "./src/control-inline.ts";
export type { LinkControl, OpenedLink } from "./src/control-links.ts";
export type { WebAppControl, WebAppFrom } from "./src/control-web-app.ts";
export { BotApiError, DESCRIPTIONS } from "./src/errors.ts";
export {
  type CheckInitDataOptions,
  checkInitData,
  checkInitDataSignature,
  type InitDataCheck,
  type InitDataFields,
  PLAYGROUND_WEB_APP_PUBLIC_KEY,
  type SignInitDataOptions,
  signInitData,
  type WebAppUser,
} from "./src/init-data.ts";
export { DEFAULT_RATE_LIMITS, type RateLimitSettings } from "./src/rate-limit.ts";
export {
  type BotApiServer,
  type BotApiServerOptions,
  type BotDefinition,
  createBotApiServer,
  DEFAULT_BOT,
  type RunningBotApiServer,
  startBotApiServer,
} from "./src/server.ts";
export type {
  CallbackAnswer,
  InlineAnswer,
  MessageRevision,
  StoredResult as InlineResult,
  WebAppSource,
} from "./src/state.ts";
export {
  BOT_API_PATH,
  maxRequestBytes,
  TELEGRAM_UPLOAD_LIMITS,
  type UploadLimits,
} from "./src/upload-limits.ts";
export type { ChatView, MessageView } from "./src/views.ts";
export {
  THEME_PARAMS,
  type ThemeParams,
  WEB_APP_PLATFORM,
  WEB_APP_VERSION,
  type WebAppLaunch,
} from "./src/web-app.ts";
export type { WebhookRetry } from "./src/webhook.ts";
