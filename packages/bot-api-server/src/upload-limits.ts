import { BotApiError } from "./errors.ts";

// what Telegram takes in one multipart upload: a photo up to 10 MB, any other file up to
// 50 MB (core.telegram.org/bots/api#sending-files). A request past what its file may be is
// refused as Telegram's front does, 413 `Request Entity Too Large`, without reading it all.

export interface UploadLimits {
  /** the largest photo sendPhoto takes */
  photoBytes: number;
  /** the largest file of any other kind (sendDocument) */
  fileBytes: number;
}

export const TELEGRAM_UPLOAD_LIMITS: Readonly<UploadLimits> = Object.freeze({
  photoBytes: 10 * 1024 * 1024,
  fileBytes: 50 * 1024 * 1024,
});

/** a multipart request's other fields and boundaries, on top of its largest file */
const MULTIPART_ALLOWANCE_BYTES = 1024 * 1024;

/** the largest request body a method call may have under these limits */
export function maxRequestBytes(limits: UploadLimits): number {
  return Math.max(limits.photoBytes, limits.fileBytes) + MULTIPART_ALLOWANCE_BYTES;
}

/** the Bot API's own paths (/bot<token>/<method>, /file/bot<token>/…): where uploads go */
export const BOT_API_PATH = /^\/(?:file\/)?bot[^/]*\//;

const requestTooLarge = (): BotApiError => new BotApiError(413, "Request Entity Too Large");

/** past the limit, how much more of a streamed body is read (and dropped) before hanging up */
const DRAIN_FACTOR = 4;

/**
 * the body, kept up to `maxBytes`. A declared length past it is refused at once; a streamed
 * body (grammY sends no length) is counted as it arrives, and one that passes the limit is
 * read to its end without being kept, so its client gets the 413 rather than a reset
 * connection (one far past it is cut off)
 */
export async function readBodyUpTo(req: Request, maxBytes: number): Promise<Uint8Array> {
  const declared = Number(req.headers.get("content-length") ?? Number.NaN);
  if (declared > maxBytes) throw requestTooLarge();
  if (!req.body) return new Uint8Array();
  const chunks: Uint8Array[] = [];
  let size = 0;
  const reader = req.body.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size <= maxBytes) chunks.push(value);
    else if (size > maxBytes * DRAIN_FACTOR) {
      await reader.cancel();
      break;
    }
  }
  if (size > maxBytes) throw requestTooLarge();
  return Buffer.concat(chunks);
}
