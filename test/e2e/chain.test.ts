import { freePort, ManualClock } from "@kios/kit";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { createSecretBox } from "../../src/commerce/h2h/cipher.ts";
import { createKey, type IssuedKey, updateKeySettings } from "../../src/commerce/h2h/keys.ts";
import { setTier } from "../../src/commerce/users.ts";
import { creditWallet, walletBalance } from "../../src/commerce/wallet/ledger.ts";
import { verifyLedger } from "../../src/commerce/wallet/verify.ts";
import { h2hCallbacks } from "../../src/db/schema.ts";
import { bootApp, type TestApp } from "../helpers/app.ts";
import { testDriver } from "../helpers/db.ts";
import { type Journey, startJourney } from "../helpers/e2e.ts";
import { patient } from "../helpers/patience.ts";
import {
  airtimeCard,
  callbacksFor,
  expectMoney,
  formatRupiah,
  lastOrder,
  openMenu,
  plnBillCard,
  rupiahOf,
} from "./steps.ts";

// issue 27's proof: a chain of two kios. A sells from the sandbox and serves /h2h/v1; B is
// configured with nothing but SUPPLIER_BASE_URL = A's /h2h/v1 and a reseller's credentials
// from A. A customer of B buys in B's chat; each order reaches A as an H2H order, the SN
// comes back by A's callback into B's chat, both ledgers verify, and B's supplier balance
// is A's reseller wallet.

const H2H_KEY = "chain-test-h2h-encryption-key-0123456789";
const RESELLER = 8_800_001;

describe(`a chain of two kios: B buys from A over H2H (${testDriver})`, () => {
  let a: TestApp;
  let b: Journey;
  let key: IssuedKey;
  beforeAll(async () => {
    a = await bootApp({
      env: { H2H_ENCRYPTION_KEY: H2H_KEY },
      logLevel: "warn",
      clock: new ManualClock(),
      sandbox: { settleDelayMs: 300 },
    });
    const db = a.app.database.db;
    const issued = await createKey(db, createSecretBox(H2H_KEY), RESELLER);
    if (!issued.ok) throw new Error(issued.reason);
    key = issued.key;
    await setTier(db, RESELLER, "reseller");
    await creditWallet(db, { userId: RESELLER, amount: 5_000_000, key: "chain:seed" });
    const bPort = await freePort();
    await updateKeySettings(db, RESELLER, {
      callbackUrl: `http://127.0.0.1:${bPort}/supplier/callback`,
    });
    b = await startJourney({
      env: {
        PORT: String(bPort),
        SUPPLIER_BASE_URL: `${a.baseUrl}/h2h/v1`,
        SUPPLIER_API_ID: key.apiId,
        SUPPLIER_API_KEY: key.apiKey,
        SUPPLIER_SECRET_KEY: key.secretKey,
        PAYMENT_GATEWAY: "none",
      },
    });
    // B's first catalogue comes from A, as a job
    await vi.waitFor(
      async () => {
        const { rows } = await b.app.app.database.executeSql(
          "select count(*)::int as n from products",
        );
        expect(Number(rows[0]?.n)).toBeGreaterThan(1000);
      },
      { timeout: patient(90_000), interval: 500 },
    );
  }, patient(180_000));
  afterAll(async () => {
    await b?.stop();
    await a?.stop();
  });

  async function booksAgree() {
    const aReport = await verifyLedger(a.app.database);
    expect(aReport.problems).toEqual([]);
    const bBalance = await b.app.app.supplier!.supplier.balance();
    expect(bBalance.balance).toBe(await walletBalance(a.app.database.db, RESELLER));
  }

  it("airtime left pending at A: the SN comes back by A's callback into B's chat", async () => {
    const u = 91_001;
    b.user(u);
    await b.fund(u, 100_000);
    const card = await airtimeCard(b, u, "0812 3456 7903");
    const price = rupiahOf(card.text, "Harga");
    b.tap(u, card, /Bayar/);
    const done = await b.waitEdit(u, card.message_id, /✅ Berhasil/);
    const order = await lastOrder(b, u);
    expect(order.status).toBe("success");
    expect(done.text).toContain(`SN: ${order.sn}`);
    // A delivered its callback (B's order is A's H2H order under B's ref_id)
    const delivered = await a.app.database.db.select().from(h2hCallbacks);
    expect(delivered.some((c) => c.body.includes(order.refId) && c.status === "delivered")).toBe(
      true,
    );
    // and B stored it as its supplier's report, verified with the reseller's secret
    const reports = await vi.waitFor(async () => {
      const rows = await callbacksFor(b, order.refId);
      expect(rows.length).toBeGreaterThan(0);
      return rows;
    });
    expect(reports[0]!.reportedStatus).toBe("success");
    await expectMoney(b, u, 100_000 - price);
    await booksAgree();
  });

  it("a PLN token: the token A's supplier made reaches B's chat", async () => {
    const u = 91_002;
    b.user(u);
    await b.fund(u, 100_000);
    const menu = await openMenu(b, u, /Token PLN/);
    await b.waitMessage(u, /nomor meter/, menu.message_id);
    const at = b.say(u, "12345678901");
    const list = await b.waitMessage(u, /Pilih nominal token untuk meter 12345678901/, at);
    await b.tapItem(u, list, /^Token PLN 20\.000 ·/);
    const card = await b.waitMessage(u, /Konfirmasi pembelian/, list.message_id);
    expect(card.text).toContain("Token PLN 20.000");
    const price = rupiahOf(card.text, "Harga");
    b.tap(u, card, /Bayar/);
    const done = await b.waitEdit(u, card.message_id, /Berhasil/);
    const order = await lastOrder(b, u);
    const token = order.sn!.split("/")[0]!;
    expect(token).toMatch(/^\d{20}$/);
    expect(done.text).toContain(`Token: ${token.replace(/(\d{4})(?=\d)/g, "$1 ")}`);
    await expectMoney(b, u, 100_000 - price);
    await booksAgree();
  });

  it("a two-period PLN bill: inquired at A, paid at A, the result pushed in B's chat", async () => {
    const u = 91_003;
    b.user(u);
    await b.fund(u, 2_000_000);
    const card = await plnBillCard(b, u, "532100000012");
    expect(card.text).toContain("Lembar tagihan: 2");
    const total = rupiahOf(card.text, "Total bayar");
    b.tap(u, card, /Bayar/);
    const paid = await b.waitEdit(u, card.message_id, /✅ Berhasil/);
    expect(paid.text).toContain(`Harga: ${formatRupiah(total)}`);
    expect(await lastOrder(b, u)).toMatchObject({ kind: "bill", status: "success" });
    await expectMoney(b, u, 2_000_000 - total);
    await booksAgree();
  });
});
