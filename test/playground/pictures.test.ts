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
import { lastBotMessage, openAirtimeCard, send } from "./chat-page.ts";

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
    const card = await openAirtimeCard(page, "0812 3456 7921", STEP_MS);
    await card.getByTestId("button").filter({ hasText: /Bayar/ }).click();
    const done = lastBotMessage(page, /Berhasil/);
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
    await send(page, "/laporan 7");
    const chart = await lastPicture();
    expect(chart.width).toBeGreaterThan(900);
    await page.screenshot({ path: join(SCREENSHOTS, "playground-laporan.png") });
  });
});
