export interface MultipartPart {
  name: string;
  filename?: string;
  contentType?: string;
  data: Uint8Array;
}

/** a multipart body that can't be read; the caller turns it into a 400 */
export class MultipartError extends Error {
  override name = "MultipartError";
}

/** the boundary from a content-type header, or undefined when it isn't multipart */
export function multipartBoundary(contentType: string): string | undefined {
  if (!/^multipart\/form-data/i.test(contentType)) return undefined;
  const match = /boundary=(?:"([^"]+)"|([^;\s]+))/i.exec(contentType);
  return match?.[1] ?? match?.[2];
}

function headerParam(header: string, key: string): string | undefined {
  // `(?:^|;)` keeps "name" from matching inside "filename"
  const re = new RegExp(`(?:^|;)\\s*${key}\\s*=\\s*(?:"([^"]*)"|([^;]*))`, "i");
  const match = re.exec(header);
  const value = match?.[1] ?? match?.[2];
  return value === undefined ? undefined : value.trim();
}

/**
 * a tolerant multipart/form-data parser. undici's own parser rejects what grammY sends
 * (`content-disposition:form-data;name="x";filename=photo.jpg`: no spaces, unquoted filename),
 * and Telegram accepts it, so this reads parts byte-wise and headers loosely.
 */
export function parseMultipart(body: Uint8Array, boundary: string): MultipartPart[] {
  const buf = Buffer.from(body.buffer, body.byteOffset, body.byteLength);
  const delimiter = Buffer.from(`--${boundary}`);
  const separator = Buffer.from(`\r\n--${boundary}`);
  const parts: MultipartPart[] = [];

  let pos = buf.indexOf(delimiter);
  if (pos < 0) throw new MultipartError("multipart boundary not found");
  for (;;) {
    pos += delimiter.length;
    // "--" after a delimiter closes the body
    if (buf[pos] === 0x2d && buf[pos + 1] === 0x2d) break;
    while (buf[pos] === 0x20 || buf[pos] === 0x09) pos++;
    if (buf[pos] === 0x0d && buf[pos + 1] === 0x0a) pos += 2;
    else if (pos >= buf.length) break;

    const headerEnd = buf.indexOf("\r\n\r\n", pos);
    if (headerEnd < 0) throw new MultipartError("unterminated multipart headers");
    const next = buf.indexOf(separator, headerEnd + 4);
    if (next < 0) throw new MultipartError("unterminated multipart part");

    const headers = new Map<string, string>();
    for (const line of buf.toString("utf8", pos, headerEnd).split("\r\n")) {
      const colon = line.indexOf(":");
      if (colon > 0)
        headers.set(line.slice(0, colon).trim().toLowerCase(), line.slice(colon + 1).trim());
    }
    const disposition = headers.get("content-disposition") ?? "";
    const name = headerParam(disposition, "name");
    if (name !== undefined) {
      const filename = headerParam(disposition, "filename");
      const contentType = headers.get("content-type");
      parts.push({
        name,
        filename,
        contentType,
        data: new Uint8Array(buf.subarray(headerEnd + 4, next)),
      });
    }
    // `next` points at "\r\n--boundary"; step to "--boundary"
    pos = next + 2;
  }
  return parts;
}
