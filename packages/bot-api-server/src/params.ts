import { badRequest } from "./errors.ts";
import { MultipartError, multipartBoundary, parseMultipart } from "./multipart.ts";
import { readBodyUpTo } from "./upload-limits.ts";

interface UploadedFile {
  filename: string;
  contentType: string;
  data: Uint8Array;
}

/**
 * a method call's parameters. like Telegram, query string and body are merged; JSON bodies keep
 * their native values while form and query values are strings, so accessors coerce both.
 */
export interface Params {
  readonly values: Readonly<Record<string, unknown>>;
  /** uploaded files by multipart field name (`attach://<name>` refers to them) */
  readonly files: ReadonlyMap<string, UploadedFile>;
}

export function paramsOf(values: Record<string, unknown>): Params {
  return { values, files: new Map() };
}

/**
 * reads query string and body (JSON, urlencoded or multipart) into one parameter set; a
 * body past `maxBodyBytes` is refused (413)
 */
export async function readParams(req: Request, maxBodyBytes: number): Promise<Params> {
  const values: Record<string, unknown> = {};
  const files = new Map<string, UploadedFile>();
  for (const [k, v] of new URL(req.url).searchParams) values[k] = v;

  if (req.method === "GET" || req.method === "HEAD") return { values, files };
  const contentType = req.headers.get("content-type") ?? "";
  const boundary = multipartBoundary(contentType);
  if (boundary !== undefined) {
    let parts: ReturnType<typeof parseMultipart>;
    try {
      parts = parseMultipart(await readBodyUpTo(req, maxBodyBytes), boundary);
    } catch (err) {
      if (err instanceof MultipartError)
        throw badRequest(`can't parse multipart body: ${err.message}`);
      throw err;
    }
    for (const part of parts) {
      if (part.filename !== undefined) {
        files.set(part.name, {
          filename: part.filename,
          contentType: part.contentType ?? "application/octet-stream",
          data: part.data,
        });
      } else {
        values[part.name] = Buffer.from(part.data).toString("utf8");
      }
    }
    return { values, files };
  }

  const text = Buffer.from(await readBodyUpTo(req, maxBodyBytes)).toString("utf8");
  if (text.trim() === "") return { values, files };
  if (/^application\/x-www-form-urlencoded/i.test(contentType)) {
    for (const [k, v] of new URLSearchParams(text)) values[k] = v;
    return { values, files };
  }
  // Telegram reads JSON whatever the declared type, as long as it is an object
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    if (/json/i.test(contentType)) throw badRequest("can't parse JSON object");
    for (const [k, v] of new URLSearchParams(text)) values[k] = v;
    return { values, files };
  }
  if (parsed === null || typeof parsed !== "object" || Array.isArray(parsed))
    throw badRequest("JSON object expected");
  Object.assign(values, parsed);
  return { values, files };
}

function raw(p: Params, name: string): unknown {
  const v = p.values[name];
  // an empty form value means "not given", like in the real API
  return v === null || v === "" ? undefined : v;
}

export function optString(p: Params, name: string): string | undefined {
  const v = raw(p, name);
  if (v === undefined) return undefined;
  if (typeof v === "string") return v;
  if (typeof v === "number" || typeof v === "boolean") return String(v);
  throw badRequest(`field "${name}" must be of type String`);
}

export function requireString(p: Params, name: string, missing?: string): string {
  const v = optString(p, name);
  if (v === undefined) throw badRequest(missing ?? `parameter "${name}" is required`);
  return v;
}

export function optInt(p: Params, name: string): number | undefined {
  const v = raw(p, name);
  if (v === undefined) return undefined;
  const n = typeof v === "number" ? v : typeof v === "string" ? Number(v.trim()) : Number.NaN;
  if (!Number.isSafeInteger(n)) throw badRequest(`field "${name}" must be of type Integer`);
  return n;
}

export function requireInt(p: Params, name: string, missing?: string): number {
  const v = optInt(p, name);
  if (v === undefined) throw badRequest(missing ?? `parameter "${name}" is required`);
  return v;
}

export function optBool(p: Params, name: string): boolean | undefined {
  const v = raw(p, name);
  if (v === undefined) return undefined;
  if (typeof v === "boolean") return v;
  if (typeof v === "number") return v !== 0;
  if (typeof v === "string") return v === "true" || v === "1" || v === "True";
  throw badRequest(`field "${name}" must be of type Boolean`);
}

/** an object/array parameter: native in JSON bodies, a JSON string in forms and query strings */
export function optJson(p: Params, name: string, what: string): unknown {
  const v = raw(p, name);
  if (v === undefined) return undefined;
  if (typeof v !== "string") return v;
  try {
    return JSON.parse(v);
  } catch {
    throw badRequest(`can't parse ${what} JSON object`);
  }
}

/** chat_id: an integer or an @username */
export function requireChatId(p: Params): number | string {
  const v = raw(p, "chat_id");
  if (v === undefined) throw badRequest("chat_id is empty");
  if (typeof v === "number" && Number.isSafeInteger(v)) return v;
  if (typeof v === "string") {
    const s = v.trim();
    if (/^-?\d+$/.test(s)) return Number(s);
    if (s.startsWith("@")) return s;
  }
  throw badRequest("chat not found");
}

export type InputFileRef =
  | { kind: "upload"; file: UploadedFile }
  | { kind: "url"; url: string }
  | { kind: "file_id"; fileId: string };

/** a file parameter: an upload (directly or via attach://), an HTTP URL or a file_id */
export function optInputFile(p: Params, name: string): InputFileRef | undefined {
  const direct = p.files.get(name);
  if (direct) return { kind: "upload", file: direct };
  const v = raw(p, name);
  if (v === undefined) return undefined;
  if (typeof v !== "string") throw badRequest(`field "${name}" must be of type String`);
  if (v.startsWith("attach://")) {
    const file = p.files.get(v.slice("attach://".length));
    if (!file) throw badRequest(`can't find attached file "${v.slice("attach://".length)}"`);
    return { kind: "upload", file };
  }
  if (/^https?:\/\//i.test(v)) return { kind: "url", url: v };
  return { kind: "file_id", fileId: v };
}
