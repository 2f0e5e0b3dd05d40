import { grossOf, jakartaTime } from "./midtrans-wire.ts";
import type { Charge } from "./types.ts";

// the buyer's side in the playground: the QR with Pay, Deny and Expire, as a bank app would
// act on it. Plain HTML, no script.

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (ch) => `&#${ch.charCodeAt(0)};`);

export function payPage(charge: Charge | undefined, orderId: string): string {
  const title = "kios gateway sandbox";
  if (!charge) {
    return `<!doctype html><html><head><meta charset="utf-8"><title>${title}</title></head>
<body><h1>${title}</h1><p>No payment <code>${escapeHtml(orderId)}</code>.</p></body></html>`;
  }
  const id = encodeURIComponent(charge.orderId);
  const open = charge.status === "pending";
  const button = (action: string, label: string) =>
    `<form method="post" action="/pay/${id}/${action}"><button type="submit" name="action" value="${action}" id="${action}">${label}</button></form>`;
  return `<!doctype html><html><head><meta charset="utf-8"><title>${title}</title>
<meta name="viewport" content="width=device-width, initial-scale=1">
<style>body{font-family:system-ui,sans-serif;max-width:28rem;margin:2rem auto;padding:0 1rem}
img{width:16rem;height:16rem;image-rendering:pixelated}form{display:inline-block;margin:.25rem}
button{font-size:1.1rem;padding:.5rem 1rem}</style></head>
<body><h1>${title}</h1>
<p>QRIS payment <code>${escapeHtml(charge.orderId)}</code></p>
<p>Amount: <strong>Rp${escapeHtml(grossOf(charge.grossAmount))}</strong><br>
Expires: ${escapeHtml(jakartaTime(charge.expiresAt))} WIB</p>
<p>Status: <strong id="status">${escapeHtml(charge.status)}</strong></p>
<img alt="QR" src="/v2/qris/${encodeURIComponent(charge.transactionId)}/qr-code">
<div>${open ? button("pay", "Pay") + button("deny", "Deny") + button("expire", "Expire") : ""}</div>
<p><small>A local sandbox: no money moves.</small></p></body></html>`;
}
