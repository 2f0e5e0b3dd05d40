import { existsSync, mkdirSync } from "node:fs";
import { type Browser, chromium } from "playwright-core";

// Debian's Chromium driven by playwright-core (playwright's own browser download does not
// work on this machine). CHROMIUM_PATH may point elsewhere.

export const CHROMIUM = process.env.CHROMIUM_PATH || "/usr/bin/chromium";
export const SCREENSHOTS = "test-results";

const LAUNCH_ARGS = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
];

/** why the browser can't run, or undefined; a missing browser fails tests, never skips them */
export function browserMissing(): string | undefined {
  if (existsSync(CHROMIUM)) return undefined;
  return (
    `${CHROMIUM} is missing, so the playground page can't be tested in a browser. ` +
    "Install Debian's Chromium (as root): apt-get update && apt-get install -y chromium " +
    "fonts-noto-color-emoji (the browser download of `playwright install` does not work here)"
  );
}

export async function launchBrowser(): Promise<Browser> {
  mkdirSync(SCREENSHOTS, { recursive: true });
  return chromium.launch({ executablePath: CHROMIUM, headless: true, args: LAUNCH_ARGS });
}
