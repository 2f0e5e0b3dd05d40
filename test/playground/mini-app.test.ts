import { join } from "node:path";
import type { Browser, BrowserContext, Frame, Page } from "playwright-core";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import {
  browserMissing,
  launchBrowser,
  SCREENSHOTS,
} from "../../packages/bot-api-server/test/browser.ts";
import { listUserOrders } from "../../src/commerce/orders/queries.ts";
import { walletBalance } from "../../src/commerce/wallet/ledger.ts";
import { DEMO_BALANCE, PLAYGROUND_CUSTOMER } from "../../src/playground/mode.ts";
import { bootApp, type TestApp } from "../helpers/app.ts";
import { testDriver } from "../helpers/db.ts";
import { lastBotMessage, send } from "./chat-page.ts";

// after `npm start`, with nothing configured: the shop's Mini App beside the playground's
// chat, found by typing a few letters and bought in two taps, the result in the app and in
// the chat; the same product found from the chat's input with @bot; the SN copied in one tap

// page functions run in the browser; this file is compiled without the DOM library
declare const document: { documentElement: { scrollWidth: number; clientWidth: number } };
declare const navigator: { clipboard: { readText(): Promise<string> } };
declare function fetch(url: string, init: unknown): Promise<{ status: number }>;

const STEP_MS = 15_000;
const PHONE = "0812 3456 7901";

describe(`the Mini App in the playground, in Chromium (${testDriver})`, () => {
  let t: TestApp;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  let problems: string[];
  let missing: string | undefined;
  let bought = 0;

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

  beforeEach(async () => {
    if (missing) throw new Error(missing);
    await context?.close();
    context = await browser.newContext({ viewport: { width: 1024, height: 800 } });
    context.setDefaultTimeout(STEP_MS);
    await context.grantPermissions(["clipboard-read", "clipboard-write"], { origin: t.baseUrl });
    page = await context.newPage();
    problems = [];
    page.on("pageerror", (err) => problems.push(`page error: ${err.message}`));
    page.on("console", (msg) => {
      if (msg.type() === "error") problems.push(`console error: ${msg.text()}`);
    });
    await page.goto(`${t.baseUrl}/`);
    await page.locator("[data-ready=true]").waitFor();
  });

  /** the Mini App's frame, once its page has loaded and read the buyer */
  async function appFrame(): Promise<Frame> {
    await page.getByTestId("web-app").waitFor();
    const handle = await page.getByTestId("web-app-frame").elementHandle();
    await expect
      .poll(async () => (await handle?.contentFrame())?.url() ?? "")
      .toContain("/app#tgWebAppData=");
    const frame = await handle?.contentFrame();
    if (!frame) throw new Error("the Mini App frame went away");
    await frame.locator('[data-testid="app"][data-ready="true"]').waitFor();
    return frame;
  }

  /** /start, then 🛍 Katalog under the welcome */
  async function openCatalogue(): Promise<Frame> {
    await send(page, "/start");
    await lastBotMessage(page, /Halo/)
      .getByTestId("button")
      .filter({ hasText: "🛍 Katalog" })
      .click();
    return appFrame();
  }

  it("finds Telkomsel 10.000 from a few letters and buys it in two taps; the result lands in the app and the chat", async () => {
    const frame = await openCatalogue();
    await expect(page.getByTestId("web-app-title").textContent()).resolves.toBe("Kios");
    await frame.getByTestId("balance").filter({ hasText: "Saldo Rp500.000" }).waitFor();
    // the phone number first: its operator, as the chat detects it
    await frame.getByTestId("destination").fill(PHONE);
    await frame.getByTestId("operator").filter({ hasText: "Telkomsel" }).waitFor();
    await frame.getByTestId("search").pressSequentially("tsel 10");
    const product = frame.getByTestId("product").filter({ hasText: "Telkomsel 10.000" });
    await product.first().waitFor();
    await page
      .getByTestId("web-app")
      .screenshot({ path: join(SCREENSHOTS, "mini-app-search.png") });
    const listed = Number(
      (await product.first().getByTestId("product-price").textContent())!.replace(/\D/g, ""),
    );

    // tap 1: the product; its quote, and the same card in the chat
    await product.first().click();
    await frame
      .getByTestId("quote-price")
      .filter({ hasText: /^Rp[\d.]+$/ })
      .waitFor();
    const price = Number(
      (await frame.getByTestId("quote-price").textContent())!.replace(/\D/g, ""),
    );
    expect(price).toBe(listed);
    await expect(frame.getByTestId("quote-destination").textContent()).resolves.toBe(
      "081234567901",
    );
    const card = lastBotMessage(page, /Konfirmasi pembelian/);
    await card.waitFor();
    expect(await card.getByTestId("message-text").textContent()).toContain(
      "Produk: Telkomsel 10.000",
    );
    const pay = page.getByTestId("web-app-main-button");
    await pay.filter({ hasText: `Bayar Rp${price.toLocaleString("id-ID")}` }).waitFor();
    await page.getByTestId("web-app").screenshot({ path: join(SCREENSHOTS, "mini-app-quote.png") });

    // tap 2: Pay. The app shows ✅ with the SN; the chat's card moved to it too
    await pay.click();
    await frame.getByTestId("result-head").filter({ hasText: "✅ Berhasil" }).waitFor();
    const done = lastBotMessage(page, /Berhasil/);
    await done.waitFor();
    // the wallet the app shows has moved too
    await frame
      .getByTestId("balance")
      .filter({ hasText: `Saldo Rp${(DEMO_BALANCE - bought - price).toLocaleString("id-ID")}` })
      .waitFor();
    const [order] = (
      await listUserOrders(t.app.database.db, PLAYGROUND_CUSTOMER.id, {
        limit: 1,
        offset: 0,
      })
    ).items;
    expect(order).toMatchObject({ productCode: "TSEL10", status: "success" });
    expect(await frame.getByTestId("result-serial").textContent()).toBe(`SN: ${order!.sn}`);
    expect(await done.getByTestId("message-text").textContent()).toContain(`SN: ${order!.sn}`);
    await page.screenshot({ path: join(SCREENSHOTS, "mini-app-checkout.png") });
    bought += price;
    expect(await walletBalance(t.app.database.db, PLAYGROUND_CUSTOMER.id)).toBe(
      DEMO_BALANCE - bought,
    );

    // the result's SN is copied in one tap, in the chat
    await done.getByTestId("button").filter({ hasText: "📋 Salin SN" }).click();
    await page.getByTestId("toast").filter({ hasText: "Copied" }).waitFor();
    await expect(page.evaluate(() => navigator.clipboard.readText())).resolves.toBe(order!.sn);
    expect(problems).toEqual([]);
  });

  it("opens from the menu button, says what is wrong with a destination, and a forged initData gets 401", async () => {
    await send(page, "/start");
    await lastBotMessage(page, /Halo/).waitFor();
    // the bot made the chat's menu button the Mini App
    await page.getByTestId("menu-web-app").filter({ hasText: "🛍 Katalog" }).click();
    const frame = await appFrame();
    // a game: the account is asked in the app, and a wrong one is refused in words
    await frame.getByTestId("search").pressSequentially("free fire 140");
    await frame.getByTestId("product").filter({ hasText: "Free Fire 140 Diamonds" }).click();
    await frame.getByTestId("ask-label").filter({ hasText: "ID akun game" }).waitFor();
    await frame.getByTestId("ask-destination").fill("no");
    await page.getByTestId("web-app-main-button").filter({ hasText: "Lanjut" }).click();
    await frame.getByTestId("sheet-error").filter({ hasText: "Tujuan tidak valid" }).waitFor();
    // the same page, with initData Telegram never signed
    const status = await frame.evaluate(async () => {
      const res = await fetch("/app/api/me", {
        headers: { authorization: "tma user=%7B%22id%22%3A100002%7D&auth_date=1&hash=00" },
      });
      return res.status;
    });
    expect(status).toBe(401);
    // the browser logs the refusals it was shown (422, 401); nothing else went wrong
    expect(problems.filter((p) => !/status of (401|422)/.test(p))).toEqual([]);
  });

  it("finds the product from the chat's input with @bot, and its link opens the purchase", async () => {
    const input = page.getByTestId("input");
    await input.click();
    await input.pressSequentially("@kios_playground_bot tsel 10");
    const results = page.getByTestId("inline-results").getByTestId("inline-result");
    await results.filter({ hasText: "Telkomsel 10.000" }).first().waitFor();
    await page.screenshot({ path: join(SCREENSHOTS, "mini-app-inline.png") });
    await results.filter({ hasText: "Telkomsel 10.000" }).first().click();
    const sent = page
      .locator('[data-testid="message"][data-sender="user"]')
      .filter({ hasText: "🛒 Telkomsel 10.000" })
      .last();
    await sent.waitFor();
    await sent.getByTestId("button").filter({ hasText: "🛒 Beli" }).click();
    const asked = lastBotMessage(page, /Masukkan nomor HP/);
    await asked.waitFor();
    expect(await asked.getByTestId("message-text").textContent()).toMatch(
      /^🛒 Telkomsel 10\.000 · Rp[\d.]+/,
    );
    await send(page, PHONE);
    const card = lastBotMessage(page, /Konfirmasi pembelian/);
    await card.waitFor();
    expect(await card.getByTestId("message-text").textContent()).toContain("Tujuan: 081234567901");
    expect(problems).toEqual([]);
  });

  it("fits a 360 px phone, over the chat", async () => {
    await page.setViewportSize({ width: 360, height: 740 });
    const frame = await openCatalogue();
    const box = await page.getByTestId("web-app").boundingBox();
    expect(box).toEqual({ x: 0, y: 0, width: 360, height: 740 });
    await frame.getByTestId("destination").fill(PHONE);
    await frame.getByTestId("operator").filter({ hasText: "Telkomsel" }).waitFor();
    await frame.getByTestId("search").pressSequentially("data 10gb 30");
    // the number keeps data packages to its operator
    await frame
      .getByTestId("list-hint")
      .filter({ hasText: /^\d+ produk$/ })
      .waitFor();
    const operatorsShown = async () =>
      new Set(
        (await frame.getByTestId("product").allTextContents()).map(
          // the brand and category in the shop's words ("Telkomsel · Paket Data"), right
          // after the product's name
          (p) => /([A-Z][a-z.]*|[A-Z]{2,}|by\.U) · Paket Data/.exec(p)?.[1],
        ),
      );
    await expect.poll(operatorsShown, { timeout: 30_000 }).toEqual(new Set(["Telkomsel"]));
    await expect(frame.getByTestId("product").first().textContent()).resolves.toMatch(
      /^Telkomsel Data (Malam )?10GB 30 Hari/,
    );
    const overflow = await frame.evaluate(
      () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
    );
    expect(overflow).toBe(0);
    await page.screenshot({ path: join(SCREENSHOTS, "mini-app-mobile.png") });
    expect(problems).toEqual([]);
  });
});
