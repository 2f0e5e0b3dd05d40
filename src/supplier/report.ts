import { z } from "zod";
import { toBillTransaction, toOrderTransaction } from "./signature/wire.ts";
import { SupplierError, type SupplierTransaction } from "./types.ts";

// a supplier report, what the supplier calls its callback (docs/supplier-reports.md): POST { event: "transaction.final", data: <order result
// | bill payment result> }. Verify it first with verifyCallback (signature.ts) on the raw body;
// then treat it as evidence only and confirm with status() before moving money.

const reportSchema = z.object({
  event: z.string().trim().min(1).max(100),
  data: z.record(z.string(), z.unknown()),
});

export interface ParsedSupplierReport {
  event: string;
  transaction: SupplierTransaction;
}

/**
 * how one wire protocol's reports are verified and read (the report route is the same for
 * all): verify on the raw body before anything else, then parse
 */
export interface ReportReader {
  verify(
    rawBody: string,
    header: (name: string) => string | undefined,
    nowMs: number,
  ): { ok: true } | { ok: false; reason: string };
  /** a verified request that only checks the URL (answered, never stored) */
  isPing?(header: (name: string) => string | undefined): boolean;
  parse(rawBody: string, header: (name: string) => string | undefined): ParsedSupplierReport;
}

/** a bill payment result carries tagihan, or a lowercase status; an order result neither */
function isBill(data: Record<string, unknown>): boolean {
  if ("tagihan" in data) return true;
  return typeof data.status === "string" && /^(pending|success|failed)$/.test(data.status.trim());
}

/** parses a supplier report's raw body; throws SupplierError BAD_RESPONSE on anything malformed. */
export function parseSupplierReport(rawBody: string): ParsedSupplierReport {
  let json: unknown;
  try {
    json = JSON.parse(rawBody);
  } catch {
    throw new SupplierError("BAD_RESPONSE", "malformed supplier callback: the body is not JSON");
  }
  const result = reportSchema.safeParse(json);
  if (!result.success) {
    throw new SupplierError(
      "BAD_RESPONSE",
      "malformed supplier callback: expected { event, data: { … } }",
    );
  }
  const { event, data } = result.data;
  // a callback must name its transaction and its state: nothing is filled in from elsewhere
  if (typeof data.ref_id !== "string" || data.ref_id.trim() === "") {
    throw new SupplierError("BAD_RESPONSE", "malformed supplier callback: data.ref_id is missing");
  }
  if (typeof data.status !== "string") {
    throw new SupplierError("BAD_RESPONSE", "malformed supplier callback: data.status is missing");
  }
  const transaction = isBill(data) ? toBillTransaction(data, {}) : toOrderTransaction(data, {});
  return { event, transaction };
}
