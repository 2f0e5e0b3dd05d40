import { connectSupplier, connectSuppliers } from "../app/connect-supplier.ts";
import { type Config, secretsOf } from "../config.ts";
import { createLogger, type Logger } from "../logger.ts";
import type { Supplier } from "../supplier/types.ts";

// what the one-shot commands share: output that survives pipes, logs on stderr, and the
// supplier (the configured one, or the embedded sandbox so commands work after install)

let pipeWatched = false;

/**
 * writes to stdout and waits until it is flushed: the CLI exits with process.exit, which
 * would cut a long output (a 2,000-product JSON list) written to a pipe. A reader that
 * goes away early (`| head`) is not an error.
 */
export function print(text: string): Promise<void> {
  if (!pipeWatched) {
    pipeWatched = true;
    process.stdout.on("error", (err: NodeJS.ErrnoException) => {
      if (err.code !== "EPIPE") throw err;
    });
  }
  return new Promise((resolve, reject) =>
    process.stdout.write(`${text}\n`, (err) =>
      err && (err as NodeJS.ErrnoException).code !== "EPIPE" ? reject(err) : resolve(),
    ),
  );
}

/** logs on stderr, so stdout stays the command's output */
export function cliLogger(config: Config): Logger {
  return createLogger({
    level: config.logLevel === "info" ? "warn" : config.logLevel,
    secrets: secretsOf(config),
    destination: process.stderr,
    pretty: Boolean(process.stderr.isTTY),
  });
}

/** runs work against the configured supplier, or a sandbox started for the occasion */
export async function withSupplier<T>(
  config: Config,
  logger: Logger,
  work: (supplier: Supplier) => Promise<T>,
): Promise<T> {
  const connection = await connectSupplier({ config, logger });
  if (connection.sandbox) console.error("no SUPPLIER_* set: using the embedded sandbox supplier");
  try {
    return await work(connection.supplier);
  } finally {
    await connection.close();
  }
}

/** work against every configured supplier (the first, then SUPPLIER_2_*, …), or the sandbox */
export async function withSuppliers<T>(
  config: Config,
  logger: Logger,
  work: (first: Supplier, others: { name: string; supplier: Supplier }[]) => Promise<T>,
): Promise<T> {
  const registry = await connectSuppliers({ config, logger });
  if (registry.first.sandbox) {
    console.error("no SUPPLIER_* set: using the embedded sandbox supplier");
  }
  try {
    return await work(registry.first.supplier, registry.all.slice(1));
  } finally {
    await registry.close();
  }
}
