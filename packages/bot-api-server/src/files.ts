import { randomBytes } from "node:crypto";
import type { Document, PhotoSize, Sticker } from "@grammyjs/types";
import { badRequest } from "./errors.ts";
import { imageInfo } from "./image-size.ts";
import type { UploadLimits } from "./upload-limits.ts";

type FileKind = "photo" | "document" | "sticker";

interface StoredFile {
  file_id: string;
  file_unique_id: string;
  kind: FileKind;
  file_path: string;
  file_size?: number;
  /** the bytes, for uploads; URL files are never downloaded (no internet here) */
  data?: Uint8Array;
  url?: string;
  mime_type?: string;
  file_name?: string;
}

type FileSource = { data: Uint8Array; filename?: string } | { url: string };

export interface FileStore {
  /** a photo in Telegram's usual sizes; uploads must be real images */
  photo(source: FileSource): PhotoSize[];
  document(source: FileSource, mimeType?: string): Document;
  sticker(emoji?: string): Sticker;
  /** an existing photo's sizes by any of its file_ids */
  photoById(fileId: string): PhotoSize[];
  documentById(fileId: string): Document;
  get(fileId: string): StoredFile | undefined;
  byPath(path: string): StoredFile | undefined;
  clear(): void;
}

// a 1×1 PNG standing in for what a playground user "sends"
export const PLACEHOLDER_PNG = Buffer.from(
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==",
  "base64",
);

// Telegram's thumbnail sides (s, m, x, y) and its largest photo side
const PHOTO_SIDES = [90, 320, 800, 1280];
const PHOTO_MAX_SIDE = 2560;

const MIME_BY_EXTENSION: Record<string, string> = {
  pdf: "application/pdf",
  txt: "text/plain",
  csv: "text/csv",
  json: "application/json",
  html: "text/html",
  zip: "application/zip",
  png: "image/png",
  jpg: "image/jpeg",
  jpeg: "image/jpeg",
  gif: "image/gif",
  webp: "image/webp",
  mp4: "video/mp4",
};

const ID_PREFIX: Record<FileKind, string> = {
  photo: "AgACAgUAAxk",
  document: "BQACAgUAAxk",
  sticker: "CAACAgUAAxk",
};

function kindName(kind: FileKind): string {
  return kind === "photo" ? "Photo" : kind === "document" ? "Document" : "Sticker";
}

export function createFileStore(limits: Readonly<UploadLimits>): FileStore {
  const files = new Map<string, StoredFile>();
  const byPath = new Map<string, StoredFile>();
  // every size of a photo points at the whole set, so a file_id re-sends all sizes
  const photoSets = new Map<string, PhotoSize[]>();
  let counter = 0;

  const ids = (kind: FileKind) => ({
    file_id: `${ID_PREFIX[kind]}${randomBytes(24).toString("base64url")}`,
    file_unique_id: `AQAD${randomBytes(9).toString("base64url")}`,
  });

  const store = (file: StoredFile) => {
    files.set(file.file_id, file);
    byPath.set(file.file_path, file);
    return file;
  };

  const lookup = (fileId: string, kind: FileKind) => {
    const file = files.get(fileId);
    if (!file) throw badRequest("wrong file identifier/HTTP URL specified");
    if (file.kind !== kind)
      throw badRequest(`can't use file of type ${kindName(file.kind)} as ${kindName(kind)}`);
    return file;
  };

  const documentOf = (f: StoredFile): Document => ({
    file_id: f.file_id,
    file_unique_id: f.file_unique_id,
    file_name: f.file_name,
    mime_type: f.mime_type,
    file_size: f.file_size,
  });

  return {
    photo(source) {
      let width = 0;
      let height = 0;
      // Telegram re-encodes photos as JPEG; these bytes are served as they came
      let mimeType = "image/jpeg";
      if ("data" in source) {
        // what Telegram answers a photo past its 10 MB (sent as a document, it would pass)
        if (source.data.byteLength > limits.photoBytes) throw badRequest("PHOTO_SAVE_FILE_INVALID");
        const info = imageInfo(source.data);
        if (!info || info.width === 0 || info.height === 0)
          throw badRequest("IMAGE_PROCESS_FAILED");
        if (
          info.width + info.height > 10000 ||
          Math.max(info.width / info.height, info.height / info.width) > 20
        )
          throw badRequest("PHOTO_INVALID_DIMENSIONS");
        width = info.width;
        height = info.height;
        mimeType = `image/${info.format}`;
      }
      const longest = Math.max(width, height);
      const sides = [...PHOTO_SIDES.filter((s) => s < longest), Math.min(longest, PHOTO_MAX_SIDE)];
      const n = ++counter;
      const sizes: PhotoSize[] = sides.map((side, i) => {
        const scale = longest === 0 ? 1 : side / longest;
        const size =
          "data" in source
            ? Math.max(1, Math.round(source.data.byteLength * scale * scale))
            : undefined;
        const file = store({
          ...ids("photo"),
          kind: "photo",
          file_path: `photos/file_${n}_${i}.jpg`,
          file_size: size,
          ...("data" in source ? { data: source.data } : { url: source.url }),
          mime_type: mimeType,
        });
        return {
          file_id: file.file_id,
          file_unique_id: file.file_unique_id,
          width: Math.round(width * scale),
          height: Math.round(height * scale),
          file_size: size,
        };
      });
      for (const s of sizes) photoSets.set(s.file_id, sizes);
      return sizes;
    },

    document(source, mimeType) {
      const n = ++counter;
      const name =
        "data" in source
          ? (source.filename ?? "document.dat")
          : decodeURIComponent(new URL(source.url).pathname.split("/").pop() || "file");
      const extension = name.includes(".") ? name.split(".").pop()!.toLowerCase() : "";
      const file = store({
        ...ids("document"),
        kind: "document",
        file_path: `documents/file_${n}${extension ? `.${extension}` : ""}`,
        file_name: name,
        mime_type: mimeType ?? MIME_BY_EXTENSION[extension] ?? "application/octet-stream",
        ...("data" in source
          ? { data: source.data, file_size: source.data.byteLength }
          : { url: source.url }),
      });
      return documentOf(file);
    },

    sticker(emoji = "😀") {
      const n = ++counter;
      const file = store({
        ...ids("sticker"),
        kind: "sticker",
        file_path: `stickers/file_${n}.webp`,
        data: PLACEHOLDER_PNG,
        file_size: PLACEHOLDER_PNG.byteLength,
        mime_type: "image/png",
      });
      return {
        file_id: file.file_id,
        file_unique_id: file.file_unique_id,
        type: "regular",
        width: 512,
        height: 512,
        is_animated: false,
        is_video: false,
        emoji,
        file_size: PLACEHOLDER_PNG.byteLength,
      };
    },

    photoById(fileId) {
      lookup(fileId, "photo");
      return photoSets.get(fileId) ?? [];
    },

    documentById(fileId) {
      return documentOf(lookup(fileId, "document"));
    },

    get: (fileId) => files.get(fileId),
    byPath: (path) => byPath.get(path),
    clear() {
      files.clear();
      byPath.clear();
      photoSets.clear();
    },
  };
}
