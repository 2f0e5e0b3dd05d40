import { join } from "node:path";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { browserMissing, launchBrowser, SCREENSHOTS } from "./browser.ts";
import {
  DEMO_ADMIN,
  DEMO_CUSTOMER,
  type DemoPlayground,
  FINAL_TEXT,
  PROCESSING_TEXT,
  startDemoPlayground,
} from "./demo-bot.ts";

// the playground page in a real browser (Debian's Chromium, driven by playwright-core),
// against the local Bot API server and a small grammY demo bot on one port

// page functions run in the browser; this file is compiled without the DOM library
declare const document: { documentElement: { scrollWidth: number; clientWidth: number } };
declare function getComputedStyle(el: unknown): { color: string };

/** how long one step may wait for the page; a failing step fails well before the test timeout */
const STEP_MS = 8000;

describe("the playground chat page in Chromium", () => {
  let playground: DemoPlayground;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  /** errors the page threw or logged, and requests to anywhere but the playground's origin */
  let problems: string[];

  /** why the browser can't run; every test then fails with it (a missing browser never skips) */
  let missing: string | undefined;

  beforeAll(async () => {
    missing = browserMissing();
    if (missing) return;
    playground = await startDemoPlayground({ processingMs: 400 });
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
    playground.demo.beforeFinalEdit = undefined;
    context = await browser.newContext({ viewport: { width: 1024, height: 768 } });
    context.setDefaultTimeout(STEP_MS);
    page = await context.newPage();
    problems = [];
    page.on("pageerror", (err) => problems.push(`page error: ${err.message}`));
    page.on("console", (msg) => {
      if (msg.type() === "error") problems.push(`console error: ${msg.text()}`);
    });
    page.on("request", (req) => {
      const url = req.url();
      if (!url.startsWith(`${playground.url}/`) && !url.startsWith("data:"))
        problems.push(`request to another origin: ${url}`);
    });
    await page.goto(`${playground.url}/`);
    await page.locator("[data-ready=true]").waitFor();
  });

  const messages = () => page.getByTestId("message");
  const botMessages = () => page.locator('[data-testid="message"][data-sender="bot"]');

  /** types like a user, then Enter */
  async function typeAndSend(text: string) {
    const input = page.getByTestId("input");
    await input.click();
    await input.pressSequentially(text);
    await input.press("Enter");
    await expect.poll(() => input.inputValue()).toBe("");
  }

  async function switchTo(user: { id: number; name: string }) {
    await page.getByTestId("user-switcher").click();
    await page.locator(`[data-testid="user-option"][data-user-id="${user.id}"]`).click();
    await page.getByTestId("current-user").filter({ hasText: user.name }).waitFor();
  }

  it("buys airtime by clicking: /start, a button, the edit in place, a toast", async () => {
    await expect(page.getByTestId("bot-name").textContent()).resolves.toBe("Kios");
    await expect(page.getByTestId("current-user").textContent()).resolves.toBe(DEMO_CUSTOMER.name);
    // an empty chat explains the bot, with its description
    await page.getByTestId("empty").filter({ hasText: "pulsa" }).waitFor();

    await typeAndSend("/start");
    const menu = botMessages().filter({ hasText: "Mau beli apa" });
    await menu.waitFor();
    await expect(messages().count()).resolves.toBe(2);
    await expect(
      page.locator('[data-testid="message"][data-sender="user"]').textContent(),
    ).resolves.toContain("/start");
    await expect(page.getByTestId("empty").isHidden()).resolves.toBe(true);

    // the bot's HTML arrives as entities and is drawn as elements
    await expect(menu.locator("strong").first().textContent()).resolves.toBe(DEMO_CUSTOMER.name);
    await expect(menu.locator("em").textContent()).resolves.toBe("Kios Demo");
    await expect(menu.locator("code").textContent()).resolves.toBe("Rp50.000");
    const promo = menu.getByTestId("spoiler");
    await expect(promo.textContent()).resolves.toBe("HEMAT10");
    await expect(promo.evaluate((el) => getComputedStyle(el).color)).resolves.toBe(
      "rgba(0, 0, 0, 0)",
    );
    await promo.click();
    await expect(promo.evaluate((el) => getComputedStyle(el).color)).resolves.not.toBe(
      "rgba(0, 0, 0, 0)",
    );
    const info = menu.locator("a", { hasText: "info" });
    await expect(info.getAttribute("href")).resolves.toBe("https://example.com/promo");
    await expect(info.getAttribute("target")).resolves.toBe("_blank");

    // the inline keyboard: rows and columns as sent, a url button as a link
    const rows = menu.locator(".inline-keyboard__row");
    await expect(rows.count()).resolves.toBe(4);
    await expect(rows.nth(0).getByTestId("button").count()).resolves.toBe(2);
    await expect(rows.nth(1).getByTestId("button").count()).resolves.toBe(1);
    const terms = menu.getByTestId("button").filter({ hasText: "Syarat" });
    await expect(terms.getAttribute("href")).resolves.toBe("https://example.com/syarat");

    const menuElement = await menu.elementHandle();
    const menuId = await menu.getAttribute("data-message-id");
    const inPlace = (text: string) =>
      page.waitForFunction(
        ([el, expected]) =>
          el?.isConnected === true &&
          el.querySelector('[data-testid="message-text"]')?.textContent?.includes(expected) ===
            true &&
          el.querySelector('[data-testid="edited"]') !== null,
        [menuElement, text] as const,
        { timeout: STEP_MS },
      );
    // the bot holds its final edit until the page has shown the first one
    let release!: () => void;
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    playground.demo.beforeFinalEdit = () => gate;
    await menu.getByTestId("button").filter({ hasText: "Pulsa 10.000" }).click();

    // the callback answer shows as a toast
    await page.getByTestId("toast").filter({ hasText: "Pesanan dibuat" }).waitFor();
    // the same element is edited in place: first "⏳ diproses", with "typing…" in the header
    await inPlace(PROCESSING_TEXT);
    await page.getByTestId("bot-status").filter({ hasText: "typing" }).waitFor();
    await expect(botMessages().count()).resolves.toBe(1);
    release();
    // then the final text, with the "edited" mark; the typing status ends with it
    await inPlace(FINAL_TEXT);
    await page.getByTestId("bot-status").filter({ hasText: /^bot$/ }).waitFor();
    const done = page.locator(`[data-testid="message"][data-message-id="${menuId}"]`);
    await expect(done.getByTestId("message-text").textContent()).resolves.toBe(FINAL_TEXT);
    await expect(done.getByTestId("edited").textContent()).resolves.toBe("edited");
    await expect(botMessages().count()).resolves.toBe(1);
    await expect(done.getByTestId("button").allTextContents()).resolves.toEqual(["🔁 Beli lagi"]);
    const chat = playground.botApi.messages(DEMO_CUSTOMER.id);
    expect(chat.messages[1]!.history.map((h) => h.text)).toContain(PROCESSING_TEXT);

    await page.getByTestId("toast").click(); // dismissed, so the screenshot shows the chat
    await page.screenshot({ path: join(SCREENSHOTS, "playground.png") });
    expect(problems).toEqual([]);
  });

  it("switches between the customer and the admin, each with their own chat and commands", async () => {
    await typeAndSend("/start");
    await botMessages().filter({ hasText: "Mau beli apa" }).waitFor();

    // the "/" menu lists the customer's commands
    await page.getByTestId("commands-button").click();
    const commands = page.getByTestId("commands-menu").getByTestId("command");
    await commands.filter({ hasText: "/saldo" }).waitFor();
    const customerCommands = await commands.evaluateAll((els) =>
      els.map((el) => el.getAttribute("data-command")),
    );
    expect(customerCommands).toEqual(["start", "saldo", "format", "hapus", "bantuan"]);

    await switchTo(DEMO_ADMIN);
    await expect(page.getByTestId("commands-menu").isHidden()).resolves.toBe(true);
    await page.getByTestId("empty").waitFor();
    await expect(messages().count()).resolves.toBe(0);

    await typeAndSend("/start");
    await botMessages().filter({ hasText: "Panel admin" }).waitFor();
    await expect(messages().count()).resolves.toBe(2);

    // the admin's own command menu (setMyCommands with a chat scope)
    await page.getByTestId("commands-button").click();
    await commands.filter({ hasText: "/pesanan" }).waitFor();
    await expect(
      commands.evaluateAll((els) => els.map((el) => el.getAttribute("data-command"))),
    ).resolves.toEqual(["start", "pesanan", "statistik", "siaran"]);
    await page.getByTestId("commands-menu").screenshot({
      path: join(SCREENSHOTS, "playground-commands.png"),
    });
    await page.screenshot({ path: join(SCREENSHOTS, "playground-admin.png") });
    // typing "/" filters the menu; Escape closes it
    await page.getByTestId("input").click();
    await page.getByTestId("input").pressSequentially("/st");
    await expect(
      commands.evaluateAll((els) => els.map((el) => el.getAttribute("data-command"))),
    ).resolves.toEqual(["start", "statistik"]);
    await page.getByTestId("input").press("Escape");
    await expect(page.getByTestId("commands-menu").isHidden()).resolves.toBe(true);
    await page.getByTestId("input").fill("");

    // while the admin's chat is open, the customer gets a message: a badge tells
    playground.botApi.sendText(DEMO_CUSTOMER.id, "halo");
    await page.getByTestId("unread-total").filter({ hasText: "1" }).waitFor();

    await switchTo(DEMO_CUSTOMER);
    await botMessages().filter({ hasText: "belum paham" }).waitFor();
    await expect(messages().filter({ hasText: "Panel admin" }).count()).resolves.toBe(0);
    await expect(messages().filter({ hasText: "Mau beli apa" }).count()).resolves.toBe(1);
    await expect(page.getByTestId("unread-total").isHidden()).resolves.toBe(true);

    // a command from the menu is sent at once
    await page.getByTestId("commands-button").click();
    await commands.filter({ hasText: "/hapus" }).click();
    const deletable = botMessages().filter({ hasText: "bisa dihapus" });
    await deletable.waitFor();
    await deletable.getByTestId("button").click();
    await deletable.waitFor({ state: "detached" });
    await page.getByTestId("toast").filter({ hasText: "Dihapus" }).waitFor();
    expect(problems).toEqual([]);
  });

  it("shows reply keyboards and alerts, and sends stickers", async () => {
    await typeAndSend("/saldo");
    const keyboard = page.getByTestId("reply-keyboard");
    await keyboard.getByTestId("reply-button").filter({ hasText: "Isi saldo" }).waitFor();
    await expect(page.getByTestId("input").getAttribute("placeholder")).resolves.toBe(
      "Pilih menu saldo",
    );
    await keyboard.getByTestId("reply-button").filter({ hasText: "Tutup" }).click();
    await botMessages().filter({ hasText: "Oke" }).waitFor();
    await keyboard.waitFor({ state: "hidden" });
    await expect(
      page.locator('[data-testid="message"][data-sender="user"]').last().textContent(),
    ).resolves.toContain("Tutup");

    await typeAndSend("/start");
    const menu = botMessages().filter({ hasText: "Mau beli apa" });
    await menu.waitFor();
    // show_alert: a dialog that stays until OK
    await menu.getByTestId("button").filter({ hasText: "Bantuan" }).click();
    const alert = page.getByTestId("alert");
    await alert.waitFor();
    await expect(alert.getByTestId("alert-text").textContent()).resolves.toContain(
      "Saldo uji coba",
    );
    await alert.getByTestId("alert-ok").click();
    await alert.waitFor({ state: "hidden" });

    // a sticker from the attach menu, to see how the bot takes what it does not expect
    await page.getByTestId("attach-button").click();
    await page.getByTestId("send-sticker").click();
    await page.locator('[data-testid="message"][data-sender="user"] .sticker').waitFor();
    await botMessages().filter({ hasText: "belum paham" }).waitFor();

    expect(problems).toEqual([]);
  });

  it("draws bot text as text: markup in messages never becomes HTML", async () => {
    await typeAndSend("/format");
    const message = botMessages().filter({ hasText: "tebal" });
    await message.waitFor();
    const text = message.getByTestId("message-text");
    await expect(text.locator("strong").last().textContent()).resolves.toBe(
      "<img src=x onerror=alert(1)>",
    );
    await expect(page.locator("#messages img").count()).resolves.toBe(0);
    // a javascript: link is shown as plain text
    await expect(text.locator("a", { hasText: "jahat" }).count()).resolves.toBe(0);
    await expect(text.locator("a", { hasText: "tautan" }).getAttribute("href")).resolves.toBe(
      "https://example.com/",
    );
    await expect(text.locator("u").textContent()).resolves.toBe("garis");
    await expect(text.locator("s").textContent()).resolves.toBe("coret");
    await expect(text.locator("pre .pre__language").textContent()).resolves.toBe("json");
    await expect(text.locator("pre code").textContent()).resolves.toBe('{"sn": "1234"}');
    await expect(text.locator("blockquote").textContent()).resolves.toBe("kutipan");

    // a user's text is drawn as text too
    await typeAndSend("<b>bukan tebal</b>");
    // the input clears before the sent message is drawn: wait for the message itself
    const mine = page.locator('[data-testid="message"][data-sender="user"]').last();
    await expect
      .poll(() => mine.getByTestId("message-text").textContent())
      .toContain("<b>bukan tebal</b>");
    await expect(mine.getByTestId("message-text").locator("b").count()).resolves.toBe(0);
    expect(problems).toEqual([]);
  });

  it("fits a phone screen", async () => {
    await page.setViewportSize({ width: 390, height: 760 });
    await typeAndSend("/start");
    await botMessages().filter({ hasText: "Mau beli apa" }).waitFor();
    const menu = botMessages().first();
    await menu.getByTestId("button").filter({ hasText: "Pulsa 25.000" }).click();
    await menu.getByTestId("message-text").filter({ hasText: FINAL_TEXT }).waitFor();
    await typeAndSend("/start");
    await botMessages().nth(1).waitFor();
    // nothing sticks out sideways
    const overflow = await page.evaluate(
      () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
    );
    expect(overflow).toBe(0);
    const bubble = await botMessages().nth(1).locator(".bubble").boundingBox();
    expect(bubble!.x).toBeGreaterThanOrEqual(0);
    expect(bubble!.x + bubble!.width).toBeLessThanOrEqual(390);
    await page.getByTestId("send").waitFor();
    await page.screenshot({ path: join(SCREENSHOTS, "playground-mobile.png") });
    expect(problems).toEqual([]);
  });
});
