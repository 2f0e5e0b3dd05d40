import type { Locator, Page } from "playwright-core";
import { expect } from "vitest";

// the playground's chat page as a person uses it, in Chromium: type, find the bot's last
// message saying something, and the clicks to a Telkomsel 10.000 card that several tests
// start from.

/** the last bot message whose text (not its buttons) matches */
export function lastBotMessage(page: Page, text: RegExp): Locator {
  return page
    .locator('[data-testid="message"][data-sender="bot"]')
    .filter({ has: page.getByTestId("message-text").filter({ hasText: text }) })
    .last();
}

export async function send(page: Page, text: string): Promise<void> {
  const input = page.getByTestId("input");
  await input.click();
  await input.fill(text);
  await input.press("Enter");
}

/**
 * /start, Pulsa & Data, the number (as typed, "0812 3456 7901"), Pulsa, then Telkomsel
 * 10.000 from the paged list: the confirmation card it opens
 */
export async function openAirtimeCard(page: Page, typed: string, stepMs: number): Promise<Locator> {
  await send(page, "/start");
  await lastBotMessage(page, /Halo/)
    .getByTestId("button")
    .filter({ hasText: "Pulsa & Data" })
    .click();
  await lastBotMessage(page, /nomor HP/).waitFor();
  await send(page, typed);
  await lastBotMessage(page, /pulsa atau paket data/)
    .getByTestId("button")
    .filter({ hasText: /^Pulsa$/ })
    .click();
  const list = lastBotMessage(
    page,
    new RegExp(`Pulsa Telkomsel untuk ${typed.replaceAll(" ", "")}`),
  );
  const buttons = list.getByTestId("button");
  const item = buttons.filter({ hasText: /^Telkomsel 10\.000 ·/ });
  await buttons.first().waitFor();
  // a paged list: turn pages until the product shows, waiting for each page to render
  for (let pageNo = 0; pageNo < 10 && (await item.count()) === 0; pageNo++) {
    const shown = await buttons.allTextContents();
    await buttons.filter({ hasText: "▶️" }).click();
    await expect.poll(() => buttons.allTextContents(), { timeout: stepMs }).not.toEqual(shown);
  }
  await item.click();
  return lastBotMessage(page, /Konfirmasi pembelian/);
}
