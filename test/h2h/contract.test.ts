import { verifyCallback } from "@kios/kit";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { deliverDueCallbacks, queueFinalCallbacks } from "../../src/commerce/h2h/callbacks.ts";
import { updateKeySettings } from "../../src/commerce/h2h/keys.ts";
import { resolveOrder } from "../../src/commerce/orders/resolve.ts";
import { walletBalance } from "../../src/commerce/wallet/ledger.ts";
import { orders } from "../../src/db/schema.ts";
import { parseSupplierReport } from "../../src/supplier/report.ts";
import type { SupplierTransaction } from "../../src/supplier/types.ts";
import { testDriver } from "../helpers/db.ts";
import { bootH2h, type H2hHarness } from "../helpers/h2h.ts";
import {
  accepted,
  callbackReceiver,
  cleanUpAfterEach,
  phone,
  rejectedWith,
  thrown,
} from "../supplier/contract-kit.ts";

// the supplier contract (test/supplier/contract.test.ts) played against kios's own
// /h2h/v1 with kios's own signature client: the cases that do not need the sandbox's
// control panel. With test/h2h/api.test.ts this holds kios-as-supplier to the contract the
// sandbox obeys: the same codes, the same outcomes, the same callbacks.

cleanUpAfterEach();

describe(`the contract against kios's H2H API (${testDriver})`, () => {
  let h: H2hHarness;
  beforeAll(async () => {
    h = await bootH2h();
  });
  afterAll(() => h.stop());

  interface Row {
    ending: string;
    first: SupplierTransaction["status"];
    final: SupplierTransaction["status"];
  }
  const ROWS: Row[] = [
    { ending: "901", first: "success", final: "success" },
    { ending: "902", first: "failed", final: "failed" },
    { ending: "903", first: "pending", final: "success" },
    { ending: "904", first: "pending", final: "failed" },
  ];
  for (const row of ROWS) {
    it(`customer number ending in ${row.ending}: ${row.first} → ${row.final}, one signed final callback`, async () => {
      const receiver = await callbackReceiver();
      const key = await h.reseller(100_000);
      await updateKeySettings(h.deps.db, key.userId, { callbackUrl: receiver.url });
      const client = h.client(key);
      const refId = `row-${row.ending}`;
      const first = accepted(
        await client.order({
          cmd: "prepaid",
          code: "TSEL10",
          customerNo: phone(row.ending),
          refId,
        }),
      );
      expect(first.status).toBe(row.first);
      expect(first.supplierCode).toBe(`ORDER_${row.first.toUpperCase()}`);
      expect(first.sn === null).toBe(row.first !== "success");
      await h.sandbox.settleNow();
      const [order] = await h.deps.db.select().from(orders).where(eq(orders.userId, key.userId));
      await resolveOrder(h.deps, order!.id);
      const status = await client.status(refId);
      if (!status.found) throw new Error("not found");
      expect(status.transaction.status).toBe(row.final);
      expect(await walletBalance(h.deps.db, key.userId)).toBe(
        100_000 - (row.final === "success" ? first.price || status.transaction.price : 0),
      );
      await queueFinalCallbacks({ db: h.deps.db, clock: h.clock });
      await deliverDueCallbacks({
        db: h.deps.db,
        box: h.box,
        clock: h.clock,
        logger: h.deps.logger,
        policy: { allowLoopbackHttp: true },
        // generous: a loaded machine must not turn a slow answer into a failed attempt
        timeoutMs: 20_000,
      });
      const mine = receiver.received.filter((r) => r.raw.includes(`"${refId}"`));
      expect(mine).toHaveLength(1);
      for (const r of mine) {
        expect(
          verifyCallback(key.secretKey, r.raw, r.timestamp, r.signature, h.clock.now()),
        ).toEqual({ ok: true });
        expect(
          verifyCallback(key.secretKey, `${r.raw} `, r.timestamp, r.signature, h.clock.now()).ok,
        ).toBe(false);
        const report = parseSupplierReport(r.raw);
        expect(report.event).toBe("transaction.final");
        expect(report.transaction).toMatchObject({
          kind: "order",
          refId,
          code: "TSEL10",
          status: row.final,
        });
      }
    });
  }

  it("payBill after the 5-minute window → rejected INQUIRY_EXPIRED, nothing held", async () => {
    const key = await h.reseller(2_000_000);
    const client = h.client(key);
    const request = { code: "PLNPOST", customerNo: "530012345670", refId: "late-pay" };
    await client.inquiry(request);
    h.clock.advance(5 * 60 * 1000 + 1000);
    rejectedWith(await client.payBill(request), "INQUIRY_EXPIRED");
    expect(await walletBalance(h.deps.db, key.userId)).toBe(2_000_000);
    // the same ref_id may inquire again once its inquiry expired, and then pay
    const again = await client.inquiry(request);
    const paid = accepted(await client.payBill(request));
    expect(paid.price).toBe(again.total);
  });

  it("inquiry failures throw: INQUIRY_FAILED (no bill due), PRODUCT_NOT_FOUND, INVALID_CUSTOMER_NO", async () => {
    const client = h.client(await h.reseller(10_000));
    const ask = (code: string, customerNo: string, refId: string) =>
      thrown(client.inquiry({ code, customerNo, refId }));
    expect((await ask("PLNPOST", "530012345679", "i-1")).code).toBe("INQUIRY_FAILED");
    expect((await ask("TSEL10", "530012345670", "i-2")).code).toBe("PRODUCT_NOT_FOUND");
    expect((await ask("PLNPOST", "12", "i-3")).code).toBe("INVALID_CUSTOMER_NO");
  });

  it("rate limiting → RATE_LIMITED on a read, and an order refused with nothing formed", async () => {
    const key = await h.reseller(10_000);
    await updateKeySettings(h.deps.db, key.userId, { ratePerMinute: 1 });
    const client = h.client(key, { readRetries: 0 });
    await client.balance();
    expect((await thrown(client.balance())).code).toBe("RATE_LIMITED");
    rejectedWith(
      await client.order({
        cmd: "prepaid",
        code: "TSEL10",
        customerNo: phone("901"),
        refId: "rl-1",
      }),
      "RATE_LIMITED",
    );
  });
});
