import { verifyCallback } from "@kios/kit";
import { describe, expect, it } from "vitest";
import { createLogger } from "../../../src/logger.ts";
import type { KeySupplier } from "../../../src/supplier/key/client.ts";
import { newRefId } from "../../../src/supplier/ref-id.ts";
import { parseSupplierReport } from "../../../src/supplier/report.ts";
import { memorySink } from "../../helpers/app.ts";
import {
  accepted,
  boot,
  callbackReceiver,
  cleanUpAfterEach,
  kitOf,
  phone,
  rejectedWith,
  thrown,
} from "../contract-kit.ts";

// the key interface's own cases against the sandbox: Bearer auth, the old release's forms,
// trx_id lookups, deprecation warnings, and that both interfaces share one supplier
// (accounts, catalogue, transactions, callbacks). The shared contract is contract.test.ts.

cleanUpAfterEach();
const kit = kitOf("key");
const asKey = (s: unknown) => s as KeySupplier;

/** a fetch that rewrites what the client sends, to force forms it never sends itself */
function rewriting(
  change: (url: string, init: RequestInit) => { url: string; init: RequestInit },
): typeof fetch {
  return (input, init) => {
    const next = change(String(input), { ...init });
    return fetch(next.url, next.init);
  };
}

describe("Bearer authentication", () => {
  it("no Authorization header → UNAUTHORIZED (read throws, order rejected, nothing charged)", async () => {
    const { client, sandbox } = await boot(kit);
    const bare = client({
      fetch: rewriting((url, init) => {
        const headers = new Headers(init.headers);
        headers.delete("authorization");
        return { url, init: { ...init, headers } };
      }),
    });
    expect((await thrown(bare.balance())).code).toBe("UNAUTHORIZED");
    const before = sandbox.account().balance;
    rejectedWith(
      await bare.order({
        cmd: "prepaid",
        code: "TSEL10",
        customerNo: phone("901"),
        refId: newRefId(),
      }),
      "UNAUTHORIZED",
    );
    expect(sandbox.account().balance).toBe(before);
    expect(sandbox.transactions()).toHaveLength(0);
  });
});

describe("the old release's forms answer 410 → GONE", () => {
  it("POST /v1/check instead of /v1/inquiry", async () => {
    const { client } = await boot(kit);
    const old = client({
      fetch: rewriting((url, init) => ({ url: url.replace(/\/inquiry$/, "/check"), init })),
    });
    const err = await thrown(
      old.inquiry({ code: "PLNPOST", customerNo: "530012345670", refId: newRefId() }),
    );
    expect(err.code).toBe("GONE");
    expect(err.message).toContain("customer_id instead of phone");
  });

  it("phone instead of customer_id: rejected, nothing charged", async () => {
    const { client, sandbox } = await boot(kit);
    const old = client({
      fetch: rewriting((url, init) => ({
        url,
        init: { ...init, body: String(init.body).replace('"customer_id"', '"phone"') },
      })),
    });
    const before = sandbox.account().balance;
    rejectedWith(
      await old.order({
        cmd: "prepaid",
        code: "TSEL10",
        customerNo: phone("901"),
        refId: newRefId(),
      }),
      "GONE",
    );
    expect(sandbox.account().balance).toBe(before);
  });
});

describe("transactions by trx_id", () => {
  it("GET /v1/transaction/<trx_id> finds what the order returned, and nothing else", async () => {
    // settled only by settleNow(), so the pending state can be seen first
    const { supplier, sandbox } = await boot(kit, { settleDelayMs: 600_000 });
    const refId = newRefId();
    const placed = accepted(
      await supplier.order({ cmd: "prepaid", code: "TSEL10", customerNo: phone("903"), refId }),
    );
    expect(placed.trxId).toMatch(/^T[0-9A-F]{19}$/);
    const byId = await asKey(supplier).transactionById(placed.trxId!);
    expect(byId).toMatchObject({ found: true, transaction: { refId, status: "pending" } });
    await sandbox.settleNow();
    expect(await asKey(supplier).transactionById(placed.trxId!)).toMatchObject({
      found: true,
      transaction: { refId, status: "success", trxId: placed.trxId },
    });
    expect(await asKey(supplier).transactionById("T0000000000000000000")).toEqual({
      found: false,
    });
  });
});

describe("deprecation warnings from the sandbox", () => {
  it("are logged once per endpoint at warn level and listed by notices()", async () => {
    const sink = memorySink();
    const logger = createLogger({ level: "warn", pretty: false, destination: sink.stream });
    const { supplier, sandbox } = await boot(kit, {}, { logger });
    await supplier.balance();
    expect(asKey(supplier).notices()).toEqual([]);
    sandbox.deprecationWarning = "this key interface ends on 1 July 2027";
    await supplier.balance();
    await supplier.balance();
    await supplier.status(newRefId());
    expect(asKey(supplier).notices()).toEqual([
      "GET /v1/balance: this key interface ends on 1 July 2027",
      "GET /v1/transaction: this key interface ends on 1 July 2027",
    ]);
    await new Promise((r) => setTimeout(r, 20));
    const warned = sink
      .text()
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l) as Record<string, unknown>)
      .filter((l) => l.msg === "supplier deprecation warning");
    expect(warned.map((l) => [l.level, l.endpoint])).toEqual([
      [40, "GET /v1/balance"],
      [40, "GET /v1/transaction"],
    ]);
  });
});

describe("one supplier behind both interfaces", () => {
  it("the same catalogue, product for product", async () => {
    const { supplier, sandbox, clock } = await boot(kit);
    const signature = kitOf("signature").make(sandbox.url, { clock });
    for (const cmd of ["prepaid", "game", "pasca"] as const) {
      expect(await supplier.products(cmd)).toEqual(await signature.products(cmd));
    }
  });

  it("a ref_id is one transaction whichever interface asks: no second charge", async () => {
    const { supplier, sandbox, clock } = await boot(kit);
    const signature = kitOf("signature").make(sandbox.url, { clock });
    const request = {
      cmd: "prepaid" as const,
      code: "TSEL10",
      customerNo: phone("901"),
      refId: newRefId(),
    };
    const viaKey = accepted(await supplier.order(request));
    const balance = sandbox.account().balance;
    const viaSignature = accepted(await signature.order(request));
    expect(viaSignature).toMatchObject({ refId: request.refId, status: "success", sn: viaKey.sn });
    expect(sandbox.account().balance).toBe(balance);
    expect(await signature.status(request.refId)).toMatchObject({ found: true });
    expect((await supplier.balance()).balance).toBe((await signature.balance()).balance);
  });

  it("callbacks of a key's transactions are signed with that key's secret, in the documented format", async () => {
    const { client, sandbox, clock } = await boot(kit);
    sandbox.account().addKey({ apiKey: "ak-shop-2", secretKey: "sk-shop-2" });
    const receiver = await callbackReceiver();
    sandbox.account().setCallbackUrl(receiver.url);
    const refId = newRefId();
    accepted(
      await client({ apiKey: "ak-shop-2" }).order({
        cmd: "prepaid",
        code: "TSEL10",
        customerNo: phone("903"),
        refId,
      }),
    );
    await sandbox.settleNow();
    const [delivery] = receiver.received.filter((r) => r.raw.includes(refId));
    if (!delivery) throw new Error("no callback arrived");
    const check = (secret: string) =>
      verifyCallback(secret, delivery.raw, delivery.timestamp, delivery.signature, clock.now());
    expect(check("sk-shop-2")).toEqual({ ok: true });
    expect(check("sandbox-secret-key").ok).toBe(false);
    expect(parseSupplierReport(delivery.raw)).toMatchObject({
      event: "transaction.final",
      transaction: { kind: "order", refId, status: "success" },
    });
  });
});
