import { request as httpRequest } from "node:http";
import { listen, type RunningServer } from "@kios/kit";
import { Hono } from "hono";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { bodyText, bodyWithin, jsonBody } from "../../src/server/body.ts";
import type { AppEnv } from "../../src/server/create-server.ts";

// a body read the short way (src/server/body.ts) reads as Hono's own reader would: the same
// text, the same limit, whether its length is declared or it comes chunked

/** a POST over real HTTP, its length declared (whole) or not (node sends it chunked) */
function post(
  url: string,
  body: Buffer,
  how: "whole" | "chunked",
): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(url, { method: "POST" }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (d: Buffer) => chunks.push(d));
      res.on("end", () =>
        resolve({ status: res.statusCode ?? 0, text: Buffer.concat(chunks).toString("utf8") }),
      );
    });
    req.on("error", reject);
    if (how === "whole") {
      req.end(body);
      return;
    }
    // split inside a multi-byte character: the text must come out whole all the same
    for (let at = 0; at < body.length; at += 3) req.write(body.subarray(at, at + 3));
    req.end();
  });
}

describe("a request body read from node's request", () => {
  let server: RunningServer;
  let base: string;
  beforeAll(async () => {
    const app = new Hono<AppEnv>()
      .use(bodyWithin<AppEnv>(100, (c) => c.json({ error: "too_large" }, 413)))
      .post("/text", async (c) => c.text(await bodyText(c)))
      .post("/json", async (c) => {
        try {
          return c.json({ parsed: await jsonBody(c) });
        } catch {
          return c.json({ error: "not_json" }, 400);
        }
      })
      .get("/text", (c) => c.text("get"));
    server = await listen(app, 0, "127.0.0.1");
    base = `http://127.0.0.1:${server.port}`;
  });
  afterAll(() => server?.close());

  for (const how of ["whole", "chunked"] as const) {
    it(`${how}: the text as sent, a byte order mark dropped, and the limit kept`, async () => {
      const text = "harga Rp10.000 — 🙂 ok";
      expect(await post(`${base}/text`, Buffer.from(text), how)).toEqual({ status: 200, text });
      const bom = Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('{"a":1}')]);
      expect(await post(`${base}/json`, bom, how)).toEqual({
        status: 200,
        text: '{"parsed":{"a":1}}',
      });
      expect((await post(`${base}/json`, Buffer.from("{not json"), how)).status).toBe(400);
      expect((await post(`${base}/text`, Buffer.alloc(100, 120), how)).status).toBe(200);
      expect((await post(`${base}/text`, Buffer.alloc(101, 120), how)).status).toBe(413);
    });
  }

  it("a GET passes the limit and reads nothing", async () => {
    expect(await (await fetch(`${base}/text`)).text()).toBe("get");
  });
});
