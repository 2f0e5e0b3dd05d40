import { type Api, GrammyError } from "grammy";
import type {
  Notification,
  NotificationPayload,
  NotificationSender,
  SendResult,
} from "../../commerce/notifications/outbox.ts";
import { findUser, markBlocked } from "../../commerce/users.ts";
import type { Database } from "../../db/client.ts";
import type { Logger } from "../../logger.ts";
import { type Translate, type TranslationSource, translator } from "../ui/i18n.ts";

// the outbox's last step: one notification, drawn by the renderer of its kind. Renderers
// live in the feature that owns the kind (an order's result in purchase/, a QR's end in
// deposits/, a drift alert in reconciliation/, …) and are handed in as one record
// (src/bot/renderers.ts), so this sender knows no feature and does no commerce.

type NotificationKind = NotificationPayload["type"];

/** a notification of one kind, its payload narrowed */
export type NotificationOf<K extends NotificationKind> = Notification & {
  payload: Extract<NotificationPayload, { type: K }>;
};

/** what a renderer may use besides its own feature's dependencies */
export interface RenderEnv {
  /** the bot's api (bot.api: with auto-retry for 429s) */
  api: Api;
  db: Database;
  logger?: Logger | undefined;
  /** a translator for the language this user chose */
  languageOf(userId: number): Promise<Translate>;
  /**
   * admin cards (with their buttons) go to admin chats only, whatever the row says: false
   * (and a warning) for any other chat
   */
  forAdmins(n: Notification): boolean;
}

type Renderer<K extends NotificationKind> = (n: NotificationOf<K>, env: RenderEnv) => Promise<void>;

/** one renderer for every kind the outbox holds */
export type NotificationRenderers = { [K in NotificationKind]: Renderer<K> };

export interface NotificationSenderDeps {
  api: Api;
  db: Database;
  i18n: TranslationSource;
  /** admin notices (deposit requests, flagged orders) are delivered to these chats only */
  adminIds: readonly number[];
  logger?: Logger | undefined;
  renderers: NotificationRenderers;
}

function isGone(err: unknown): boolean {
  if (!(err instanceof GrammyError)) return false;
  if (err.error_code === 403) return true;
  return err.error_code === 400 && /chat not found|user is deactivated/i.test(err.description);
}

/**
 * delivers one outbox notification. Returns "gone" when the chat can never receive it (the
 * user blocked the bot: they are marked so broadcasts skip them); throws on anything worth
 * retrying. A notification recovered after a crash only does what is safe to repeat:
 * editing in place, and sending what the user must not miss (a result without a message);
 * each renderer reads `recovered` for that.
 */
export function createNotificationSender(deps: NotificationSenderDeps): NotificationSender {
  const env: RenderEnv = {
    api: deps.api,
    db: deps.db,
    logger: deps.logger,
    async languageOf(userId) {
      const user = await findUser(deps.db, userId);
      return translator(deps.i18n, user?.language ?? "id");
    },
    forAdmins(n) {
      if (deps.adminIds.includes(n.chatId)) return true;
      deps.logger?.warn({ key: n.key }, "admin notice for a chat that is not an admin's dropped");
      return false;
    },
  };
  return async (n): Promise<SendResult> => {
    // the record holds one renderer per kind; the kind's own payload is what it is given
    const render = deps.renderers[n.payload.type] as Renderer<NotificationKind>;
    try {
      await render(n as NotificationOf<NotificationKind>, env);
      return "sent";
    } catch (err) {
      if (!isGone(err)) throw err;
      if (n.chatId > 0) await markBlocked(deps.db, n.chatId);
      return "gone";
    }
  };
}
