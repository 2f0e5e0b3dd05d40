import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { confirmQuote } from "../../../src/commerce/orders/place.ts";
import { getOrder } from "../../../src/commerce/orders/queries.ts";
import { resolveOrder } from "../../../src/commerce/orders/resolve.ts";
import { openAttempts, reroute } from "../../../src/commerce/orders/routing.ts";
import type { Order } from "../../../src/commerce/orders/types.ts";
import {
  processSupplierReport,
  storeSupplierReport,
} from "../../../src/commerce/supplier-reports/inbox.ts";
import { orderAttempts } from "../../../src/db/schema.ts";
import type { SubmitOutcome, Supplier } from "../../../src/supplier/types.ts";
import { SupplierError } from "../../../src/supplier/types.ts";
import { testDriver } from "../../helpers/db.ts";
import { bootTwoSuppliers, type TwoSuppliers } from "../../helpers/two-suppliers.ts";

// at most one open attempt per order (design rule 15), however many status checks,
// reports and re-routes race: the order's row lock and the partial unique index. On
// PostgreSQL these run at once; PGlite runs them one after another.

const reportBody = (refId: string, code: string, status: string) =>
  JSON.stringify({
    event: "transaction.final",
    data: {
      ref_id: refId,
      status,
      customer_no: "081234561234",
      code,
      name: "Telkomsel 10.000",
      price: 10_300,
      sn: null,
      created_at: "2026-11-22 10:00:00",
    },
  });

describe(`one open attempt per order under races (${testDriver})`, () => {
  let h: TwoSuppliers;
  let release!: (o: SubmitOutcome) => void;
  const held = (s: Supplier): Supplier => ({
    ...s,
    // the main supplier's answer waits until the test lets it go
    order: () =>
      new Promise<SubmitOutcome>((r) => {
        release = r;
      }),
  });
  beforeAll(async () => {
    h = await bootTwoSuppliers({ wrapMain: held });
  });
  afterAll(() => h.stop());

  it("re-routes once however many race, and opens one attempt", async () => {
    const user = await h.newUser(100_000);
    const q = await h.quote(user, "081234561234");
    const confirming = confirmQuote(h.engine, { quoteId: q.id, userId: user });
    await expect.poll(() => typeof release === "function", { timeout: 20_000 }).toBe(true);
    const submitted = (await getOrder(h.deps.db, 1)) as Order;
    expect(submitted.status).toBe("submitted");
    expect(await openAttempts(h.deps.db, submitted.id)).toBe(1);

    const { id: reportId } = await storeSupplierReport(h.deps.db, {
      rawBody: reportBody(submitted.refId, "TSEL10", "Pending"),
      supplier: "main",
      refId: submitted.refId,
      reportedStatus: "pending",
    });
    const proof = { code: "PRODUCT_INACTIVE", message: "inactive" };
    const results = await Promise.all([
      ...Array.from({ length: 6 }, () => reroute(h.engine, submitted, proof)),
      resolveOrder(h.engine, submitted.id).then(() => undefined),
      resolveOrder(h.engine, submitted.id).then(() => undefined),
      processSupplierReport(h.engine, reportId).then(() => undefined),
    ]);
    expect(results.filter((r) => r !== undefined)).toHaveLength(1);
    expect(await openAttempts(h.deps.db, submitted.id)).toBe(1);
    const attempts = await h.deps.db
      .select()
      .from(orderAttempts)
      .where(eq(orderAttempts.orderId, submitted.id));
    expect(attempts).toHaveLength(2);

    // the first supplier's late refusal is about an attempt the order has left: it fails nothing
    release({
      outcome: "rejected",
      error: new SupplierError("PRODUCT_INACTIVE", "product inactive"),
    });
    const confirmed = await confirming;
    expect(confirmed.ok && confirmed.order.status).not.toBe("failed");
    expect(await openAttempts(h.deps.db, submitted.id)).toBe(1);
  });

  it("refuses a second open attempt at the database, whoever writes it", async () => {
    const [open] = await h.deps.db
      .select()
      .from(orderAttempts)
      .where(eq(orderAttempts.status, "open"));
    await expect(
      h.deps.db.insert(orderAttempts).values({
        orderId: open!.orderId,
        seq: 99,
        supplier: "backup",
        supplierCode: "BTSEL10",
        refId: "K-SECOND-OPEN",
        cost: 1,
      }),
    ).rejects.toThrow();
  });

  it("finds a re-routed order by its attempt's supplier and ref_id, and no other way", async () => {
    const [attempt] = await h.deps.db
      .select()
      .from(orderAttempts)
      .where(eq(orderAttempts.status, "open"));
    // a report at the main supplier's path naming the backup's ref_id is no order's
    const wrongPath = await storeSupplierReport(h.deps.db, {
      rawBody: reportBody(attempt!.refId, "BTSEL10", "Success"),
      supplier: "main",
      refId: attempt!.refId,
      reportedStatus: "success",
    });
    expect(await processSupplierReport(h.engine, wrongPath.id)).toBe("unknown_ref_id");
    const right = await storeSupplierReport(h.deps.db, {
      rawBody: `${reportBody(attempt!.refId, "BTSEL10", "Success")} `,
      supplier: "backup",
      refId: attempt!.refId,
      reportedStatus: "success",
    });
    expect(await processSupplierReport(h.engine, right.id)).toMatch(/^order /);
  });
});
