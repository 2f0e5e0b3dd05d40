import { join } from "node:path";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  browserMissing,
  launchBrowser,
  SCREENSHOTS,
} from "../../packages/bot-api-server/test/browser.ts";
import { PLAYGROUND_ADMIN } from "../../src/playground/mode.ts";
import { bootApp, type TestApp } from "../helpers/app.ts";
import { testDriver } from "../helpers/db.ts";

// pictures where people look, as the playground shows them: a purchase's receipt (🧾 Struk)
// and the owner's /laporan chart render as images in the chat page, in Chromium.

const STEP_MS = 20_000;

describe(`receipts and charts in the playground, in Chromium (${testDriver})`, () => {
  let t: TestApp;
  let browser: Browser;
  let page: Page;
  let missing: string | undefined;

  beforeAll(async () => {
    missing = browserMissing();
    if (missing) return;
    t = await bootApp({ playground: true, env: { PAYMENT_GATEWAY: "none" } });
    browser = await launchBrowser();
    const context = await browser.newContext({ viewport: { width: 1024, height: 900 } });
    context.setDefaultTimeout(STEP_MS);
    page = await context.newPage();
    await page.goto(`${t.baseUrl}/`);
    await page.locator("[data-ready=true]").waitFor();
  });
  afterAll(async () => {
    await browser?.close();
    await t?.stop();
  });

  const botMessages = () => page.locator('[data-testid="message"][data-sender="bot"]');
  const lastBotMessage = (text: RegExp) =>
    botMessages()
      .filter({ has: page.getByTestId("message-text").filter({ hasText: text }) })
      .last();
  async function send(text: string) {
    const input = page.getByTestId("input");
    await input.click();
    await input.fill(text);
    await input.press("Enter");
  }
  /** the last picture in the chat, once the browser has decoded it */
  async function lastPicture(): Promise<{ width: number; height: number }> {
    const img = page.locator("img.photo").last();
    await img.waitFor();
    await expect
      .poll(() => img.evaluate((i) => (i as unknown as { naturalWidth: number }).naturalWidth))
      .toBeGreaterThan(100);
    return img.evaluate((i) => {
      const el = i as unknown as { naturalWidth: number; naturalHeight: number };
      return { width: el.naturalWidth, height: el.naturalHeight };
    });
  }

  it("shows a purchase's receipt, then the owner's chart, as pictures", {
    timeout: 120_000,
  }, async () => {
    if (missing) throw new Error(missing);
    // a reseller-style quick way to a card: the menu, a number, Pulsa, the product
    await send("/start");
    await lastBotMessage(/Halo/).getByTestId("button").filter({ hasText: "Pulsa & Data" }).click();
    await lastBotMessage(/nomor HP/).waitFor();
    await send("0812 3456 7921");
    await lastBotMessage(/pulsa atau paket data/)
      .getByTestId("button")
      .filter({ hasText: /^Pulsa$/ })
      .click();
    const list = lastBotMessage(/Pulsa Telkomsel untuk 081234567921/);
    const buttons = list.getByTestId("button");
    const item = buttons.filter({ hasText: /^Telkomsel 10\.000 ·/ });
    await buttons.first().waitFor();
    for (let pageNo = 0; pageNo < 10 && (await item.count()) === 0; pageNo++) {
      const shown = await buttons.allTextContents();
      await buttons.filter({ hasText: "▶️" }).click();
      await expect.poll(() => buttons.allTextContents(), { timeout: STEP_MS }).not.toEqual(shown);
    }
    await item.click();
    await lastBotMessage(/Konfirmasi pembelian/)
      .getByTestId("button")
      .filter({ hasText: /Bayar/ })
      .click();
    const done = lastBotMessage(/Berhasil/);
    await done.getByTestId("button").filter({ hasText: "Struk" }).click();
    const receipt = await lastPicture();
    expect(receipt.width).toBe(480);
    expect(receipt.height).toBeGreaterThan(300);
    await page.screenshot({ path: join(SCREENSHOTS, "playground-receipt.png") });

    await page.getByTestId("user-switcher").click();
    await page
      .locator(`[data-testid="user-option"][data-user-id="${PLAYGROUND_ADMIN.id}"]`)
      .click();
    await page.getByTestId("current-user").filter({ hasText: PLAYGROUND_ADMIN.name }).waitFor();
    await send("/laporan 7");
    const chart = await lastPicture();
    expect(chart.width).toBeGreaterThan(900);
    await page.screenshot({ path: join(SCREENSHOTS, "playground-laporan.png") });
  });
});
