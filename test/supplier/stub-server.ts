import { createServer, type IncomingHttpHeaders } from "node:http";
import type { AddressInfo } from "node:net";

// a tiny stand-in for the supplier: each request is handed to a function that decides the
// reply, so a test can script codes, faults and hangs and count what arrived.

export interface StubRequest {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  raw: string;
  body: Record<string, unknown>;
}

export type StubReply =
  | { status?: number; json: unknown; headers?: Record<string, string> }
  | { status?: number; text: string }
  | { hang: true }
  | { destroy: true };

export interface Stub {
  /** base URL ending in /v1 */
  url: string;
  requests: StubRequest[];
  close(): Promise<void>;
}

export function envelope(code: string, data: unknown = null, extra: Record<string, unknown> = {}) {
  return {
    success: true,
    code,
    message: `${code} message`,
    data,
    errors: null,
    meta: null,
    ...extra,
  };
}

export async function startStub(
  handler: (request: StubRequest, index: number) => StubReply | Promise<StubReply>,
): Promise<Stub> {
  const requests: StubRequest[] = [];
  const server = createServer((req, res) => {
    let raw = "";
    req.setEncoding("utf8");
    req.on("data", (chunk) => {
      raw += chunk;
    });
    req.on("end", async () => {
      let body: Record<string, unknown> = {};
      try {
        body = JSON.parse(raw);
      } catch {}
      const request: StubRequest = {
        method: req.method ?? "",
        path: (req.url ?? "").replace(/^\/v1/, ""),
        headers: req.headers,
        raw,
        body,
      };
      requests.push(request);
      const reply = await handler(request, requests.length - 1);
      if ("hang" in reply) return;
      if ("destroy" in reply) {
        req.socket.destroy();
        return;
      }
      if ("text" in reply) {
        res.writeHead(reply.status ?? 200, { "content-type": "text/html" });
        res.end(reply.text);
        return;
      }
      res.writeHead(reply.status ?? 200, {
        "content-type": "application/json",
        ...(reply.headers ?? {}),
      });
      res.end(JSON.stringify(reply.json));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/v1`,
    requests,
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
