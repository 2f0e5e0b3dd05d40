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
    config,
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

  logger.info(
    {
      role,
      database: app.database.kind === "pglite" ? `pglite (${config.pgliteDir})` : "postgres",
      http: app.port === undefined ? "off" : `http://localhost:${app.port}`,
      metrics:
        app.metricsPort === undefined
          ? "off (METRICS_PORT unset)"
          : `http://${hostInUrl(app.metricsAddress)}:${app.metricsPort}/metrics`,
      suppliers: app.suppliers?.all.map((s) => ({
        name: s.name,
        at: s.description,
        reports: s.reportPath,
      })),
      payments: app.gateway?.description ?? "manual transfers only",
    },
    "kios started",
  );
  if (choice.kind === "playground") {
    const url = `http://localhost:${app.port}/`;
    logger.info(
      { url },
      "no BOT_TOKEN: playground running; open it and buy airtime as the demo customer",
    );
    if (process.stdout.isTTY) console.log(`\n  kios playground: ${url}\n`);
  } else if (choice.kind === "none") {
    logger.warn("no BOT_TOKEN: the Telegram bot is not running in this process");
  } else {
    logger.info(
      { botApi: config.telegramApiRoot, mode: config.botMode },
      config.telegramApiRoot === "https://api.telegram.org"
        ? "bot: real Telegram"
        : "bot: a Bot API server at TELEGRAM_API_ROOT",
    );
  }
  if (!config.supplier) {
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

/** an IPv6 address goes in brackets in a URL */
const hostInUrl = (address: string | undefined) =>
  address?.includes(":") ? `[${address}]` : (address ?? "localhost");
