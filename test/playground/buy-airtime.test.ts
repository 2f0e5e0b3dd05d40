import { join } from "node:path";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  browserMissing,
  launchBrowser,
  SCREENSHOTS,
} from "../../packages/bot-api-server/test/browser.ts";
import { walletBalance } from "../../src/commerce/wallet/ledger.ts";
import { DEMO_BALANCE, PLAYGROUND_CUSTOMER } from "../../src/playground/mode.ts";
import { bootApp, type TestApp } from "../helpers/app.ts";
import { testDriver } from "../helpers/db.ts";
import { lastBotMessage, openAirtimeCard } from "./chat-page.ts";

// what a newcomer does after `npm start`: open the page and buy airtime by clicking, with
// the real kios (its bot, engine and sandbox supplier) behind the page

const STEP_MS = 15_000;

describe(`buying airtime in the playground, in Chromium (${testDriver})`, () => {
  let t: TestApp;
  let browser: Browser;
  let page: Page;
  let missing: string | undefined;

  beforeAll(async () => {
    missing = browserMissing();
    if (missing) return;
    t = await bootApp({ playground: true });
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await t?.stop();
  });

  it("opens the page, buys Telkomsel 10.000 by clicking, and sees the SN", async () => {
    if (missing) throw new Error(missing);
    const context = await browser.newContext({ viewport: { width: 1024, height: 800 } });
    context.setDefaultTimeout(STEP_MS);
    page = await context.newPage();
    const problems: string[] = [];
    page.on("pageerror", (err) => problems.push(err.message));

    await page.goto(`${t.baseUrl}/`);
    await page.locator("[data-ready=true]").waitFor();
    const card = await openAirtimeCard(page, "0812 3456 7901", STEP_MS);
    const cardText = (await card.getByTestId("message-text").textContent()) ?? "";
    expect(cardText).toContain("Produk: Telkomsel 10.000");
    const price = Number(/Harga: Rp([\d.]+)/.exec(cardText)?.[1]?.replaceAll(".", ""));
    expect(price).toBeGreaterThan(10_000);
    await card.getByTestId("button").filter({ hasText: /Bayar/ }).click();

    // the same message moves to ✅ with the serial number
    const done = lastBotMessage(page, /Berhasil/);
    await done.waitFor();
    expect(await done.getByTestId("message-text").textContent()).toMatch(/SN/);
    await page.screenshot({ path: join(SCREENSHOTS, "playground-airtime.png") });

    expect(await walletBalance(t.app.database.db, PLAYGROUND_CUSTOMER.id)).toBe(
      DEMO_BALANCE - price,
    );
    expect(problems).toEqual([]);
    await context.close();
  });
});
