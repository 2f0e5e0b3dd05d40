import type { ResponseParameters } from "@grammyjs/types";

/** a Bot API failure: becomes `{ ok: false, error_code, description, parameters? }` with that HTTP status. */
export class BotApiError extends Error {
  override name = "BotApiError";

  constructor(
    readonly code: number,
    readonly description: string,
    readonly parameters?: ResponseParameters,
  ) {
    super(description);
  }
}

export const badRequest = (detail: string): BotApiError =>
  new BotApiError(400, `Bad Request: ${detail}`);

export const forbidden = (detail: string): BotApiError =>
  new BotApiError(403, `Forbidden: ${detail}`);

export const conflict = (detail: string): BotApiError =>
  new BotApiError(409, `Conflict: ${detail}`);

export const tooManyRequests = (retryAfter: number): BotApiError =>
  new BotApiError(429, `Too Many Requests: retry after ${retryAfter}`, { retry_after: retryAfter });

export const notFound = (detail?: string): BotApiError =>
  new BotApiError(404, detail ? `Not Found: ${detail}` : "Not Found");

export const unauthorized = (): BotApiError => new BotApiError(401, "Unauthorized");

/** the exact descriptions the real service uses, shared by methods and tests */
export const DESCRIPTIONS = {
  notModified:
    "message is not modified: specified new message content and reply markup are exactly the same as a current content and reply markup of the message",
  textEmpty: "message text is empty",
  textTooLong: "message is too long",
  captionTooLong: "message caption is too long",
  buttonDataInvalid: "BUTTON_DATA_INVALID",
  chatNotFound: "chat not found",
  messageToEditNotFound: "message to edit not found",
  messageToDeleteNotFound: "message to delete not found",
  webhookActive:
    "can't use getUpdates method while webhook is active; use deleteWebhook to delete the webhook first",
  otherGetUpdates:
    "terminated by other getUpdates request; make sure that only one bot instance is running",
  queryTooOld: "query is too old and response timeout expired or query ID is invalid",
} as const;
