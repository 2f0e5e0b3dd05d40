import { Bot, InputFile } from "grammy";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type RunningBotApiServer, TELEGRAM_UPLOAD_LIMITS } from "../index.ts";
import { pngHeader, start, TOKEN } from "./helpers.ts";

// what one upload may weigh, as Telegram takes it: a photo up to 10 MB, a document up to
// 50 MB; past that a photo is refused, and a body larger than any file may be gets 413
// before it is read. Over real HTTP, from grammY's own multipart encoding.

const MB = 1024 * 1024;

/** a PNG of these sides padded to `bytes` (the server reads only its header) */
function pngOf(bytes: number, width = 600, height = 4_700): Buffer {
  const png = Buffer.alloc(bytes);
  Buffer.from(pngHeader(width, height)).copy(png);
  return png;
}

describe("uploads as Telegram takes them", () => {
  let server: RunningBotApiServer;
  let bot: Bot;
  beforeAll(async () => {
    server = await start();
    server.user(42, { first_name: "Budi" });
    server.sendText(42, "/start");
    bot = new Bot(TOKEN, { client: { apiRoot: server.url } });
  });
  afterAll(() => server.close());

  it("takes a photo of a few hundred kilobytes and one just under 10 MB", async () => {
    // a 150-row price list draws to about 300 KB
    const list = await bot.api.sendPhoto(42, new InputFile(pngOf(300 * 1024), "harga.png"));
    // Telegram's largest size of a tall photo is 2,560 px high
    expect(list.photo.at(-1)).toMatchObject({ height: 2_560 });
    const big = await bot.api.sendPhoto(42, new InputFile(pngOf(10 * MB - 1024), "big.png"));
    expect(big.photo.length).toBeGreaterThan(0);
  });

  it("refuses a photo past 10 MB, which as a document passes", async () => {
    const png = pngOf(TELEGRAM_UPLOAD_LIMITS.photoBytes + 1);
    await expect(bot.api.sendPhoto(42, new InputFile(png, "huge.png"))).rejects.toThrow(
      "Bad Request: PHOTO_SAVE_FILE_INVALID",
    );
    const doc = await bot.api.sendDocument(42, new InputFile(png, "huge.png"));
    expect(doc.document.file_size).toBe(png.length);
  });

  it("answers 413 to a body larger than any upload may be", async () => {
    // declared: refused before a byte of it is read
    const declared = await fetch(`${server.url}/bot${TOKEN}/sendDocument`, {
      method: "POST",
      headers: { "content-type": "multipart/form-data; boundary=x" },
      body: Buffer.alloc(52 * MB),
    });
    expect(declared.status).toBe(413);
    expect(await declared.json()).toEqual({
      ok: false,
      error_code: 413,
      description: "Request Entity Too Large",
    });
  });

  it("counts a streamed body as it arrives (grammY sends no length)", async () => {
    const small = await start({ uploadLimits: { photoBytes: 64 * 1024, fileBytes: 64 * 1024 } });
    try {
      small.user(42, { first_name: "Budi" });
      small.sendText(42, "/start");
      const api = new Bot(TOKEN, { client: { apiRoot: small.url } }).api;
      await expect(
        api.sendDocument(42, new InputFile(Buffer.alloc(2 * MB), "big.bin")),
      ).rejects.toThrow("Request Entity Too Large");
      // the server goes on answering
      const doc = await api.sendDocument(42, new InputFile(Buffer.from("ok"), "ok.txt"));
      expect(doc.document.file_size).toBe(2);
    } finally {
      await small.close();
    }
  });
});
