import { gunzipSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import {
  createMiniAppPage,
  TELEGRAM_WEB_APP_SCRIPT,
  TELEGRAM_WEB_CLIENTS,
} from "../../src/mini-app/page.ts";

// the Mini App's page as a browser gets it: Telegram's script, versioned assets kept a year,
// the page revalidated, and a Content-Security-Policy that lets only Telegram frame it

describe("the Mini App's page", () => {
  const page = createMiniAppPage({
    telegramScript: TELEGRAM_WEB_APP_SCRIPT,
    frameAncestors: TELEGRAM_WEB_CLIENTS,
  });

  it("includes Telegram's script and its own versioned assets, with a strict CSP", async () => {
    const res = await page.request("/app");
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("text/html; charset=utf-8");
    expect(res.headers.get("cache-control")).toBe("no-cache");
    expect(res.headers.get("x-content-type-options")).toBe("nosniff");
    expect(res.headers.get("referrer-policy")).toBe("no-referrer");
    const csp = res.headers.get("content-security-policy") ?? "";
    expect(csp).toContain("default-src 'none'");
    expect(csp).toContain("script-src 'self' https://telegram.org");
    expect(csp).toContain("frame-ancestors 'self' https://web.telegram.org");
    const html = await res.text();
    expect(html).toContain(`<script src="${TELEGRAM_WEB_APP_SCRIPT}"></script>`);
    const js = /src="(\/app\/app\.js\?v=[\w-]+)"/.exec(html)?.[1];
    const css = /href="(\/app\/app\.css\?v=[\w-]+)"/.exec(html)?.[1];
    expect(js).toBeDefined();
    expect(css).toBeDefined();

    const script = await page.request(js!);
    expect(script.headers.get("cache-control")).toBe("public, max-age=31536000, immutable");
    expect(script.headers.get("content-type")).toBe("text/javascript; charset=utf-8");
    expect(await script.text()).toContain("Telegram?.WebApp");
    // the same file under another version is not kept
    const stale = await page.request("/app/app.css?v=old");
    expect(stale.headers.get("cache-control")).toBe("no-cache");
  });

  it("answers a known version with 304 and compresses for a browser that asks", async () => {
    const first = await page.request("/app");
    const etag = first.headers.get("etag")!;
    const again = await page.request("/app", { headers: { "if-none-match": etag } });
    expect(again.status).toBe(304);
    const gz = await page.request("/app/app.js", { headers: { "accept-encoding": "gzip, br" } });
    expect(gz.headers.get("content-encoding")).toBe("gzip");
    expect(gz.headers.get("vary")).toBe("accept-encoding");
    const body = gunzipSync(Buffer.from(await gz.arrayBuffer())).toString("utf8");
    expect(body).toBe(await (await page.request("/app/app.js")).text());
  });

  it("in the playground, includes its script from the page's origin and lets its chat page frame it", async () => {
    const playground = createMiniAppPage({
      telegramScript: "/telegram-web-app.js",
      frameAncestors: ["http://localhost:8080", "http://127.0.0.1:8080"],
    });
    const res = await playground.request("/app/");
    const csp = res.headers.get("content-security-policy") ?? "";
    expect(csp).toContain("script-src 'self';");
    expect(csp).toContain("frame-ancestors 'self' http://localhost:8080 http://127.0.0.1:8080");
    expect(await res.text()).toContain('<script src="/telegram-web-app.js"></script>');
  });
});
