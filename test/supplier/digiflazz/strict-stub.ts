import { createHash } from "node:crypto";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";

// a strict Digiflazz written from its documentation alone (not from the sandbox): each
// endpoint takes exactly its documented fields, checks its own md5 sign, and answers in the
// {"data": …} envelope what the test scripts. It records every body it was sent.

export const STUB = { username: "stubuser", apiKey: "stub-key-123" };

const md5 = (s: string) => createHash("md5").update(s).digest("hex");

const FIELDS: Record<
  string,
  { required: string[]; optional: string[]; signs: (b: Record<string, unknown>) => string }
> = {
  "/v1/cek-saldo": { required: ["cmd", "username", "sign"], optional: [], signs: () => "depo" },
  "/v1/price-list": {
    required: ["cmd", "username", "sign"],
    optional: ["code", "category", "brand", "type"],
    signs: () => "pricelist",
  },
  "/v1/transaction": {
    required: ["username", "buyer_sku_code", "customer_no", "ref_id", "sign"],
    optional: ["testing", "max_price", "cb_url", "allow_dot", "commands", "msg"],
    signs: (b) => String(b.ref_id),
  },
  "/v1/deposit": {
    required: ["username", "amount", "bank", "owner_name", "sign"],
    optional: [],
    signs: () => "deposit",
  },
};

export interface StrictStub {
  url: string;
  /** every accepted body, by path */
  bodies: { path: string; body: Record<string, unknown> }[];
  /** what the next answers to a path carry (data), in turn; the last one repeats */
  script(path: string, ...answers: { status?: number; data: unknown }[]): void;
  close(): Promise<void>;
}

export async function startStrictStub(): Promise<StrictStub> {
  const bodies: StrictStub["bodies"] = [];
  const scripts = new Map<string, { status?: number; data: unknown }[]>();
  const server = createServer((req, res) => {
    let raw = "";
    req.on("data", (c) => (raw += c));
    req.on("end", () => {
      const reply = (status: number, data: unknown) => {
        res.writeHead(status, { "content-type": "application/json" });
        res.end(JSON.stringify({ data }));
      };
      const path = req.url ?? "";
      const spec = FIELDS[path];
      if (req.method !== "POST" || !spec) return reply(404, { rc: "40", message: "not found" });
      if (!/^application\/json/.test(req.headers["content-type"] ?? "")) {
        return reply(400, { rc: "40", message: "Payload Error" });
      }
      let body: Record<string, unknown>;
      try {
        body = JSON.parse(raw);
      } catch {
        return reply(400, { rc: "40", message: "Payload Error" });
      }
      const keys = Object.keys(body);
      const allowed = new Set([...spec.required, ...spec.optional]);
      if (spec.required.some((k) => !(k in body)) || keys.some((k) => !allowed.has(k))) {
        return reply(400, { rc: "40", message: "Payload Error" });
      }
      if (
        body.username !== STUB.username ||
        body.sign !== md5(`${STUB.username}${STUB.apiKey}${spec.signs(body)}`)
      ) {
        return reply(400, { rc: "41", message: "Signature Anda salah" });
      }
      if ("max_price" in body && !Number.isSafeInteger(body.max_price)) {
        return reply(400, { rc: "40", message: "Payload Error" });
      }
      bodies.push({ path, body });
      const queue = scripts.get(path) ?? [];
      const next = queue.length > 1 ? queue.shift()! : queue[0];
      if (!next) return reply(500, { rc: "", message: "no script" });
      reply(next.status ?? 200, next.data);
    });
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", () => r()));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/v1`,
    bodies,
    script(path, ...answers) {
      scripts.set(`/v1${path}`, answers);
    },
    close: () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}
