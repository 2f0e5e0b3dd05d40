import { join } from "node:path";
import type { Browser, BrowserContext, Frame, Page } from "playwright-core";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { checkInitData, DEFAULT_BOT } from "../index.ts";
import { browserMissing, launchBrowser, SCREENSHOTS } from "./browser.ts";
import { DEMO_CUSTOMER, type DemoPlayground, PROMO_CODE, startDemoPlayground } from "./demo-bot.ts";

// the chat page's Telegram-native parts in Chromium: a Mini App beside the chat (inline
// button and menu button), inline mode, copy buttons and deep links, against the demo bot and
// its demo Mini App

// page functions run in the browser; this file is compiled without the DOM library
declare const document: { documentElement: { scrollWidth: number; clientWidth: number } };
declare const window: { Telegram: { WebApp: { initData: string } } };
declare const navigator: { clipboard: { readText(): Promise<string> } };
declare function getComputedStyle(el: unknown): { getPropertyValue(name: string): string };

const STEP_MS = 8000;
const BOT = DEFAULT_BOT.username;

describe("the chat page's Mini Apps, inline mode, copy buttons and deep links in Chromium", () => {
  let playground: DemoPlayground;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  let problems: string[];
  let missing: string | undefined;

  beforeAll(async () => {
    missing = browserMissing();
    if (missing) return;
    playground = await startDemoPlayground({ processingMs: 200 });
    browser = await launchBrowser();
  });

  afterAll(async () => {
    await browser?.close();
    await playground?.close();
  });

  beforeEach(async () => {
    if (missing) throw new Error(missing);
    await context?.close();
    playground.botApi.reset();
    // a bot setting a reset keeps: back to the command list
    await playground.bot.api.setChatMenuButton({});
    playground.demo.chosen?.splice(0);
    context = await browser.newContext({ viewport: { width: 1024, height: 768 } });
    context.setDefaultTimeout(STEP_MS);
    await context.grantPermissions(["clipboard-read", "clipboard-write"], {
      origin: playground.url,
    });
    page = await context.newPage();
    problems = [];
    page.on("pageerror", (err) => problems.push(`page error: ${err.message}`));
    page.on("console", (msg) => {
      if (msg.type() === "error") problems.push(`console error: ${msg.text()}`);
    });
    page.on("request", (req) => {
      const url = req.url();
      if (!url.startsWith(`${playground.url}/`) && !/^(data|about):/.test(url))
        problems.push(`request to another origin: ${url}`);
    });
    await page.goto(`${playground.url}/`);
    await page.locator("[data-ready=true]").waitFor();
  });

  const botMessages = () => page.locator('[data-testid="message"][data-sender="bot"]');
  const userMessages = () => page.locator('[data-testid="message"][data-sender="user"]');

  async function typeAndSend(text: string) {
    const input = page.getByTestId("input");
    await input.click();
    await input.pressSequentially(text);
    await input.press("Enter");
    await expect.poll(() => input.inputValue()).toBe("");
  }

  /** the /toko message: a Mini App, a copy button, deep links and a switch-inline button */
  async function toko() {
    await typeAndSend("/toko");
    const message = botMessages().filter({ hasText: "Belanja lewat Mini App" });
    await message.waitFor();
    return message;
  }

  /** the Mini App's frame, once its page has loaded */
  async function appFrame(): Promise<Frame> {
    await page.getByTestId("web-app").waitFor();
    const handle = await page.getByTestId("web-app-frame").elementHandle();
    // the frame navigates from about:blank to the app
    await expect
      .poll(async () => (await handle?.contentFrame())?.url() ?? "")
      .toContain("/demo-app#tgWebAppData=");
    const frame = await handle?.contentFrame();
    if (!frame) throw new Error("the Mini App frame went away");
    await frame.getByTestId("hello").filter({ hasText: "Halo" }).waitFor();
    return frame;
  }

  it("opens a Mini App beside the chat: signed initData, the theme, a purchase through it", async () => {
    const message = await toko();
    await message.getByTestId("button").filter({ hasText: "Katalog" }).click();
    const frame = await appFrame();

    await expect(page.getByTestId("web-app-title").textContent()).resolves.toBe("Kios");
    await expect(frame.getByTestId("hello").textContent()).resolves.toBe(
      `Halo, ${DEMO_CUSTOMER.name}!`,
    );
    // the app's server checked initData with the bot token; so does this test
    await frame
      .getByTestId("auth")
      .filter({ hasText: `user ${DEMO_CUSTOMER.id}` })
      .waitFor();
    const initData = await frame.evaluate(() => window.Telegram.WebApp.initData);
    expect(checkInitData(DEFAULT_BOT.token, initData, { maxAgeSeconds: 60 })).toMatchObject({
      ok: true,
      user: { id: DEMO_CUSTOMER.id, first_name: DEMO_CUSTOMER.name },
      fields: { chat_type: "private" },
    });
    // the theme: colorScheme, and Telegram's CSS variables on <html>
    await expect(frame.getByTestId("theme").textContent()).resolves.toBe(
      "light rgb(255, 255, 255)",
    );
    await expect(
      frame
        .locator("html")
        .evaluate((el) => getComputedStyle(el).getPropertyValue("--tg-theme-button-color")),
    ).resolves.toBe("#3390ec");
    // ready() hid the spinner; a 360 px column beside the chat
    await page.getByTestId("web-app-loading").waitFor({ state: "hidden" });
    const box = await page.getByTestId("web-app").boundingBox();
    expect(box?.width).toBe(360);
    expect(box!.x + box!.width).toBe(1024);

    // MainButton, showConfirm, then the order the app's server sends into the chat
    await frame.getByTestId("product").filter({ hasText: "Telkomsel 10.000" }).click();
    const mainButton = page.getByTestId("web-app-main-button");
    await mainButton.filter({ hasText: "Beli TSEL10 · Rp10.500" }).waitFor();
    await page.screenshot({ path: join(SCREENSHOTS, "mini-app.png") });
    await mainButton.click();
    const popup = page.getByTestId("web-app-popup");
    await popup
      .getByTestId("web-app-popup-text")
      .filter({ hasText: "Beli Telkomsel 10.000" })
      .waitFor();
    await popup.locator('[data-button-id="ok"]').click();
    // close() after the order: the panel goes, the result is in the chat
    await page.getByTestId("web-app").waitFor({ state: "hidden" });
    await botMessages().filter({ hasText: "Pesanan dari Mini App: TSEL10" }).waitFor();
    expect(problems).toEqual([]);
  });

  it("opens the menu button's Mini App; its t.me link to the bot closes it and starts the bot", async () => {
    await typeAndSend("/start");
    await botMessages().filter({ hasText: "Mau beli apa" }).waitFor();
    await playground.bot.api.setChatMenuButton({
      chat_id: DEMO_CUSTOMER.id,
      menu_button: { type: "web_app", text: "Katalog", web_app: { url: playground.demo.appUrl! } },
    });
    // the page follows the change live; the command list makes way for the app's button
    const menu = page.getByTestId("menu-web-app");
    await menu.filter({ hasText: "Katalog" }).waitFor();
    await expect(page.getByTestId("commands-button").isHidden()).resolves.toBe(true);
    await menu.click();
    const frame = await appFrame();
    // from the menu button: a query_id for answerWebAppQuery, no chat fields
    const initData = await frame.evaluate(() => window.Telegram.WebApp.initData);
    expect(new URLSearchParams(initData).get("query_id")).toMatch(/^[\w-]{16,}$/);
    expect(new URLSearchParams(initData).has("chat_type")).toBe(false);

    await frame.getByTestId("promo-link").click();
    await page.getByTestId("web-app").waitFor({ state: "hidden" });
    await userMessages().filter({ hasText: "/start promo_APP" }).waitFor();
    await botMessages().filter({ hasText: "Kode promo APP aktif" }).waitFor();
    expect(problems).toEqual([]);
  });

  it("types an inline query, shows the results and sends the picked one via the bot", async () => {
    const input = page.getByTestId("input");
    await input.click();
    await input.pressSequentially(`@${BOT} tsel`);
    const results = page.getByTestId("inline-results").getByTestId("inline-result");
    await results.filter({ hasText: "Telkomsel 25.000" }).waitFor();
    await expect(
      results.evaluateAll((els) => els.map((el) => el.getAttribute("data-result-id"))),
    ).resolves.toEqual(["TSEL10", "TSEL25"]);
    await expect(page.getByTestId("inline-results-button").textContent()).resolves.toBe(
      "Bantuan belanja",
    );
    await page.screenshot({ path: join(SCREENSHOTS, "inline-mode.png") });

    await results.filter({ hasText: "Telkomsel 25.000" }).click();
    await expect.poll(() => input.inputValue()).toBe("");
    await expect(page.getByTestId("inline-results").isHidden()).resolves.toBe(true);
    const sent = userMessages().filter({ hasText: "Harga: Rp25.300" });
    await sent.waitFor();
    await expect(sent.getByTestId("via-bot").textContent()).resolves.toBe(`via @${BOT}`);
    await expect(sent.getByTestId("button").textContent()).resolves.toContain("Beli di bot");
    // the bot asked for inline feedback
    await expect
      .poll(() => playground.demo.chosen)
      .toEqual([{ result_id: "TSEL25", query: "tsel", from: DEMO_CUSTOMER.id }]);

    // the result's button is a deep link into the bot
    await sent.getByTestId("button").click();
    await botMessages().filter({ hasText: "Kode promo TSEL25 aktif" }).waitFor();

    // an empty query lists everything; the button above the results starts the bot
    await input.click();
    await input.pressSequentially(`@${BOT} `);
    await results.nth(2).waitFor();
    await page.getByTestId("inline-results-button").click();
    await userMessages().filter({ hasText: "/start promo_INLINE" }).waitFor();
    await botMessages().filter({ hasText: "Kode promo INLINE aktif" }).waitFor();
    expect(problems).toEqual([]);
  });

  it("copies a copy_text button's text, and opens deep links to the bot without leaving the page", async () => {
    const message = await toko();
    const before = playground.botApi.messages(DEMO_CUSTOMER.id).messages.length;
    await message.getByTestId("button").filter({ hasText: "Salin kode" }).click();
    await page.getByTestId("toast").filter({ hasText: "Copied" }).waitFor();
    await expect(page.evaluate(() => navigator.clipboard.readText())).resolves.toBe(PROMO_CODE);
    // nothing reaches the bot, as in Telegram
    expect(playground.botApi.messages(DEMO_CUSTOMER.id).messages).toHaveLength(before);

    // a t.me link in the text: /start <param> from the user, and the page stays
    const pageUrl = page.url();
    await message.getByTestId("message-text").locator("a").click();
    await userMessages()
      .filter({ hasText: `/start promo_${PROMO_CODE}` })
      .waitFor();
    await botMessages()
      .filter({ hasText: `Kode promo ${PROMO_CODE} aktif` })
      .waitFor();
    // a url button with such a link does the same
    await message.getByTestId("button").filter({ hasText: "Pakai promo" }).click();
    await botMessages().filter({ hasText: "Kode promo TOMBOL aktif" }).waitFor();
    expect(page.url()).toBe(pageUrl);
    expect(context.pages()).toHaveLength(1);

    // a switch-inline button starts an inline query in the input
    await message.getByTestId("button").filter({ hasText: "Cari pulsa" }).click();
    await expect.poll(() => page.getByTestId("input").inputValue()).toBe(`@${BOT} pulsa`);
    await page.getByTestId("inline-results").getByTestId("inline-result").nth(2).waitFor();
    await page.getByTestId("input").press("Escape");

    // a t.me link to anyone else is an ordinary link
    await playground.bot.api.sendMessage(
      DEMO_CUSTOMER.id,
      "Lihat juga https://t.me/other_shop_bot",
    );
    const other = botMessages().filter({ hasText: "Lihat juga" }).locator("a");
    await other.waitFor();
    await expect(other.getAttribute("target")).resolves.toBe("_blank");
    await expect(other.getAttribute("data-bot-link")).resolves.toBeNull();
    expect(problems).toEqual([]);
  });

  it("covers the chat on a 360 px phone and closes", async () => {
    await page.setViewportSize({ width: 360, height: 740 });
    const message = await toko();
    await message.getByTestId("button").filter({ hasText: "Katalog" }).click();
    const frame = await appFrame();
    const box = await page.getByTestId("web-app").boundingBox();
    expect(box).toEqual({ x: 0, y: 0, width: 360, height: 740 });
    // the app's page fits the panel: nothing sticks out sideways
    const overflow = await frame.evaluate(
      () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
    );
    expect(overflow).toBe(0);
    await frame.getByTestId("product").first().click();
    await page.getByTestId("web-app-main-button").waitFor();
    await page.screenshot({ path: join(SCREENSHOTS, "mini-app-mobile.png") });
    await page.getByTestId("web-app-close").click();
    await page.getByTestId("web-app").waitFor({ state: "hidden" });
    await page.getByTestId("input").waitFor();
    expect(problems).toEqual([]);
  });
});
