import { signedBody } from "@kios/kit";
import { Hono } from "hono";
import type { SecretBox } from "../commerce/h2h/cipher.ts";
import type { Executor } from "../db/client.ts";
import type { AppEnv } from "../server/create-server.ts";
import { demoCredentials, PLAYGROUND_RESELLER } from "./demo-reseller.ts";

// the playground's "Try H2H" page: ready requests as the demo reseller, signed by kios for
// the next few minutes (docs/h2h.md#examples says how a reseller's server signs them), to
// paste into a terminal or send from the page. Only the playground serves it: its key is a
// demo's, and nothing real is sold.

export const H2H_TRY_PATH = "/playground/h2h";

/** one ready request: where it goes, its signed body, and the same as a curl command */
interface ReadyRequest {
  url: string;
  body: Record<string, unknown>;
  curl: string;
}

interface ReadyRequests {
  reseller: { id: number; name: string };
  apiId: string;
  balance: ReadyRequest;
  order: ReadyRequest;
}

/** a single-quoted shell word */
const shellQuote = (s: string) => `'${s.replaceAll("'", `'\\''`)}'`;

function ready(url: string, body: Record<string, unknown>): ReadyRequest {
  const json = JSON.stringify(body);
  return {
    url,
    body,
    curl: `curl -s ${shellQuote(url)} -H 'Content-Type: application/json' -d ${shellQuote(json)}`,
  };
}

/** the demo reseller's balance and a TSEL10 order, signed now; none without a key */
async function readyRequests(
  db: Executor,
  box: SecretBox,
  o: { apiUrl: string; now: number },
): Promise<ReadyRequests | undefined> {
  const creds = await demoCredentials(db, box);
  if (!creds) return undefined;
  // each order is a new ref_id: pasting the same command twice answers the same order
  const refId = `TRY-${o.now.toString(36).toUpperCase()}`;
  const order = { cmd: "prepaid", code: "TSEL10", customer_no: "081234567901", ref_id: refId };
  return {
    reseller: { id: PLAYGROUND_RESELLER.id, name: PLAYGROUND_RESELLER.name },
    apiId: creds.apiId,
    balance: ready(`${o.apiUrl}/balance`, signedBody(creds, {}, o.now)),
    order: ready(`${o.apiUrl}/order`, signedBody(creds, order, o.now)),
  };
}

export function h2hTryRoutes(deps: {
  db: Executor;
  box: SecretBox;
  apiUrl: string;
  now: () => number;
}): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  app.get(`${H2H_TRY_PATH}/requests`, async (c) => {
    const requests = await readyRequests(deps.db, deps.box, {
      apiUrl: deps.apiUrl,
      now: deps.now(),
    });
    if (!requests) return c.json({ error: "the demo reseller has no H2H key (revoked)" }, 404);
    return c.json(requests, 200, { "cache-control": "no-store" });
  });
  app.get(H2H_TRY_PATH, (c) =>
    c.html(PAGE, 200, { "cache-control": "no-store", "content-security-policy": CSP }),
  );
  app.get(`${H2H_TRY_PATH}/try.js`, (c) =>
    c.body(SCRIPT, 200, { "content-type": "text/javascript; charset=utf-8" }),
  );
  return app;
}

const CSP =
  "default-src 'none'; script-src 'self'; connect-src 'self'; style-src 'unsafe-inline'; base-uri 'none'; frame-ancestors 'self'";

// the page is the playground's, in English as the chat page is (the bot's words are the
// shop's, in the locale files)
const PAGE = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8" />
<meta name="viewport" content="width=device-width, initial-scale=1" />
<title>Try H2H · kios playground</title>
<style>
body { font: 15px/1.5 system-ui, sans-serif; margin: 0 auto; max-width: 860px; padding: 24px; color: #1d2733; }
h1 { font-size: 22px; margin: 0 0 4px; }
pre { background: #f2f5f8; border-radius: 8px; padding: 12px; white-space: pre-wrap; word-break: break-all; font-size: 13px; }
button { font: inherit; padding: 6px 14px; border-radius: 8px; border: 1px solid #3a7bd5; background: #3a7bd5; color: #fff; cursor: pointer; margin-right: 8px; }
.muted { color: #5b6b7b; }
</style>
<script type="module" src="${H2H_TRY_PATH}/try.js"></script>
</head>
<body data-testid="h2h-try">
<h1>Try the H2H API</h1>
<p class="muted">As the demo reseller <b id="who"></b> (api_id <code id="api-id"></code>). Each request below is signed for the next 5 minutes: paste it into a terminal, or send it from here. <a href="/">Back to the chat</a></p>
<h2>Balance</h2>
<pre id="balance-curl" data-testid="balance-curl"></pre>
<button type="button" id="try-balance" data-testid="try-balance">Try H2H: balance</button>
<h2>An order (TSEL10 to 081234567901)</h2>
<pre id="order-curl" data-testid="order-curl"></pre>
<button type="button" id="try-order" data-testid="try-order">Try H2H: order</button>
<button type="button" id="refresh">Sign again</button>
<h2>Answer</h2>
<pre id="answer" data-testid="h2h-answer" class="muted">Press a button.</pre>
</body>
</html>
`;

const SCRIPT = `const $ = (id) => document.getElementById(id);
let ready;
async function load() {
  const res = await fetch("${H2H_TRY_PATH}/requests", { cache: "no-store" });
  ready = await res.json();
  if (!res.ok) { $("answer").textContent = ready.error; return; }
  $("who").textContent = ready.reseller.name;
  $("api-id").textContent = ready.apiId;
  $("balance-curl").textContent = ready.balance.curl;
  $("order-curl").textContent = ready.order.curl;
}
async function send(which) {
  const r = ready[which];
  const res = await fetch(r.url, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(r.body) });
  $("answer").textContent = JSON.stringify(await res.json(), null, 2);
  // the order's ref_id is spent: the next one gets a new one
  if (which === "order") await load();
}
$("try-balance").addEventListener("click", () => void send("balance"));
$("try-order").addEventListener("click", () => void send("order"));
$("refresh").addEventListener("click", () => void load());
void load();
`;
