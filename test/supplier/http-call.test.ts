import { once } from "node:events";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { gzipSync } from "node:zlib";
import { afterEach, describe, expect, it } from "vitest";
import { createHttpCall, MAX_ANSWER_BYTES } from "../../src/supplier/http-call.ts";

// the supplier's requests over node:http, against a real local server

let server: Server | undefined;
afterEach(async () => {
  const open = server;
  server = undefined;
  if (!open) return;
  open.closeAllConnections();
  await new Promise((resolve) => open.close(resolve));
});

async function serve(handler: (req: IncomingMessage, body: string, res: ServerResponse) => void) {
  const connections: unknown[] = [];
  server = createServer((req, res) => {
    let body = "";
    req.setEncoding("utf8");
    req.on("data", (c: string) => {
      body += c;
    });
    req.on("end", () => handler(req, body, res));
  });
  server.on("connection", (socket) => connections.push(socket));
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}`, connections };
}

const timeout = () => AbortSignal.timeout(10_000);

describe("createHttpCall", () => {
  it("sends the method, headers and body, and reads the status, headers and whole text", async () => {
    const seen: { method?: string; type?: string; length?: string; agent?: string; body?: string } =
      {};
    const { url } = await serve((req, body, res) => {
      Object.assign(seen, {
        method: req.method,
        type: req.headers["content-type"],
        length: req.headers["content-length"],
        agent: req.headers["user-agent"],
        body,
      });
      res.writeHead(201, { "content-type": "application/json", deprecation: "@1700000000" });
      res.write('{"code":"OK",');
      res.end('"message":"héllo"}');
    });
    const call = createHttpCall();
    const body = JSON.stringify({ name: "Budi Śantoso" });
    const reply = await call(`${url}/v1/order`, {
      method: "POST",
      headers: { "content-type": "application/json; charset=utf-8" },
      body,
      signal: timeout(),
    });
    expect(seen).toEqual({
      method: "POST",
      type: "application/json; charset=utf-8",
      length: String(Buffer.byteLength(body)),
      agent: "kios",
      body,
    });
    expect(reply.status).toBe(201);
    expect(reply.text).toBe('{"code":"OK","message":"héllo"}');
    expect(reply.headers.get("Deprecation")).toBe("@1700000000");
    expect(reply.headers.get("sunset")).toBeNull();
  });

  it("keeps its connection for the next request", async () => {
    const { url, connections } = await serve((_req, _body, res) => res.end("{}"));
    const call = createHttpCall();
    for (let i = 0; i < 3; i++) {
      await call(`${url}/balance`, { method: "POST", headers: {}, body: "{}", signal: timeout() });
    }
    expect(connections).toHaveLength(1);
  });

  it("decodes a gzip answer", async () => {
    const { url } = await serve((_req, _body, res) => {
      res.writeHead(200, { "content-encoding": "gzip" });
      res.end(gzipSync('{"code":"SUCCESS"}'));
    });
    const reply = await createHttpCall()(`${url}/`, {
      method: "GET",
      headers: {},
      signal: timeout(),
    });
    expect(reply.text).toBe('{"code":"SUCCESS"}');
  });

  it("does not follow a redirect: the 3xx is the answer", async () => {
    const paths: string[] = [];
    const { url } = await serve((req, _body, res) => {
      paths.push(req.url ?? "");
      res.writeHead(307, { location: "/elsewhere" });
      res.end();
    });
    const reply = await createHttpCall()(`${url}/order`, {
      method: "POST",
      headers: {},
      body: "{}",
      signal: timeout(),
    });
    expect(reply.status).toBe(307);
    expect(paths).toEqual(["/order"]);
  });

  it("rejects when aborted while the answer is still coming", async () => {
    const aborter = new AbortController();
    const { url } = await serve((_req, _body, res) => {
      res.writeHead(200);
      res.write('{"code":');
      // the headers and a first byte are out: the client gives up while it reads
      aborter.abort();
    });
    await expect(
      createHttpCall()(`${url}/`, { method: "GET", headers: {}, signal: aborter.signal }),
    ).rejects.toThrow();
    expect(aborter.signal.aborted).toBe(true);
  });

  it("refuses an answer larger than it keeps, sent as it is or compressed", async () => {
    const { url } = await serve((req, _body, res) => {
      if (req.url === "/gzip") {
        res.writeHead(200, { "content-encoding": "gzip" });
        res.end(gzipSync(Buffer.alloc(MAX_ANSWER_BYTES + 1, "a")));
        return;
      }
      res.writeHead(200);
      const chunk = Buffer.alloc(2 ** 20, "a");
      const more = () => {
        // until the client gives up
        while (res.write(chunk)) {}
        res.once("drain", more);
      };
      res.on("close", () => res.removeAllListeners("drain"));
      more();
    });
    const call = createHttpCall();
    await expect(
      call(`${url}/plain`, { method: "GET", headers: {}, signal: timeout() }),
    ).rejects.toMatchObject({ code: "ANSWER_TOO_LARGE" });
    await expect(
      call(`${url}/gzip`, { method: "GET", headers: {}, signal: timeout() }),
    ).rejects.toMatchObject({ code: "ANSWER_TOO_LARGE" });
  });

  it("rejects with the socket's code when nothing listens", async () => {
    const { url } = await serve(() => {});
    server?.close();
    await once(server!, "close");
    server = undefined;
    await expect(
      createHttpCall()(`${url}/`, { method: "GET", headers: {}, signal: timeout() }),
    ).rejects.toMatchObject({ code: "ECONNREFUSED" });
  });
});
