import { createWriteStream } from "node:fs";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import {
  type ExportFormat,
  exportedOrders,
  exportFile,
  wibDay,
} from "../commerce/orders/export.ts";
import { type Command, parseFlags, UsageError } from "./command.ts";
import { withDatabase } from "./database.ts";

export const exportCommand: Command = {
  name: "export",
  summary: "write the orders of a period as CSV or JSON (streamed, constant memory)",
  usage:
    "kios export --from YYYY-MM-DD --to YYYY-MM-DD [--format csv|json] [--out FILE]  (days in WIB; --to is not included)",
  async run(argv, deps) {
    const { values } = parseFlags(argv, {
      from: { type: "string" },
      to: { type: "string" },
      format: { type: "string", default: "csv" },
      out: { type: "string" },
    });
    const from = values.from ? wibDay(values.from) : undefined;
    const to = values.to ? wibDay(values.to) : undefined;
    if (!from) throw new UsageError("--from must be a day, YYYY-MM-DD");
    if (!to) throw new UsageError("--to must be a day, YYYY-MM-DD");
    if (to <= from) throw new UsageError("--to must come after --from");
    if (values.format !== "csv" && values.format !== "json") {
      throw new UsageError("--format must be csv or json");
    }
    const format: ExportFormat = values.format;
    return withDatabase(deps, async (database) => {
      const chunks = Readable.from(exportFile(exportedOrders(database.db, { from, to }), format));
      if (values.out) {
        await pipeline(chunks, createWriteStream(values.out));
      } else {
        // a reader that goes away early (`| head`) is not an error
        process.stdout.on("error", (err: NodeJS.ErrnoException) => {
          if (err.code !== "EPIPE") throw err;
        });
        await pipeline(chunks, process.stdout, { end: false });
        // writes are in order: once this one is flushed, all of the file is (the CLI exits next)
        await new Promise<void>((resolve) => process.stdout.write("", () => resolve()));
      }
      return 0;
    });
  },
};
