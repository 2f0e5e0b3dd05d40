import { loadConfig, secretsOf } from "../config.ts";
import { createLogger } from "../logger.ts";
import { connectTelegram } from "./connect-telegram.ts";
import { type App, createApp, type Role } from "./create-app.ts";

/** `kios start`: runs the app until SIGINT/SIGTERM, then shuts down cleanly. */
export async function main(role: Role = "all"): Promise<void> {
  const config = await loadConfig();
  const logger = createLogger({ level: config.logLevel, secrets: secretsOf(config) });

  const choice = await connectTelegram(config, logger, { role });
  const app: App = await createApp({
    // the playground turns the H2H API on with its own key (connectTelegram)
    config: choice.config,
    logger,
    role,
    bot: choice.bot,
    // with nothing configured the playground runs a main and a backup sandbox supplier, so
    // a re-route can be tried in chat
    sandboxes: choice.kind === "playground" ? 2 : 1,
    http: choice.http,
    adminIds: choice.adminIds,
  });
  await app.start();

  // the first line says what runs and where to open it (a person reads it in a terminal,
  // pino-pretty formatting it; a process manager's log keeps it as JSON)
  const http = app.port === undefined ? undefined : `http://localhost:${app.port}`;
  const fields: Record<string, unknown> = {
    role,
    database: app.database.kind === "pglite" ? `pglite (${config.pgliteDir})` : "postgres",
    // a terminal shows the address in the line itself, once
    ...(process.stdout.isTTY ? {} : { http: http ?? "off" }),
    ...(app.metricsPort === undefined
      ? {}
      : { metrics: `http://${hostInUrl(app.metricsAddress)}:${app.metricsPort}/metrics` }),
    suppliers: app.suppliers?.all.map((s) =>
      s.sandbox ? { name: s.name, at: "embedded sandbox" } : { name: s.name, at: s.description },
    ),
    payments: app.gateway?.description ?? "manual transfers only",
  };
  logger.info(fields, `kios started: ${startLine(choice.kind, http, config)}`);
  if (choice.kind === "none") {
    logger.warn("no BOT_TOKEN: the Telegram bot is not running in this process");
  }
  // the playground's first line says so already
  if (!config.supplier && choice.kind !== "playground") {
    logger.warn("no SUPPLIER_* credentials: selling from the embedded sandbox supplier");
  }

  let signals = 0;
  const shutdown = async (signal: string) => {
    signals += 1;
    if (signals > 1) process.exit(130); // a second Ctrl-C does not wait
    logger.info({ signal }, "shutting down");
    // whatever hangs, the process is gone within 5 seconds
    setTimeout(() => process.exit(1), 4500).unref();
    try {
      await app.stop();
      logger.info("stopped");
      process.exit(0);
    } catch (err) {
      logger.error({ err }, "shutdown failed");
      process.exit(1);
    }
  };
  process.on("SIGINT", () => void shutdown("SIGINT"));
  process.on("SIGTERM", () => void shutdown("SIGTERM"));
}

/** what runs and where to open it, in words */
function startLine(
  kind: "playground" | "telegram" | "none",
  http: string | undefined,
  config: { telegramApiRoot: string; botMode: string },
): string {
  if (kind === "playground") {
    return `open ${http}/ (the playground: a chat with the shop's bot; no BOT_TOKEN, so nothing real is sold)`;
  }
  const at = http ? `${http}/healthz answers` : "no HTTP";
  if (kind === "none") return `${at}; no bot in this process`;
  const telegram =
    config.telegramApiRoot === "https://api.telegram.org"
      ? "Telegram"
      : `the Bot API server at ${config.telegramApiRoot}`;
  return `${at}; the bot on ${telegram} (${config.botMode})`;
}

/** an IPv6 address goes in brackets in a URL */
const hostInUrl = (address: string | undefined) =>
  address?.includes(":") ? `[${address}]` : (address ?? "localhost");
