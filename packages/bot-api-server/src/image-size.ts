export interface ImageInfo {
  format: "png" | "jpeg" | "gif" | "webp";
  width: number;
  height: number;
}

/** reads an image's dimensions from its header; undefined when it isn't a PNG, JPEG, GIF or WebP */
export function imageInfo(data: Uint8Array): ImageInfo | undefined {
  const b = Buffer.from(data.buffer, data.byteOffset, data.byteLength);
  if (b.length >= 24 && b.readUInt32BE(0) === 0x89504e47 && b.toString("ascii", 12, 16) === "IHDR")
    return { format: "png", width: b.readUInt32BE(16), height: b.readUInt32BE(20) };
  if (b.length >= 10 && b.toString("ascii", 0, 4) === "GIF8")
    return { format: "gif", width: b.readUInt16LE(6), height: b.readUInt16LE(8) };
  if (
    b.length >= 30 &&
    b.toString("ascii", 0, 4) === "RIFF" &&
    b.toString("ascii", 8, 12) === "WEBP"
  )
    return webp(b);
  if (b.length >= 4 && b[0] === 0xff && b[1] === 0xd8) return jpeg(b);
  return undefined;
}

function webp(b: Buffer): ImageInfo | undefined {
  const chunk = b.toString("ascii", 12, 16);
  if (chunk === "VP8X")
    return { format: "webp", width: 1 + b.readUIntLE(24, 3), height: 1 + b.readUIntLE(27, 3) };
  if (chunk === "VP8L") {
    const bits = b.readUInt32LE(21);
    return { format: "webp", width: 1 + (bits & 0x3fff), height: 1 + ((bits >> 14) & 0x3fff) };
  }
  if (chunk === "VP8 ")
    return {
      format: "webp",
      width: b.readUInt16LE(26) & 0x3fff,
      height: b.readUInt16LE(28) & 0x3fff,
    };
  return undefined;
}

function jpeg(b: Buffer): ImageInfo | undefined {
  let pos = 2;
  while (pos + 9 < b.length) {
    if (b[pos] !== 0xff) return undefined;
    const marker = b[pos + 1]!;
    // fill bytes and standalone markers carry no length
    if (marker === 0xff) {
      pos++;
      continue;
    }
    if (marker === 0xd8 || (marker >= 0xd0 && marker <= 0xd7)) {
      pos += 2;
      continue;
    }
    const length = b.readUInt16BE(pos + 2);
    // start-of-frame markers hold the size; c4, c8 and cc are other tables
    if (marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc)
      return { format: "jpeg", height: b.readUInt16BE(pos + 5), width: b.readUInt16BE(pos + 7) };
    pos += 2 + length;
  }
  return undefined;
}
