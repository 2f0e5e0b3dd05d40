import { type BotApiServer, createBotApiServer } from "@kios/bot-api-server";
import { listen } from "@kios/kit";
import { Hono } from "hono";

// the Bot API as the benchmarks see it: the local Bot API server behind a front that adds a
// round trip's latency to every method call (Telegram is ~80 ms away from a VPS in Jakarta)
// and counts the messages sent, so a run knows when every update has been answered.

export interface BenchTelegram {
  server: BotApiServer;
  /** the apiRoot bots use */
  url: string;
  /** sendMessage calls answered so far */
  readonly sent: number;
  /** calls answered 429 Too Many Requests */
  readonly tooMany: number;
  /** resolves once `n` messages were sent in total (rejects after ms) */
  waitSent(n: number, ms: number): Promise<void>;
  close(): Promise<void>;
}

export async function startBenchTelegram(o: {
  latencyMs: number;
  /** answer 429 beyond Telegram's limits, as Telegram does */
  rateLimits?: boolean;
}): Promise<BenchTelegram> {
  const server = createBotApiServer({ rateLimits: { enabled: o.rateLimits ?? false } });
  let sent = 0;
  let tooMany = 0;
  const front = new Hono();
  front.use("/bot*", async (c, next) => {
    // getUpdates waits on its own; every other call pays the round trip
    if (!c.req.path.endsWith("/getUpdates") && o.latencyMs > 0) {
      await new Promise((r) => setTimeout(r, o.latencyMs));
    }
    await next();
    if (c.res.status === 429) tooMany += 1;
    else if (c.req.path.endsWith("/sendMessage")) sent += 1;
  });
  front.route("/", server.app);
  const running = await listen(front, 0, "127.0.0.1");
  return {
    server,
    url: `http://127.0.0.1:${running.port}`,
    get sent() {
      return sent;
    },
    get tooMany() {
      return tooMany;
    },
    async waitSent(n, ms) {
      const end = Date.now() + ms;
      while (sent < n) {
        if (Date.now() > end) throw new Error(`only ${sent} of ${n} messages sent in ${ms} ms`);
        await new Promise((r) => setTimeout(r, 20));
      }
    },
    async close() {
      server.dispose();
      await running.close();
    },
  };
}
