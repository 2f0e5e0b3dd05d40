import type { File } from "@grammyjs/types";
import { commitBotMessage, enforceRateLimit, protection, replyTarget } from "../chat-ops.ts";
import { badRequest } from "../errors.ts";
import type { FileStore } from "../files.ts";
import { CAPTION, formatText } from "../formatting.ts";
import { parseReplyMarkup } from "../keyboard.ts";
import {
  type InputFileRef,
  optInputFile,
  optJson,
  optString,
  type Params,
  requireChatId,
  requireString,
} from "../params.ts";
import type { MethodContext, MethodTable } from "./context.ts";

function requireFile(params: Params, name: string): InputFileRef {
  const ref = optInputFile(params, name);
  if (!ref) throw badRequest(`there is no ${name} in the request`);
  return ref;
}

function photoOf(files: FileStore, ref: InputFileRef) {
  if (ref.kind === "upload")
    return files.photo({ data: ref.file.data, filename: ref.file.filename });
  if (ref.kind === "url") return files.photo({ url: ref.url });
  return files.photoById(ref.fileId);
}

function documentOf(files: FileStore, ref: InputFileRef) {
  if (ref.kind === "upload") {
    // grammY uploads everything as application/octet-stream; the name says more
    const declared =
      ref.file.contentType === "application/octet-stream" ? undefined : ref.file.contentType;
    return files.document({ data: ref.file.data, filename: ref.file.filename }, declared);
  }
  if (ref.kind === "url") return files.document({ url: ref.url });
  return files.documentById(ref.fileId);
}

/** what every media send shares: chat, caption, keyboard, reply, rate limit */
function sendMedia(ctx: MethodContext, content: (files: FileStore) => object) {
  const { world, bot, params } = ctx;
  const chat = world.targetChat(bot, requireChatId(params));
  const caption = formatText(
    {
      text: optString(params, "caption"),
      parseMode: optString(params, "parse_mode"),
      entities: optJson(params, "caption_entities", "caption entities"),
    },
    CAPTION,
    world.entities,
  );
  const markup = parseReplyMarkup(optJson(params, "reply_markup", "reply keyboard markup"));
  const replyTo = replyTarget(params, chat);
  const media = content(world.files);
  enforceRateLimit(bot, chat.userId);
  return commitBotMessage(
    world,
    bot,
    chat,
    {
      ...media,
      ...(caption.text !== "" ? { caption: caption.text, caption_entities: caption.entities } : {}),
      ...protection(params),
    },
    markup,
    replyTo,
  );
}

function getFile(ctx: MethodContext): File {
  const fileId = requireString(ctx.params, "file_id");
  const file = ctx.world.files.get(fileId);
  if (!file) throw badRequest("invalid file_id");
  return {
    file_id: file.file_id,
    file_unique_id: file.file_unique_id,
    file_size: file.file_size,
    file_path: file.file_path,
  };
}

export const mediaMethods: MethodTable = {
  sendphoto: (ctx) => {
    const ref = requireFile(ctx.params, "photo");
    return sendMedia(ctx, (files) => ({ photo: photoOf(files, ref) }));
  },
  senddocument: (ctx) => {
    const ref = requireFile(ctx.params, "document");
    return sendMedia(ctx, (files) => ({ document: documentOf(files, ref) }));
  },
  getfile: getFile,
};
