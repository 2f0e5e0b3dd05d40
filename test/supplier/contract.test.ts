import { describe, expect, it } from "vitest";
import { newRefId } from "../../src/supplier/ref-id.ts";
import type { SupplierTransaction } from "../../src/supplier/types.ts";
import {
  accepted,
  boot,
  callbackReceiver,
  callbacksFor,
  cleanUpAfterEach,
  KITS,
  phone,
  productOf,
  rejectedWith,
  thrown,
  unknownWith,
} from "./contract-kit.ts";

// the shared contract, once per wire interface: each client against the real sandbox over
// real HTTP. Every code of docs/supplier.md#code-map is reached and mapped, and every row
// of the sandbox's outcome table is played. Interface-only cases: contract-signature.test.ts
// and key/contract.test.ts.

cleanUpAfterEach();

describe.each(KITS)("the $name interface against the sandbox", (kit) => {
  describe("reads against the sandbox", () => {
    it("balance matches the sandbox account", async () => {
      const { supplier, sandbox } = await boot(kit);
      const balance = await supplier.balance();
      expect(balance.balance).toBe(sandbox.account().balance);
      expect(balance.balanceFormatted).toMatch(/^Rp[\d.]+$/);
    });

    it("products of all three kinds add up to at least 5,000", async () => {
      const { supplier } = await boot(kit);
      let total = 0;
      for (const cmd of ["prepaid", "game", "pasca"] as const) {
        const products = await supplier.products(cmd);
        expect(products.length).toBeGreaterThan(0);
        expect(products.every((p) => p.type === cmd)).toBe(true);
        expect(products.some((p) => p.active)).toBe(true);
        expect(products.every((p) => Number.isSafeInteger(p.price) && p.code !== "")).toBe(true);
        total += products.length;
      }
      expect(total).toBeGreaterThanOrEqual(5000);
    });

    it("status of an unknown ref_id is { found: false } (TRANSACTION_NOT_FOUND)", async () => {
      const { supplier } = await boot(kit);
      expect(await supplier.status(newRefId())).toEqual({ found: false });
    });
  });

  describe("authentication", () => {
    it("a revoked api_key → INVALID_API_KEY (read throws, order rejected); a key never issued is refused too", async () => {
      const { client, sandbox } = await boot(kit);
      sandbox.account().addKey({ apiKey: "ak-old", secretKey: "sk-old" });
      sandbox.account().revokeKey("ak-old");
      const revoked = client({ apiKey: "ak-old", secretKey: "sk-old" });
      expect((await thrown(revoked.balance())).code).toBe("INVALID_API_KEY");
      rejectedWith(
        await revoked.payBill({ code: "PLNPOST", customerNo: "530012345670", refId: newRefId() }),
        "INVALID_API_KEY",
      );
      const never = client({ apiKey: "ak-never" });
      expect((await thrown(never.balance())).code).toBe(kit.unknownKeyCode);
      rejectedWith(
        await never.order({
          cmd: "prepaid",
          code: "TSEL10",
          customerNo: phone("901"),
          refId: newRefId(),
        }),
        kit.unknownKeyCode,
      );
    });

    it("a second key of the account works, and its transactions are the account's", async () => {
      const { client, sandbox } = await boot(kit);
      sandbox.account().addKey({ apiKey: "ak-second", secretKey: "sk-second" });
      const second = client({ apiKey: "ak-second", secretKey: "sk-second" });
      const before = sandbox.account().balance;
      const t = accepted(
        await second.order({
          cmd: "prepaid",
          code: "TSEL10",
          customerNo: phone("901"),
          refId: newRefId(),
        }),
      );
      expect(sandbox.account().balance).toBe(before - t.price);
      expect((await second.balance()).balance).toBe(before - t.price);
    });
  });

  describe("orders against the sandbox", () => {
    it("an order is charged once; a repeat with the same ref_id returns it and charges nothing", async () => {
      const { supplier, sandbox } = await boot(kit);
      const product = productOf(sandbox, "prepaid", "TSEL10");
      const before = sandbox.account().balance;
      const request = {
        cmd: "prepaid" as const,
        code: product.code,
        customerNo: phone("901"),
        refId: newRefId(),
      };
      const first = accepted(await supplier.order(request));
      expect(first).toMatchObject({
        status: "success",
        price: product.price,
        supplierCode: kit.code("order", "success"),
      });
      expect(sandbox.account().balance).toBe(before - product.price);
      const again = accepted(await supplier.order(request));
      expect(again).toEqual(first);
      expect(sandbox.account().balance).toBe(before - product.price);
      expect((await supplier.balance()).balance).toBe(before - product.price);
    });

    it("a ref_id repeated for another destination → unknown REF_ID_MISMATCH, nothing charged", async () => {
      const { supplier, sandbox } = await boot(kit);
      const refId = newRefId();
      accepted(
        await supplier.order({ cmd: "prepaid", code: "TSEL10", customerNo: phone("901"), refId }),
      );
      const before = sandbox.account().balance;
      unknownWith(
        await supplier.order({ cmd: "prepaid", code: "TSEL10", customerNo: phone("902"), refId }),
        "REF_ID_MISMATCH",
      );
      expect(sandbox.account().balance).toBe(before);
    });

    it("testing mode deducts nothing", async () => {
      const { supplier, sandbox } = await boot(kit);
      const before = sandbox.account().balance;
      const t = accepted(
        await supplier.order({
          cmd: "game",
          code: "ML86",
          customerNo: "123456789(2901)",
          refId: newRefId(),
          testing: true,
        }),
      );
      expect(t.status).toBe("success");
      expect(sandbox.account().balance).toBe(before);
      const bill = { code: "PLNPOST", customerNo: "530012345901", refId: newRefId() };
      await supplier.inquiry(bill);
      expect(accepted(await supplier.payBill({ ...bill, testing: true })).status).toBe("success");
      expect(sandbox.account().balance).toBe(before);
    });

    it("refusals: PRODUCT_NOT_FOUND, PRODUCT_INACTIVE, INVALID_CUSTOMER_NO, INSUFFICIENT_BALANCE, VALIDATION_ERROR", async () => {
      const { supplier, sandbox } = await boot(kit);
      const order = (
        over: Partial<{ code: string; customerNo: string; refId: string; cmd: "prepaid" | "game" }>,
      ) =>
        supplier.order({
          cmd: "prepaid",
          code: "TSEL10",
          customerNo: phone("901"),
          refId: newRefId(),
          ...over,
        });
      rejectedWith(await order({ code: "NO-SUCH-PRODUCT" }), "PRODUCT_NOT_FOUND");
      rejectedWith(await order({ code: "ISAT1000" }), "PRODUCT_INACTIVE");
      rejectedWith(await order({ customerNo: "12" }), "INVALID_CUSTOMER_NO");
      // a ref_id already taken by a bill inquiry is a validation error, with the field named
      const inquired = { code: "PLNPOST", customerNo: "530012345670", refId: newRefId() };
      await supplier.inquiry(inquired);
      const validation = await order({ refId: inquired.refId });
      rejectedWith(validation, "VALIDATION_ERROR");
      if (validation.outcome === "rejected") {
        expect(validation.error.details.errors).toHaveProperty("ref_id");
      }
      sandbox.account().setBalance(100);
      rejectedWith(await order({}), "INSUFFICIENT_BALANCE");
      expect(sandbox.account().balance).toBe(100);
    });

    it("rate limiting → RATE_LIMITED on a read (after retries); an order refused (nothing formed)", async () => {
      const { client } = await boot(kit, { rateLimitPerSecond: 1 });
      const supplier = client({ readRetries: 0 });
      await supplier.balance();
      expect((await thrown(supplier.balance())).code).toBe("RATE_LIMITED");
      rejectedWith(
        await supplier.order({
          cmd: "prepaid",
          code: "TSEL10",
          customerNo: phone("901"),
          refId: newRefId(),
        }),
        "RATE_LIMITED",
      );
    });

    it("injected 500s: reads retry through them, an order is unknown after one try", async () => {
      const { supplier, sandbox } = await boot(kit);
      sandbox.faults = { ...sandbox.faults, errorRate: 1 };
      expect((await thrown(supplier.balance())).code).toBe("SERVER_ERROR");
      const refId = newRefId();
      unknownWith(
        await supplier.order({ cmd: "prepaid", code: "TSEL10", customerNo: phone("901"), refId }),
        "SERVER_ERROR",
      );
      // the sandbox did the work before it fell over: status tells
      sandbox.faults = { ...sandbox.faults, errorRate: 0 };
      const status = await supplier.status(refId);
      expect(status).toMatchObject({ found: true, transaction: { status: "success" } });
      expect(sandbox.transactions().filter((t) => t.refId === refId)).toHaveLength(1);
    });
  });

  describe("the sandbox's outcome table", () => {
    interface Row {
      ending: string;
      first: SupplierTransaction["status"];
      final: SupplierTransaction["status"];
      /** the final callbacks expected, then any stale ones */
      callbacks: SupplierTransaction["status"][];
    }
    const ROWS: Row[] = [
      { ending: "901", first: "success", final: "success", callbacks: [] },
      { ending: "902", first: "failed", final: "failed", callbacks: [] },
      { ending: "903", first: "pending", final: "success", callbacks: ["success"] },
      { ending: "904", first: "pending", final: "failed", callbacks: ["failed"] },
      { ending: "905", first: "pending", final: "success", callbacks: [] },
      {
        ending: "908",
        first: "pending",
        final: "success",
        callbacks: ["success", "success", "pending"],
      },
      { ending: "123", first: "pending", final: "success", callbacks: ["success"] },
    ];

    for (const row of ROWS) {
      it(`customer number ending in ${row.ending}: ${row.first} → ${row.final}, ${row.callbacks.length} callbacks`, async () => {
        const { supplier, sandbox, clock } = await boot(kit);
        const receiver = await callbackReceiver();
        sandbox.account().setCallbackUrl(receiver.url);
        const product = productOf(sandbox, "prepaid", "TSEL10");
        const before = sandbox.account().balance;
        const refId = newRefId();
        const first = accepted(
          await supplier.order({
            cmd: "prepaid",
            code: product.code,
            customerNo: phone(row.ending),
            refId,
          }),
        );
        expect(first.status).toBe(row.first);
        expect(first.supplierCode).toBe(kit.code("order", row.first));
        expect(first.sn === null).toBe(row.first !== "success");

        await sandbox.settleNow();
        const status = await supplier.status(refId);
        if (!status.found) throw new Error("the transaction was not found");
        expect(status.transaction.status).toBe(row.final);
        expect(status.transaction.sn === null).toBe(row.final !== "success");
        // a failed order is refunded; a successful one is charged once
        expect(sandbox.account().balance).toBe(
          before - (row.final === "success" ? product.price : 0),
        );

        const callbacks = callbacksFor(receiver.received, refId, clock);
        expect(callbacks.map((c) => c.transaction.status)).toEqual(row.callbacks);
        for (const c of callbacks) {
          expect(c.event).toBe("transaction.final");
          expect(c.transaction).toMatchObject({ kind: "order", refId, code: product.code });
        }
      });
    }

    it("941 and 944: a failure's reason reaches the client in the reply, the status and the callback", async () => {
      const { supplier, sandbox, clock } = await boot(kit);
      const receiver = await callbackReceiver();
      sandbox.account().setCallbackUrl(receiver.url);
      const atOnce = accepted(
        await supplier.order({
          cmd: "prepaid",
          code: "TSEL10",
          customerNo: phone("941"),
          refId: newRefId(),
        }),
      );
      expect(atOnce).toMatchObject({ status: "failed", reason: "OUT_OF_STOCK" });
      const refId = newRefId();
      const first = accepted(
        await supplier.order({ cmd: "prepaid", code: "TSEL10", customerNo: phone("944"), refId }),
      );
      expect(first.status).toBe("pending");
      expect(first.reason).toBeUndefined();
      await sandbox.settleNow();
      expect(await supplier.status(refId)).toMatchObject({
        found: true,
        transaction: { status: "failed", reason: "PRODUCT_DISRUPTED" },
      });
      const [report] = callbacksFor(receiver.received, refId, clock);
      expect(report?.transaction).toMatchObject({ status: "failed", reason: "PRODUCT_DISRUPTED" });
    });

    it("906: the reply comes after the client's timeout → unknown; status finds the transaction", async () => {
      const { supplier, sandbox } = await boot(kit, { slowReplyMs: 3000 }, { timeoutMs: 300 });
      const refId = newRefId();
      const outcome = await supplier.order({
        cmd: "prepaid",
        code: "TSEL10",
        customerNo: phone("906"),
        refId,
      });
      unknownWith(outcome, "TIMEOUT");
      const status = await supplier.status(refId);
      expect(status).toMatchObject({ found: true, transaction: { refId, code: "TSEL10" } });
      await sandbox.settleNow();
      expect(await supplier.status(refId)).toMatchObject({
        found: true,
        transaction: { status: "success" },
      });
    });

    it("907: the transaction is made, the reply is a 500 → unknown; status finds it", async () => {
      const { supplier, sandbox } = await boot(kit);
      const refId = newRefId();
      const before = sandbox.account().balance;
      unknownWith(
        await supplier.order({ cmd: "game", code: "ML86", customerNo: "12345(2907)", refId }),
        "SERVER_ERROR",
      );
      const status = await supplier.status(refId);
      expect(status).toMatchObject({ found: true, transaction: { refId, code: "ML86" } });
      if (status.found) expect(sandbox.account().balance).toBe(before - status.transaction.price);
    });

    it("bills follow the same table: 902 fails and is refunded, 901 succeeds", async () => {
      const { supplier, sandbox } = await boot(kit);
      const before = sandbox.account().balance;
      const failing = { code: "PLNPOST", customerNo: "5300123902", refId: newRefId() };
      await supplier.inquiry(failing);
      const failed = accepted(await supplier.payBill(failing));
      expect(failed).toMatchObject({
        kind: "bill",
        status: "failed",
        sn: null,
        supplierCode: kit.code("bill", "failed"),
      });
      expect(sandbox.account().balance).toBe(before);

      const paying = { code: "BPJS", customerNo: "8888801234901", refId: newRefId() };
      const inquiry = await supplier.inquiry(paying);
      const paid = accepted(await supplier.payBill(paying));
      expect(paid).toMatchObject({
        status: "success",
        supplierCode: kit.code("bill", "success"),
        price: inquiry.total,
      });
      expect(paid.sn).toBeTruthy();
      expect(sandbox.account().balance).toBe(before - inquiry.total);
    });
  });

  describe("bills against the sandbox", () => {
    it("inquiry → payBill within the window; the bill's detail amounts are integers", async () => {
      const { supplier, sandbox, clock } = await boot(kit);
      const receiver = await callbackReceiver();
      sandbox.account().setCallbackUrl(receiver.url);
      const before = sandbox.account().balance;
      const request = { code: "PLNPOST", customerNo: "530012345673", refId: newRefId() };
      const inquiry = await supplier.inquiry(request);
      expect(inquiry).toMatchObject({
        refId: request.refId,
        customerNo: request.customerNo,
        code: "PLNPOST",
      });
      expect(inquiry.total).toBe(inquiry.tagihan + inquiry.admin);
      expect(inquiry.desc?.lembarTagihan).toBe(3);
      expect(inquiry.desc?.detail).toHaveLength(3);
      for (const period of inquiry.desc?.detail ?? []) {
        expect(Number.isSafeInteger(period.nilaiTagihan)).toBe(true);
      }
      const msLeft = inquiry.expiresAt.getTime() - clock.now();
      expect(msLeft).toBeGreaterThan(4 * 60 * 1000);
      expect(msLeft).toBeLessThanOrEqual(5 * 60 * 1000);

      clock.advance(4 * 60 * 1000);
      const pending = accepted(await supplier.payBill(request));
      expect(pending).toMatchObject({
        kind: "bill",
        status: "pending",
        price: inquiry.total,
        supplierCode: kit.code("bill", "pending"),
      });
      expect(pending.bill).toMatchObject({
        tagihan: inquiry.tagihan,
        admin: inquiry.admin,
        total: inquiry.total,
      });
      expect(sandbox.account().balance).toBe(before - inquiry.total);

      await sandbox.settleNow();
      const status = await supplier.status(request.refId);
      expect(status).toMatchObject({
        found: true,
        transaction: { kind: "bill", status: "success" },
      });
      if (status.found) expect(status.transaction.bill?.desc?.detail).toHaveLength(3);
      const callbacks = callbacksFor(receiver.received, request.refId, clock);
      expect(callbacks.map((c) => [c.transaction.kind, c.transaction.status])).toEqual([
        ["bill", "success"],
      ]);

      // paying again returns the same payment and charges nothing
      const again = accepted(await supplier.payBill(request));
      expect(again.status).toBe("success");
      expect(sandbox.account().balance).toBe(before - inquiry.total);
    });

    it("payBill after the 5-minute window → rejected INQUIRY_EXPIRED", async () => {
      const { supplier, sandbox, clock } = await boot(kit);
      const request = { code: "PLNPOST", customerNo: "530012345670", refId: newRefId() };
      await supplier.inquiry(request);
      clock.advance(5 * 60 * 1000 + 1000);
      const before = sandbox.account().balance;
      rejectedWith(await supplier.payBill(request), "INQUIRY_EXPIRED");
      expect(sandbox.account().balance).toBe(before);
    });

    it("payBill with another customer number → rejected INQUIRY_MISMATCH", async () => {
      const { supplier } = await boot(kit);
      const request = { code: "PLNPOST", customerNo: "530012345670", refId: newRefId() };
      await supplier.inquiry(request);
      rejectedWith(
        await supplier.payBill({ ...request, customerNo: "530012345680" }),
        "INQUIRY_MISMATCH",
      );
    });

    it("payBill without an inquiry → rejected INQUIRY_NOT_FOUND", async () => {
      const { supplier } = await boot(kit);
      rejectedWith(
        await supplier.payBill({ code: "PLNPOST", customerNo: "530012345670", refId: newRefId() }),
        "INQUIRY_NOT_FOUND",
      );
    });

    it("inquiry failures throw: INQUIRY_FAILED (no bill due), PRODUCT_NOT_FOUND, INVALID_CUSTOMER_NO, PRODUCT_INACTIVE", async () => {
      const { supplier } = await boot(kit);
      const ask = (code: string, customerNo: string) =>
        thrown(supplier.inquiry({ code, customerNo, refId: newRefId() }));
      expect((await ask("PLNPOST", "530012345679")).code).toBe("INQUIRY_FAILED");
      expect((await ask("TSEL10", "530012345670")).code).toBe("PRODUCT_NOT_FOUND");
      expect((await ask("PLNPOST", "12")).code).toBe("INVALID_CUSTOMER_NO");
      expect((await ask("PDAMAMB", "530012345670")).code).toBe("PRODUCT_INACTIVE");
    });

    it("a bill inquiry on a ref_id an order took → VALIDATION_ERROR with field errors", async () => {
      const { supplier } = await boot(kit);
      const refId = newRefId();
      accepted(
        await supplier.order({ cmd: "prepaid", code: "TSEL10", customerNo: phone("901"), refId }),
      );
      const err = await thrown(
        supplier.inquiry({ code: "PLNPOST", customerNo: "530012345670", refId }),
      );
      expect(err.code).toBe("VALIDATION_ERROR");
      expect(err.details.errors).toHaveProperty("ref_id");
    });
  });
});
