import { createServer } from "node:net";
import {
  DEFAULT_BOT,
  type RunningBotApiServer,
  startBotApiServer,
  type UploadLimits,
} from "@kios/bot-api-server";
import { ManualClock } from "@kios/kit";
import { creditWallet } from "../../src/commerce/wallet/ledger.ts";
import { bootApp, type TestApp } from "./app.ts";
import { type ChatDriver, createChatDriver } from "./chat-driver.ts";

export const E2E_ADMIN = 7_000_001;

export interface Journey extends ChatDriver {
  app: TestApp;
  telegram: RunningBotApiServer;
  clock: ManualClock;
  fund(userId: number, amount: number): Promise<void>;
  stop(): Promise<void>;
}

/** a free loopback port, for a server that must know its own URL before it listens */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once("error", reject);
    probe.listen(0, "127.0.0.1", () => {
      const address = probe.address();
      probe.close(() => resolve(typeof address === "object" && address ? address.port : 0));
    });
  });
}

/**
 * kios's full start-up (database, jobs, HTTP server, embedded sandbox, the bot) with the
 * bot talking to the local Bot API server over real HTTP: a user's view of the product.
 */
export async function startJourney(
  options: {
    mode?: "polling" | "webhook";
    supplierInterface?: "signature" | "key";
    rateLimits?: boolean;
    /** more configuration (e.g. PAYMENT_GATEWAY=none) */
    env?: Record<string, string>;
    /** the admin (E2E_ADMIN, "Owner") has opened the bot with /start */
    adminStarted?: boolean;
    /** what the Bot API server takes in one upload (default Telegram's) */
    uploadLimits?: Partial<UploadLimits>;
    /** the shop's clock (default a fresh one), for a sandbox that must keep the same time */
    clock?: ManualClock;
  } = {},
): Promise<Journey> {
  const telegram = await startBotApiServer({
    rateLimits: { enabled: options.rateLimits ?? false },
    uploadLimits: options.uploadLimits,
  });
  const clock = options.clock ?? new ManualClock();
  const env: Record<string, string> = {
    BOT_TOKEN: DEFAULT_BOT.token,
    TELEGRAM_API_ROOT: telegram.url,
    ADMIN_IDS: String(E2E_ADMIN),
    SUPPLIER_INTERFACE: options.supplierInterface ?? "signature",
    ...options.env,
  };
  if (options.mode === "webhook") {
    const port = await freePort();
    Object.assign(env, {
      BOT_MODE: "webhook",
      PORT: String(port),
      PUBLIC_URL: `http://127.0.0.1:${port}`,
      WEBHOOK_SECRET: "e2e-webhook-secret",
    });
  }
  const app = await bootApp({ env, clock, logLevel: "info", sandbox: { settleDelayMs: 300 } });
  const driver = createChatDriver(telegram, 20_000);
  let funded = 0;
  if (options.adminStarted) {
    driver.user(E2E_ADMIN, { first_name: "Owner" });
    await driver.waitMessage(E2E_ADMIN, /Halo/, driver.say(E2E_ADMIN, "/start"));
  }
  return {
    ...driver,
    app,
    telegram,
    clock,
    async fund(userId, amount) {
      funded += 1;
      await creditWallet(app.app.database.db, {
        userId,
        amount,
        key: `e2e:fund:${userId}:${funded}`,
      });
    },
    async stop() {
      await app.stop();
      await telegram.close();
    },
  };
}
