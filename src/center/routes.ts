import type { Clock } from "@kios/kit";
import { type Context, Hono } from "hono";
import { centerKeyByMemberId, openCenterKey } from "../commerce/center/keys.ts";
import { orderReply } from "../commerce/center/lookups.ts";
import { dotted, inFlightText, notFoundText, refusalText } from "../commerce/center/replies.ts";
import type { SecretBox } from "../commerce/h2h/cipher.ts";
import { type Caller, findH2h, placeH2hOrder, productKind } from "../commerce/h2h/orders.ts";
import { resellerBalance } from "../commerce/h2h/products.ts";
import type { OrderEngine } from "../commerce/orders/engine.ts";
import { isStorableText } from "../db/storable-text.ts";
import { type ClientAddress, createClientAddress } from "../h2h/client-address.ts";
import type { RateLimiter } from "../h2h/rate-limit.ts";
import type { Logger } from "../logger.ts";
import { bodyWithin } from "../server/body.ts";
import type { AppEnv } from "../server/create-server.ts";
import { otomaxSign, signEquals } from "./sign.ts";

// kios as a center for OtomaX-family software (docs/center.md): GET (or POST with form
// fields) /h2h/otomax/trx and /balance, signed with the software's own sign, answered in
// plain text. Orders take the JSON H2H API's very path (placeH2hOrder: one refID, one
// order, the reseller's price, the ledger's hold), so this door is no second way to money.

export const CENTER_PREFIX = "/h2h/otomax";

export interface CenterRouteDeps {
  orders: OrderEngine;
  box: SecretBox;
  clock: Clock;
  logger: Logger;
  /** this door's own limiter: its key ids are center_keys', not h2h_keys' */
  limiter: RateLimiter;
  clientAddress?: ClientAddress;
}

interface TextReply {
  status: 200 | 400 | 401 | 403 | 404 | 429 | 500;
  text: string;
  headers?: Record<string, string>;
}

const refused = (status: TextReply["status"], why: string): TextReply => ({
  status,
  text: `DITOLAK. Alasan: ${why}`,
});

const LIMITS: Record<string, number> = {
  memberid: 64,
  product: 32,
  dest: 64,
  refid: 64,
  sign: 64,
  check: 1,
};

/** the fields by their lower-cased names (software spells memberID, memberid, MemberID) */
async function fieldsOf(c: Context<AppEnv>): Promise<Map<string, string>> {
  const raw: Record<string, unknown> =
    c.req.method === "POST" ? { ...c.req.query(), ...(await c.req.parseBody()) } : c.req.query();
  const out = new Map<string, string>();
  for (const [k, v] of Object.entries(raw)) {
    if (typeof v === "string") out.set(k.toLowerCase(), v.trim());
  }
  return out;
}

function socketAddress(c: Context<AppEnv>): string | undefined {
  const env = c.env as { incoming?: { socket?: { remoteAddress?: string } } } | undefined;
  return env?.incoming?.socket?.remoteAddress;
}

export function createCenterRoutes(deps: CenterRouteDeps): Hono<AppEnv> {
  const log = deps.logger.child({ component: "center" });
  const db = deps.orders.db;
  const clientAddress = deps.clientAddress ?? createClientAddress([]);

  /**
   * who is calling, in the order docs/center.md#refusals gives: the memberID, the sign
   * (constant time, against the sealed pin and password), the key's state and the holder's
   * tier, the address, and only then the rate limit: a request nobody signed spends nothing
   */
  async function authenticate(
    c: Context<AppEnv>,
    f: Map<string, string>,
    signed: { product: string; dest: string; refId: string },
  ): Promise<{ ok: true; caller: Caller } | { ok: false; reply: TextReply }> {
    const memberId = f.get("memberid") ?? "";
    const sign = f.get("sign") ?? "";
    if (!memberId || !sign) return { ok: false, reply: refused(400, "memberID dan sign wajib") };
    const key = await centerKeyByMemberId(db, memberId);
    if (!key) return { ok: false, reply: refused(401, "memberID atau sign salah") };
    const { pin, password } = openCenterKey(deps.box, key);
    if (!signEquals(otomaxSign({ memberId, ...signed, pin, password }), sign)) {
      return { ok: false, reply: refused(401, "memberID atau sign salah") };
    }
    if (key.revokedAt !== null || !key.enabled) {
      return { ok: false, reply: refused(401, "akses dicabut atau dimatikan") };
    }
    // a demoted reseller's access ends with their tier (design rule 19), as the H2H keys'
    if (!key.holderIsReseller) {
      return { ok: false, reply: refused(401, "akun ini bukan reseller lagi") };
    }
    const ip = clientAddress(socketAddress(c), c.req.header("x-forwarded-for"));
    if (key.ipAllowlist.length > 0 && !(ip && key.ipAllowlist.includes(ip))) {
      return { ok: false, reply: refused(403, "alamat IP ini tidak diizinkan") };
    }
    const wait = deps.limiter.take(key.id, key.ratePerMinute, deps.clock.now());
    if (wait > 0) {
      return {
        ok: false,
        reply: {
          ...refused(429, "terlalu banyak permintaan"),
          headers: { "Retry-After": String(Math.ceil(wait / 1000)) },
        },
      };
    }
    return { ok: true, caller: { userId: key.userId, centerKeyId: key.id } };
  }

  /** what is wrong with the fields before anything reads the database with them */
  function badField(f: Map<string, string>): TextReply | undefined {
    for (const [name, max] of Object.entries(LIMITS)) {
      if ((f.get(name)?.length ?? 0) > max) return refused(400, `${name} terlalu panjang`);
    }
    for (const [name, value] of f) {
      // PostgreSQL refuses a NUL: a 500 otherwise
      if (!isStorableText(value)) {
        return refused(
          400,
          `${isStorableText(name) ? name : "permintaan"} berisi karakter yang tidak sah`,
        );
      }
    }
    return undefined;
  }

  async function trx(c: Context<AppEnv>): Promise<TextReply> {
    const f = await fieldsOf(c);
    const bad = badField(f);
    if (bad) return bad;
    const req = {
      product: (f.get("product") ?? "").toUpperCase(),
      dest: f.get("dest") ?? "",
      refId: f.get("refid") ?? "",
    };
    // the sign covers the fields as sent (the product's case too)
    const auth = await authenticate(c, f, { ...req, product: f.get("product") ?? "" });
    if (!auth.ok) return auth.reply;
    const { caller } = auth;
    if (!req.refId) return refused(400, "refID wajib");
    const balance = () => resellerBalance(db, caller.userId);
    if (f.get("check") === "1") {
      const stored = await findH2h(db, caller.userId, req.refId);
      // a request with this refID still before its order (its claim): in flight
      if (stored && !stored.order && stored.row.kind === "order") {
        return { status: 200, text: inFlightText(stored.row, await balance()) };
      }
      if (!stored?.order) {
        // not GAGAL: a request with this refID may still be on its way in
        return {
          status: 404,
          text: notFoundText(req.refId, await balance()),
        };
      }
      return {
        status: 200,
        text: await orderReply(db, stored.order, stored.row.refId, await balance()),
      };
    }
    if (!req.product || !req.dest) return refused(400, "product dan dest wajib");
    const kind = await productKind(db, req.product);
    const answer = await placeH2hOrder(deps.orders, caller, {
      // a bill's product is refused as not found: bills take the JSON API's inquiry first
      cmd: kind === "game" ? "game" : "prepaid",
      code: req.product,
      customerNo: req.dest,
      refId: req.refId,
    });
    if (!answer.ok) return { status: 200, text: refusalText(answer.refusal, req, await balance()) };
    if (answer.order === null)
      return { status: 200, text: inFlightText(answer.row, await balance()) };
    return {
      status: 200,
      text: await orderReply(db, answer.order, answer.row.refId, await balance()),
    };
  }

  async function balanceOf(c: Context<AppEnv>): Promise<TextReply> {
    const f = await fieldsOf(c);
    const bad = badField(f);
    if (bad) return bad;
    const auth = await authenticate(c, f, { product: "", dest: "", refId: "" });
    if (!auth.ok) return auth.reply;
    return { status: 200, text: `Saldo ${dotted(await resellerBalance(db, auth.caller.userId))}` };
  }

  const app = new Hono<AppEnv>();
  const limit = bodyWithin<AppEnv>(16 * 1024, (c) =>
    c.text(refused(400, "body terlalu besar").text, 413),
  );
  const send = (c: Context<AppEnv>, r: TextReply) => {
    const text = deps.orders.testing ? `${r.text} (TEST: SUPPLIER_TESTING, tidak nyata)` : r.text;
    return c.text(text, r.status, r.headers);
  };
  const handlers = { trx, balance: balanceOf } as const;
  for (const [endpoint, handle] of Object.entries(handlers)) {
    app.on(["GET", "POST"], `${CENTER_PREFIX}/${endpoint}`, limit, async (c) => {
      try {
        return send(c, await handle(c));
      } catch (err) {
        // the order may stand: the software asks again with the same refID (or check=1)
        log.error({ err, endpoint, requestId: c.get("requestId") }, "center request failed");
        return send(c, { status: 500, text: "GANGGUAN. Ulangi dengan refID yang sama" });
      }
    });
  }
  app.all(`${CENTER_PREFIX}/*`, (c) =>
    send(c, refused(404, `tidak ada; pakai ${CENTER_PREFIX}/trx atau ${CENTER_PREFIX}/balance`)),
  );
  return app;
}
