import type { Clock } from "@kios/kit";
import { CALLBACK_SIGNATURE_HEADER, CALLBACK_TIMESTAMP_HEADER, verifyCallback } from "@kios/kit";
import { Hono } from "hono";
import type { Database } from "../../db/client.ts";
import { isStorableText, unstorableField } from "../../db/storable-text.ts";
import type { Logger } from "../../logger.ts";
import { bodyText, bodyWithin } from "../../server/body.ts";
import type { AppEnv } from "../../server/create-server.ts";
import { parseSupplierReport, type ReportReader } from "../../supplier/report.ts";
import { storeSupplierReport } from "./inbox.ts";

// the path suppliers are already configured with (their "callback URL"): the first's stays
const FIRST_SUPPLIER_REPORT_PATH = "/supplier/callback";

export interface SupplierReportRouteDeps {
  db: Database;
  /** the supplier account's secret_key, which signs its reports */
  secretKey: string;
  /**
   * how this supplier's protocol signs and shapes its reports (default: the signature
   * interface's, verified with secretKey)
   */
  reader?: ReportReader | undefined;
  /** the supplier these reports are from, stored with each (default: none named, the first) */
  supplier?: string | undefined;
  /** where it posts them (default /supplier/callback, the first supplier's) */
  path?: string | undefined;
  clock: Clock;
  logger: Logger;
  /**
   * a new report is stored. Nothing needs to be asked for: the INSERT wakes the report
   * drains by itself (LISTEN kios_supplier_reports)
   */
  onStored?(reportId: number): Promise<void>;
  /**
   * the report carried the supplier's balance (Digiflazz's buyer_last_saldo): a reading of
   * it (answer-reading.ts), told before the answer is given; it never fails the report
   */
  onBalance?(refId: string, balance: number): Promise<void>;
  onReceived?(result: "accepted" | "duplicate" | "unauthorized" | "malformed"): void;
}

/**
 * POST /supplier/callback (the first supplier) or /supplier/<name>/callback (the others),
 * where a supplier sends its reports: verify the signature on the raw body with that
 * supplier's own secret (constant time, 5-minute tolerance), store it once with the
 * supplier's name, answer at once; a report drain acts on it (drain.ts).
 */
export function createSupplierReportRoute(deps: SupplierReportRouteDeps): Hono<AppEnv> {
  const log = deps.logger.child({
    component: "supplier-reports",
    ...(deps.supplier ? { supplier: deps.supplier } : {}),
  });
  const count = deps.onReceived ?? (() => {});
  const reader = deps.reader ?? signatureReportReader(deps.secretKey);
  return new Hono<AppEnv>().post(
    deps.path ?? FIRST_SUPPLIER_REPORT_PATH,
    bodyWithin<AppEnv>(64 * 1024, (c) => c.json({ error: "payload_too_large" }, 413)),
    async (c) => {
      const raw = await bodyText(c);
      const header = (name: string) => c.req.header(name);
      const verdict = reader.verify(raw, header, deps.clock.now());
      if (!verdict.ok) {
        log.warn(
          { reason: verdict.reason, requestId: c.get("requestId") },
          "supplier report refused",
        );
        count("unauthorized");
        return c.json({ error: "unauthorized", reason: verdict.reason }, 401);
      }
      if (reader.isPing?.(header)) return c.json({ ok: true });
      let parsed: ReturnType<typeof parseSupplierReport>;
      try {
        parsed = reader.parse(raw, header);
      } catch {
        count("malformed");
        return c.json({ error: "malformed_callback" }, 400);
      }
      // signed, but what PostgreSQL can't store (a NUL, escaped or not, a lone surrogate):
      // a 400 the supplier can see, not a 500 it would send again for ever
      if (!isStorableText(raw) || unstorableField(parsed.transaction) !== undefined) {
        log.warn({ requestId: c.get("requestId") }, "supplier report holds unstorable text");
        count("malformed");
        return c.json({ error: "malformed_callback" }, 400);
      }
      const { id, duplicate } = await storeSupplierReport(deps.db, {
        rawBody: raw,
        supplier: deps.supplier,
        refId: parsed.transaction.refId,
        reportedStatus: parsed.transaction.status,
      });
      count(duplicate ? "duplicate" : "accepted");
      if (!duplicate) {
        log.info(
          { refId: parsed.transaction.refId, status: parsed.transaction.status },
          "supplier report",
        );
        await deps.onStored?.(id);
        const balance = parsed.transaction.balanceAfter;
        if (balance !== undefined) await deps.onBalance?.(parsed.transaction.refId, balance);
      }
      return c.json({ ok: true, duplicate });
    },
  );
}

/** the signature interface's reports: its timestamped HMAC headers (5-minute tolerance) */
function signatureReportReader(secretKey: string): ReportReader {
  return {
    verify: (raw, header, nowMs) =>
      verifyCallback(
        secretKey,
        raw,
        header(CALLBACK_TIMESTAMP_HEADER),
        header(CALLBACK_SIGNATURE_HEADER),
        nowMs,
      ),
    parse: (raw) => parseSupplierReport(raw),
  };
}
