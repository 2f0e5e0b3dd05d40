import { createHmac, timingSafeEqual } from "node:crypto";
import type { ParsedSupplierReport, ReportReader } from "../report.ts";
import { SupplierError } from "../types.ts";
import { toDigiflazzTransaction } from "./wire.ts";

// Digiflazz's webhook (docs/suppliers.md#digiflazz): POST {"data": {…the transaction…}} with
// X-Digiflazz-Event (create, update; ping when the URL is set), a User-Agent that says
// prepaid or postpaid, and X-Hub-Signature: sha1=<hex HMAC-SHA1 of the raw body keyed with
// the webhook's secret>. kios refuses an unsigned one: the secret is required.

const HUB_SIGNATURE_HEADER = "x-hub-signature";
const EVENT_HEADER = "x-digiflazz-event";

/** whether `header` is the HMAC-SHA1 of `rawBody` under `secret`, compared in constant time */
export function verifyHubSignature(
  secret: string,
  rawBody: string,
  header: string | undefined,
): boolean {
  if (!header) return false;
  const m = /^sha1=([0-9a-f]{40})$/i.exec(header.trim());
  if (!m) return false;
  const expected = createHmac("sha1", secret).update(rawBody).digest();
  const got = Buffer.from(m[1]!.toLowerCase(), "hex");
  return got.length === expected.length && timingSafeEqual(got, expected);
}

export function digiflazzReportReader(secret: string): ReportReader {
  return {
    verify(rawBody, header) {
      if (!header(HUB_SIGNATURE_HEADER)) return { ok: false, reason: "missing_signature" };
      return verifyHubSignature(secret, rawBody, header(HUB_SIGNATURE_HEADER))
        ? { ok: true }
        : { ok: false, reason: "bad_signature" };
    },
    isPing: (header) => header(EVENT_HEADER)?.trim().toLowerCase() === "ping",
    parse(rawBody, header): ParsedSupplierReport {
      let json: unknown;
      try {
        json = JSON.parse(rawBody);
      } catch {
        throw new SupplierError(
          "BAD_RESPONSE",
          "malformed Digiflazz webhook: the body is not JSON",
        );
      }
      const data = (json as { data?: unknown } | null)?.data;
      if (data === null || typeof data !== "object" || Array.isArray(data)) {
        throw new SupplierError(
          "BAD_RESPONSE",
          "malformed Digiflazz webhook: expected { data: { … } }",
        );
      }
      const d = data as Record<string, unknown>;
      if (typeof d.ref_id !== "string" || d.ref_id.trim() === "") {
        throw new SupplierError(
          "BAD_RESPONSE",
          "malformed Digiflazz webhook: data.ref_id is missing",
        );
      }
      const postpaid = /pasca/i.test(header("user-agent") ?? "") || "selling_price" in d;
      const transaction = toDigiflazzTransaction(d, postpaid ? "bill" : "order", {});
      return { event: header(EVENT_HEADER)?.trim() || "update", transaction };
    },
  };
}
