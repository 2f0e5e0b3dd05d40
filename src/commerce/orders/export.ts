import { stringify } from "csv-stringify";
import { and, asc, count, eq, gt, gte, lt } from "drizzle-orm";
import type { Executor } from "../../db/client.ts";
import { orders } from "../../db/schema.ts";
import { type AttemptLine, attemptsOfOrders } from "./queries.ts";

// a period's orders as a file (CSV for a spreadsheet, JSON for programs), read in pages by
// id and written as they come: a month of 100,000 orders never sits in memory at once.

export type ExportFormat = "csv" | "json";

/** one request of an order to a supplier (docs/suppliers.md#attempts) */
interface ExportedAttempt {
  seq: number;
  supplier: string;
  supplier_code: string;
  ref_id: string;
  state: string;
  answer_code: string | null;
  reason: string | null;
  created_at: string;
  answered_at: string | null;
  final_at: string | null;
}

/**
 * one order as exported: amounts in whole rupiah, times in UTC ISO 8601; its attempts in
 * the order they were made (in CSV, one cell holding them as JSON)
 */
export interface ExportedOrder {
  ref_id: string;
  created_at: string;
  final_at: string | null;
  user_id: number;
  kind: string;
  product_code: string;
  product_name: string;
  destination: string;
  price: number;
  cost: number;
  margin: number | null;
  status: string;
  sn: string | null;
  failure_reason: string | null;
  attempts: ExportedAttempt[];
}

export const EXPORT_COLUMNS: (keyof ExportedOrder)[] = [
  "ref_id",
  "created_at",
  "final_at",
  "user_id",
  "kind",
  "product_code",
  "product_name",
  "destination",
  "price",
  "cost",
  "margin",
  "status",
  "sn",
  "failure_reason",
  "attempts",
];

const PAGE = 1_000;

/** the real orders (not tests) created in [from, to), oldest first, a page at a time */
/** how many orders a period's export holds (test orders are left out, as in the file) */
export async function exportedOrderCount(
  db: Executor,
  period: { from: Date; to: Date },
): Promise<number> {
  const [row] = await db
    .select({ n: count() })
    .from(orders)
    .where(
      and(
        gte(orders.createdAt, period.from),
        lt(orders.createdAt, period.to),
        eq(orders.testing, false),
      ),
    );
  return Number(row?.n ?? 0);
}

export async function* exportedOrders(
  db: Executor,
  period: { from: Date; to: Date },
  pageSize = PAGE,
): AsyncGenerator<ExportedOrder> {
  let after = 0;
  for (;;) {
    const page = await db
      .select()
      .from(orders)
      .where(
        and(
          gte(orders.createdAt, period.from),
          lt(orders.createdAt, period.to),
          eq(orders.testing, false),
          gt(orders.id, after),
        ),
      )
      .orderBy(asc(orders.id))
      .limit(pageSize);
    // the page's attempts in one read
    const attempts = await attemptsOfOrders(
      db,
      page.map((o) => o.id),
    );
    for (const o of page) {
      yield {
        ref_id: o.refId,
        created_at: o.createdAt.toISOString(),
        final_at: o.finalAt?.toISOString() ?? null,
        user_id: o.userId,
        kind: o.kind,
        product_code: o.productCode,
        product_name: o.productName,
        destination: o.destination,
        price: o.price,
        cost: o.supplierPrice ?? o.cost,
        // what the shop made: only a success earns
        margin: o.status === "success" ? o.price - (o.supplierPrice ?? o.cost) : null,
        status: o.status,
        sn: o.sn,
        failure_reason: o.failureReason,
        attempts: (attempts.get(o.id) ?? []).map(exportedAttempt),
      };
    }
    if (page.length < pageSize) return;
    after = page[page.length - 1]!.id;
  }
}

function exportedAttempt(a: AttemptLine): ExportedAttempt {
  return {
    seq: a.seq,
    supplier: a.supplier,
    supplier_code: a.supplierCode,
    ref_id: a.refId,
    state: a.status,
    answer_code: a.answerCode,
    reason: a.reason,
    created_at: a.createdAt.toISOString(),
    answered_at: a.answeredAt?.toISOString() ?? null,
    final_at: a.finalAt?.toISOString() ?? null,
  };
}

/** the rows as the file's text, chunk by chunk */
export async function* exportFile(
  rows: AsyncIterable<ExportedOrder>,
  format: ExportFormat,
): AsyncGenerator<string> {
  if (format === "json") {
    let first = true;
    let piece = "[";
    for await (const row of rows) {
      piece += `${first ? "\n" : ",\n"}${JSON.stringify(row)}`;
      first = false;
      if (piece.length >= 65_536) {
        yield piece;
        piece = "";
      }
    }
    yield `${piece}${first ? "]\n" : "\n]\n"}`;
    return;
  }
  // supplier text (product names, SNs, failure reasons) is written as text: a cell starting
  // with = + - @ gets a leading ' so a spreadsheet never runs it as a formula
  const csv = stringify({
    header: true,
    columns: EXPORT_COLUMNS,
    cast: { boolean: String },
    escape_formulas: true,
  });
  const out: string[] = [];
  let buffered = 0;
  csv.on("data", (chunk: Buffer | string) => {
    const text = chunk.toString();
    out.push(text);
    buffered += text.length;
  });
  for await (const row of rows) {
    if (!csv.write({ ...row, attempts: JSON.stringify(row.attempts) }))
      await new Promise((r) => csv.once("drain", r));
    // written out in pieces of about 64 KiB: a chunk per row costs more than the row
    if (buffered >= 65_536) {
      buffered = 0;
      yield out.splice(0).join("");
    }
  }
  await new Promise<void>((resolve, reject) => {
    csv.once("end", resolve);
    csv.once("error", reject);
    csv.end();
  });
  if (out.length > 0) yield out.splice(0).join("");
}

/** "2026-11" → that month in WIB: [1 Nov 00:00 WIB, 1 Dec 00:00 WIB) */
export function wibMonth(text: string): { from: Date; to: Date } | undefined {
  const m = /^(\d{4})-(0[1-9]|1[0-2])$/.exec(text.trim());
  if (!m) return undefined;
  const year = Number(m[1]);
  const month = Number(m[2]);
  const from = new Date(Date.UTC(year, month - 1, 1) - 7 * 3_600_000);
  const to = new Date(Date.UTC(year, month, 1) - 7 * 3_600_000);
  return { from, to };
}

/** "2026-11-05" → 00:00 WIB that day */
export function wibDay(text: string): Date | undefined {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(text.trim());
  if (!m) return undefined;
  const d = new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3])) - 7 * 3_600_000);
  // 2026-02-31 is not a day
  const back = new Date(d.getTime() + 7 * 3_600_000);
  if (back.getUTCDate() !== Number(m[3]) || back.getUTCMonth() !== Number(m[2]) - 1)
    return undefined;
  return d;
}
