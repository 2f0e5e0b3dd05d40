import { Hono } from "hono";
import { checkInitData } from "../index.ts";

// a small Mini App for the demo bot, served beside the playground as a shop would serve its
// own: it includes /telegram-web-app.js, greets the user from initDataUnsafe, follows the
// theme, and orders through its server, which trusts only initData checked with the bot token

export const DEMO_PRODUCTS = [
  { code: "TSEL10", name: "Telkomsel 10.000", price: "Rp10.500" },
  { code: "TSEL25", name: "Telkomsel 25.000", price: "Rp25.300" },
  { code: "XL10", name: "XL 10.000", price: "Rp10.600" },
];

const CSP = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self'",
  "connect-src 'self'",
  // the playground's chat page frames it (same origin here)
  "frame-ancestors 'self'",
].join("; ");

const HTML = `<!doctype html>
<html lang="id">
  <head>
    <meta charset="utf-8" />
    <meta name="viewport" content="width=device-width, initial-scale=1" />
    <title>Kios Demo</title>
    <script src="/telegram-web-app.js"></script>
    <link rel="stylesheet" href="/demo-app/app.css" />
    <script type="module" src="/demo-app/app.js"></script>
  </head>
  <body>
    <main>
      <h1 data-testid="hello">Kios Demo</h1>
      <p class="hint" data-testid="auth">Memeriksa initData…</p>
      <p class="hint" data-testid="theme"></p>
      <ul class="products" data-testid="products"></ul>
      <button type="button" class="link" data-testid="promo-link">🎁 Promo di chat</button>
    </main>
  </body>
</html>
`;

const CSS = `
body {
  margin: 0;
  background: var(--tg-theme-bg-color, #fff);
  color: var(--tg-theme-text-color, #000);
  font: 16px/1.4 system-ui, sans-serif;
}
main { padding: 16px; }
h1 { margin: 0 0 4px; font-size: 20px; }
.hint { margin: 0 0 8px; color: var(--tg-theme-hint-color, #707579); font-size: 14px; }
.products { margin: 12px 0; padding: 0; list-style: none; }
.products button {
  display: flex; justify-content: space-between; width: 100%; margin-bottom: 8px; padding: 12px;
  border: 0; border-radius: 10px; background: var(--tg-theme-secondary-bg-color, #f4f4f5);
  color: inherit; font: inherit; text-align: left;
}
.products button[aria-pressed="true"] { outline: 2px solid var(--tg-theme-button-color, #3390ec); }
.link { border: 0; background: none; color: var(--tg-theme-link-color, #3390ec); font: inherit; padding: 0; }
`;

const SCRIPT = `
const app = window.Telegram.WebApp;
const $ = (id) => document.querySelector('[data-testid="' + id + '"]');
const user = app.initDataUnsafe.user;
$("hello").textContent = user ? "Halo, " + user.first_name + "!" : "Halo!";
$("theme").textContent = app.colorScheme + " " + getComputedStyle(document.body).backgroundColor;
const auth = { authorization: "tma " + app.initData };

const me = await fetch("/demo-app/api/me", { headers: auth });
$("auth").textContent = me.ok
  ? "initData sah: user " + (await me.json()).user.id
  : "initData ditolak (" + me.status + ")";

let picked = null;
for (const product of ${JSON.stringify(DEMO_PRODUCTS)}) {
  const item = document.createElement("li");
  const button = document.createElement("button");
  button.type = "button";
  button.dataset.testid = "product";
  button.dataset.code = product.code;
  button.append(product.name, " ", product.price);
  button.addEventListener("click", () => {
    picked = product;
    for (const b of document.querySelectorAll("[data-testid=product]"))
      b.setAttribute("aria-pressed", String(b === button));
    app.MainButton.setText("Beli " + product.code + " · " + product.price).show();
  });
  item.append(button);
  $("products").append(item);
}

app.MainButton.onClick(() => {
  if (!picked) return;
  app.showConfirm("Beli " + picked.name + " seharga " + picked.price + "?", async (yes) => {
    if (!yes) return;
    app.MainButton.showProgress();
    const res = await fetch("/demo-app/api/order", {
      method: "POST",
      headers: { ...auth, "content-type": "application/json" },
      body: JSON.stringify({ code: picked.code }),
    });
    app.MainButton.hideProgress();
    if (res.ok) app.close();
    else app.showAlert("Pesanan gagal (" + res.status + ")");
  });
});

$("promo-link").addEventListener("click", () =>
  app.openTelegramLink("https://t.me/kios_playground_bot?start=promo_APP"),
);
app.ready();
`;

export interface DemoMiniAppOptions {
  token: string;
  /** an order from a user whose initData checked out */
  onOrder(userId: number, code: string): Promise<void>;
}

/** GET /demo-app (the page, its script and style) and its API under /demo-app/api/ */
export function demoMiniAppRoutes(options: DemoMiniAppOptions): Hono {
  const app = new Hono();
  const headers = { "cache-control": "no-cache", "x-content-type-options": "nosniff" };

  /** the user, from initData checked with the bot token; nothing else is trusted */
  const userOf = (authorization: string | undefined) => {
    const initData = /^tma (.+)$/.exec(authorization ?? "")?.[1];
    if (!initData) return undefined;
    const check = checkInitData(options.token, initData, { maxAgeSeconds: 86_400 });
    return check.ok ? check.user : undefined;
  };

  app.get(
    "/demo-app",
    () =>
      new Response(HTML, {
        headers: {
          ...headers,
          "content-type": "text/html; charset=utf-8",
          "content-security-policy": CSP,
        },
      }),
  );
  app.get(
    "/demo-app/app.js",
    () =>
      new Response(SCRIPT, {
        headers: { ...headers, "content-type": "text/javascript; charset=utf-8" },
      }),
  );
  app.get(
    "/demo-app/app.css",
    () => new Response(CSS, { headers: { ...headers, "content-type": "text/css; charset=utf-8" } }),
  );
  app.get("/demo-app/api/me", (c) => {
    const user = userOf(c.req.header("authorization"));
    if (!user) return c.json({ error: "initData tidak sah" }, 401);
    return c.json({ user });
  });
  app.post("/demo-app/api/order", async (c) => {
    const user = userOf(c.req.header("authorization"));
    if (!user) return c.json({ error: "initData tidak sah" }, 401);
    const body = (await c.req.json().catch(() => ({}))) as { code?: unknown };
    const product = DEMO_PRODUCTS.find((p) => p.code === body.code);
    if (!product) return c.json({ error: "produk tidak dikenal" }, 400);
    await options.onOrder(user.id, product.code);
    return c.json({ ok: true });
  });
  return app;
}
