// notifications to distinct chats through the outbox at Telegram's pace: the drain as it is
// (chats side by side) against the same drain one send at a time, both through the
// production sender and limiter to a Bot API 80 ms away that answers 429 beyond Telegram's
// limits, as Telegram does. Telegram's own limit, 30 messages a second, is the ceiling.
// run: npx tsx bench/notifications.ts [--chats 600] [--latency 80] [--reps 3]

import { parseArgs } from "node:util";
import { DEFAULT_BOT } from "@kios/bot-api-server";
import { systemClock } from "@kios/kit";
import { Bot } from "grammy";
import { createNotificationSender } from "../src/bot/notifications/sender.ts";
import { notificationRenderers } from "../src/bot/renderers.ts";
import { createI18n } from "../src/bot/ui/i18n.ts";
import { drainOutbox } from "../src/commerce/notifications/drain.ts";
import { enqueueNotification } from "../src/commerce/notifications/outbox.ts";
import { createSendLimiter } from "../src/commerce/notifications/send-limiter.ts";
import { openDatabase } from "../src/db/client.ts";
import { createLogger } from "../src/logger.ts";
import { median, printTable } from "./table.ts";
import { startBenchTelegram } from "./telegram.ts";

const { values } = parseArgs({
  options: {
    chats: { type: "string", default: "600" },
    latency: { type: "string", default: "80" },
    reps: { type: "string", default: "3" },
  },
});
const CHATS = Number(values.chats);
const LATENCY = Number(values.latency);
const REPS = Number(values.reps);
const logger = createLogger({ level: "silent" });

interface Run {
  perSecond: number;
  tooMany: number;
  duplicates: number;
}

async function broadcast(concurrency: number | undefined): Promise<Run> {
  const telegram = await startBenchTelegram({ latencyMs: LATENCY, rateLimits: true });
  const database = await openDatabase({ pgliteDir: "memory://" });
  await database.migrate();
  const bot = new Bot(DEFAULT_BOT.token, { client: { apiRoot: telegram.url } });
  const send = createNotificationSender({
    api: bot.api,
    db: database.db,
    i18n: createI18n(),
    adminIds: [],
    logger,
    renderers: notificationRenderers(),
  });
  try {
    for (let i = 0; i < CHATS; i++) {
      telegram.server.user(9_000_000 + i, { first_name: `C${i}` });
      await enqueueNotification(database.db, {
        key: `bench:${i}`,
        chatId: 9_000_000 + i,
        payload: { type: "broadcast", text: `promo ${i}` },
      });
    }
    const limiter = createSendLimiter();
    const started = performance.now();
    for (;;) {
      const { more, handled } = await drainOutbox(
        { db: database.db, send, limiter, clock: systemClock, logger },
        { concurrency },
      );
      if (!more && handled === 0) break;
    }
    const seconds = (performance.now() - started) / 1000;
    let duplicates = 0;
    for (let i = 0; i < CHATS; i++) {
      const got = telegram.server
        .messages(9_000_000 + i)
        .messages.filter((m) => m.sender === "bot").length;
      if (got > 1) duplicates += got - 1;
    }
    return { perSecond: telegram.sent / seconds, tooMany: telegram.tooMany, duplicates };
  } finally {
    await telegram.close();
    await database.close();
  }
}

const side: Run[] = [];
const single: Run[] = [];
for (let rep = 0; rep < REPS; rep++) {
  side.push(await broadcast(undefined));
  single.push(await broadcast(1));
  process.stderr.write(`rep ${rep + 1}/${REPS} done\n`);
}
const rate = (runs: Run[]) => median(runs.map((r) => r.perSecond));
const sum = (runs: Run[], k: "tooMany" | "duplicates") => runs.reduce((a, r) => a + r[k], 0);
const now = rate(side);
printTable(
  `notifications to ${CHATS} distinct chats, Bot API ${LATENCY} ms away with Telegram's limits; medians of ${REPS}`,
  [
    "drain",
    "msgs/s",
    "vs one at a time",
    "of Telegram's 30/s",
    "429s",
    "duplicates",
    "10,000 users",
    "goal",
    "met",
  ],
  [
    [
      "chats side by side",
      now.toFixed(1),
      (now / rate(single)).toFixed(2),
      (now / 30).toFixed(2),
      String(sum(side, "tooMany")),
      String(sum(side, "duplicates")),
      `${(10_000 / now / 60).toFixed(1)} min`,
      "≥ 28.5/s, 0 × 429, 0 dup, ≤ 6 min",
      now >= 28.5 && sum(side, "tooMany") === 0 && sum(side, "duplicates") === 0 ? "yes" : "no",
    ],
    [
      "one at a time (before)",
      rate(single).toFixed(1),
      "1.00",
      (rate(single) / 30).toFixed(2),
      String(sum(single, "tooMany")),
      String(sum(single, "duplicates")),
      `${(10_000 / rate(single) / 60).toFixed(1)} min`,
      "",
      "",
    ],
  ],
);
