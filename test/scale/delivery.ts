import { createServer, type IncomingMessage, type Server } from "node:http";
import type { Update } from "@grammyjs/types";
import { chatIdOf } from "../../src/bot/storage/updates.ts";
import type { Random } from "../campaign/rng.ts";

// Telegram's side of a webhook with several web instances behind a load balancer: the local
// Bot API server pushes each update here (as to a webhook); this hands it to a random live
// web instance, chats side by side and each chat's updates one after another, retrying on
// failure (a killed instance, a 5xx) and sometimes delivering an update twice, to two
// different instances, as a retry after a lost acknowledgement would.

export interface Delivery {
  url: string;
  /** update ids kios acknowledged, per chat, in the order they were sent */
  readonly acknowledged: Map<number, number[]>;
  /** deliveries sent again after they were acknowledged */
  readonly redelivered: number;
  /** resolves when every update received has been acknowledged */
  idle(timeoutMs: number): Promise<void>;
  close(): Promise<void>;
}

const readBody = (req: IncomingMessage) =>
  new Promise<string>((resolve, reject) => {
    let body = "";
    req.on("data", (c: Buffer) => {
      body += c.toString("utf8");
    });
    req.on("end", () => resolve(body));
    req.on("error", reject);
  });

export async function startDelivery(o: {
  /** base URLs of the web instances that are up now */
  targets: () => string[];
  rng: Random;
  redeliverRate: number;
}): Promise<Delivery> {
  const queues = new Map<number, { path: string; secret: string; update: Update }[]>();
  const running = new Set<number>();
  const acknowledged = new Map<number, number[]>();
  let redelivered = 0;
  let pending = 0;

  const pick = () => {
    const live = o.targets();
    return live[Math.floor(o.rng.next() * live.length)];
  };

  async function post(path: string, secret: string, update: Update): Promise<boolean> {
    const target = pick();
    if (!target) return false;
    try {
      const res = await fetch(`${target}${path}`, {
        method: "POST",
        headers: { "content-type": "application/json", "X-Telegram-Bot-Api-Secret-Token": secret },
        body: JSON.stringify(update),
        signal: AbortSignal.timeout(10_000),
      });
      await res.body?.cancel().catch(() => {});
      return res.status === 200;
    } catch {
      return false;
    }
  }

  async function drainChat(chatId: number) {
    running.add(chatId);
    const queue = queues.get(chatId)!;
    while (queue.length > 0) {
      const { path, secret, update } = queue[0]!;
      let delay = 50;
      while (!(await post(path, secret, update))) {
        await new Promise((r) => setTimeout(r, delay));
        delay = Math.min(1000, delay * 2);
      }
      acknowledged.set(chatId, [...(acknowledged.get(chatId) ?? []), update.update_id]);
      if (o.rng.next() < o.redeliverRate) {
        redelivered += 1;
        await post(path, secret, update);
      }
      queue.shift();
      pending -= 1;
    }
    running.delete(chatId);
  }

  const server: Server = createServer(async (req, res) => {
    const body = await readBody(req);
    const update = JSON.parse(body) as Update;
    const chatId = chatIdOf(update);
    const secret = String(req.headers["x-telegram-bot-api-secret-token"] ?? "");
    const queue = queues.get(chatId) ?? [];
    queues.set(chatId, queue);
    queue.push({ path: req.url ?? "/", secret, update });
    pending += 1;
    if (!running.has(chatId)) void drainChat(chatId);
    res.writeHead(200, { "content-type": "application/json" }).end('{"ok":true}');
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  const port = typeof address === "object" && address ? address.port : 0;

  return {
    url: `http://127.0.0.1:${port}`,
    acknowledged,
    get redelivered() {
      return redelivered;
    },
    async idle(timeoutMs) {
      const end = Date.now() + timeoutMs;
      while (pending > 0) {
        if (Date.now() > end) throw new Error(`${pending} updates still undelivered`);
        await new Promise((r) => setTimeout(r, 50));
      }
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
