import { join } from "node:path";
import type { Browser, BrowserContext, Locator, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  browserMissing,
  launchBrowser,
  SCREENSHOTS,
} from "../../packages/bot-api-server/test/browser.ts";
import { debitWallet, walletBalance } from "../../src/commerce/wallet/ledger.ts";
import { DEMO_BALANCE, PLAYGROUND_CUSTOMER } from "../../src/playground/mode.ts";
import { bootApp, type TestApp } from "../helpers/app.ts";
import { testDriver } from "../helpers/db.ts";
import { lastBotMessage, openAirtimeCard, send } from "./chat-page.ts";

// what a newcomer does after `npm start` to top up: /deposit, the QR, the sandbox's Pay
// button beside it, and the balance arriving in the same message; then "Top up and buy":
// a short wallet, one QR, and the card bought by itself. All by clicking, in Chromium.

const STEP_MS = 20_000;

describe(`topping up by QRIS in the playground, in Chromium (${testDriver})`, () => {
  let t: TestApp;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  let missing: string | undefined;

  beforeAll(async () => {
    missing = browserMissing();
    if (missing) return;
    t = await bootApp({ playground: true });
    browser = await launchBrowser();
    context = await browser.newContext({ viewport: { width: 1024, height: 900 } });
    context.setDefaultTimeout(STEP_MS);
    page = await context.newPage();
    await page.goto(`${t.baseUrl}/`);
    await page.locator("[data-ready=true]").waitFor();
  });
  afterAll(async () => {
    await browser?.close();
    await t?.stop();
  });

  /** clicks the QR's sandbox button: its page opens in a new tab, where Pay is pressed */
  async function payInSandbox(qr: Locator) {
    const opened = context.waitForEvent("page");
    await qr.getByTestId("button").filter({ hasText: "Bayar (sandbox)" }).click();
    const tab = await opened;
    await tab.waitForLoadState();
    expect(await tab.locator("#status").textContent()).toBe("pending");
    await tab.locator("#pay").click();
    await tab.locator("#status", { hasText: "settlement" }).waitFor();
    await tab.close();
  }

  it("tops up Rp50.000 by QR and sees the balance arrive in the same message", {
    timeout: 90_000,
  }, async () => {
    if (missing) throw new Error(missing);
    const problems: string[] = [];
    page.on("pageerror", (err) => problems.push(err.message));
    await send(page, "/deposit 50000");
    const qr = lastBotMessage(page, /Bayar Rp50\.000 dengan QRIS/);
    await qr.waitFor();
    // the QR is a real picture
    const img = qr.locator("img.photo");
    await expect
      .poll(() => img.evaluate((i) => (i as unknown as { naturalWidth: number }).naturalWidth))
      .toBeGreaterThan(100);
    await page.screenshot({ path: join(SCREENSHOTS, "playground-qris.png") });

    await payInSandbox(qr);
    const paid = lastBotMessage(page, /✅ Saldo masuk Rp50\.000/);
    await paid.waitFor();
    expect(await paid.getByTestId("message-text").textContent()).toContain(
      `Saldo kamu: Rp${(DEMO_BALANCE + 50_000).toLocaleString("id-ID")}`,
    );
    expect(await walletBalance(t.app.database.db, PLAYGROUND_CUSTOMER.id)).toBe(
      DEMO_BALANCE + 50_000,
    );
    await page.screenshot({ path: join(SCREENSHOTS, "playground-qris-paid.png") });
    expect(problems).toEqual([]);
  });

  it("buys with Top up and buy in one flow when the wallet is short", {
    timeout: 120_000,
  }, async () => {
    if (missing) throw new Error(missing);
    // leave the demo customer Rp3.000
    const db = t.app.database.db;
    const balance = await walletBalance(db, PLAYGROUND_CUSTOMER.id);
    await debitWallet(db, {
      userId: PLAYGROUND_CUSTOMER.id,
      amount: balance - 3_000,
      key: "test:short",
    });

    const card = await openAirtimeCard(page, "0812 3456 7911", STEP_MS);
    await card.getByTestId("button").filter({ hasText: /Bayar/ }).click();

    const short = lastBotMessage(page, /Saldo tidak cukup/);
    await short
      .getByTestId("button")
      .filter({ hasText: /& beli/ })
      .click();
    const qr = lastBotMessage(page, /dengan QRIS/);
    await qr.waitFor();
    await payInSandbox(qr);

    // the card that was short is bought by itself
    const done = lastBotMessage(page, /Berhasil/);
    // on a failure, the chat's last messages say where it stopped
    await done.waitFor().catch(async (e) => {
      console.log(
        (await page.getByTestId("message-text").allTextContents()).slice(-6).join("\n---\n"),
      );
      throw e;
    });
    expect(await done.getByTestId("message-text").textContent()).toMatch(/SN/);
    await lastBotMessage(
      page,
      /✅ Saldo masuk Rp10\.000\nDipakai untuk pembelian di atas/,
    ).waitFor();
    await page.screenshot({ path: join(SCREENSHOTS, "playground-top-up-and-buy.png") });
  });
});
