import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { priceFor } from "../../src/commerce/catalogue/prices.ts";
import {
  createCenterKey,
  revokeCenterKey,
  rotateCenterKey,
  updateCenterKeySettings,
} from "../../src/commerce/center/keys.ts";
import {
  callbackOf,
  deliverDueCallbacks,
  queueFinalCallbacks,
} from "../../src/commerce/h2h/callbacks.ts";
import { setTier } from "../../src/commerce/users.ts";
import { walletBalance } from "../../src/commerce/wallet/ledger.ts";
import { h2hOrders, orders } from "../../src/db/schema.ts";
import { createClientAddress } from "../../src/h2h/client-address.ts";
import type { CommerceHarness } from "../helpers/commerce.ts";
import { testDriver } from "../helpers/db.ts";
import {
  bootDoor,
  type DoorHarness,
  otomaxTestSign,
  phone,
  REPLY,
  rupiah,
} from "../helpers/door.ts";

// the OtomaX-family door over real HTTP, by a client of its own (test/helpers/door.ts): its
// own signer, its own query strings, and the one pattern docs/center.md gives for reading
// the replies.

describe(`the OtomaX door (${testDriver})`, () => {
  let door: DoorHarness;
  let h: CommerceHarness;
  let base: string;
  let box: DoorHarness["box"];

  beforeAll(async () => {
    door = await bootDoor();
    ({ h, base, box } = door);
  });
  afterAll(async () => {
    await door.stop();
  });

  const reseller = (balance?: number) => door.reseller(balance);
  const trxUrl: DoorHarness["trxUrl"] = (k, t, extra) => door.trxUrl(k, t, extra);
  const balanceUrl: DoorHarness["balanceUrl"] = (k, signWith) => door.balanceUrl(k, signWith);
  const get = (url: string) => door.get(url);

  it("an order over GET: held at the reseller's price, answered in one parseable line, a repeat answers it", async () => {
    const k = await reseller(100_000);
    const price = (await priceFor(h.deps.db, "TSEL10", "reseller"))!;
    const t = { product: "TSEL10", dest: phone("901"), refId: "2140669" };
    const first = await get(trxUrl(k, t));
    expect(first.status).toBe(200);
    expect(first.type).toMatch(/^text\/plain/);
    const m = REPLY.exec(first.text);
    expect(m, first.text).not.toBeNull();
    const [, refId, product, dest, word, sn, , harga, saldo] = m!;
    expect({ refId, product, dest }).toEqual({ refId: t.refId, product: "TSEL10", dest: t.dest });
    expect(word).toBe("SUKSES");
    expect(sn).toBeTruthy();
    expect(rupiah(harga!)).toBe(price);
    expect(rupiah(saldo!)).toBe(100_000 - price);
    expect(await walletBalance(h.deps.db, k.userId)).toBe(100_000 - price);

    const again = await get(trxUrl(k, t));
    expect(again.text).toBe(first.text);
    expect(await h.deps.db.select().from(orders).where(eq(orders.userId, k.userId))).toHaveLength(
      1,
    );
    // the JSON API's namespace: the same row, marked as this door's
    const [row] = await h.deps.db.select().from(h2hOrders).where(eq(h2hOrders.userId, k.userId));
    expect(row).toMatchObject({ refId: t.refId, keyId: null });
    expect(row!.centerKeyId).toBeGreaterThan(0);
  });

  it("the same over POST with form fields", async () => {
    const k = await reseller(100_000);
    const t = { product: "TSEL10", dest: phone("901"), refId: "post-1" };
    const body = new URLSearchParams({
      memberID: k.memberId,
      product: t.product,
      dest: t.dest,
      refID: t.refId,
      sign: otomaxTestSign([k.memberId, t.product, t.dest, t.refId, k.pin, k.password]),
    });
    const r = await fetch(`${base}/trx`, { method: "POST", body });
    const text = await r.text();
    expect(REPLY.exec(text)?.[4], text).toBe("SUKSES");
  });

  it("check=1 answers the state without ordering: not found before, the order after", async () => {
    const k = await reseller(100_000);
    const t = { product: "TSEL10", dest: phone("901"), refId: "chk-1" };
    const before = await get(trxUrl(k, t, { check: "1" }));
    expect(before.status).toBe(404);
    expect(before.text).toMatch(/^R#chk-1 TIDAK DITEMUKAN\. Saldo 100\.000/);
    expect(await h.deps.db.select().from(orders).where(eq(orders.userId, k.userId))).toHaveLength(
      0,
    );
    const placed = await get(trxUrl(k, t));
    const after = await get(trxUrl(k, t, { check: "1" }));
    expect(after.status).toBe(200);
    expect(after.text).toBe(placed.text);
    expect(await h.deps.db.select().from(orders).where(eq(orders.userId, k.userId))).toHaveLength(
      1,
    );
  });

  it("balance, signed with empty product, dest and refID", async () => {
    const k = await reseller(123_456);
    const r = await get(balanceUrl(k));
    expect(r).toMatchObject({ status: 200, text: "Saldo 123.456" });
  });

  it("a refusal that ordered nothing says GAGAL with its reason, and the refID stays free", async () => {
    const k = await reseller(0);
    const t = { product: "TSEL10", dest: phone("901"), refId: "poor-1" };
    const r = await get(trxUrl(k, t));
    const m = REPLY.exec(r.text);
    expect(m?.[4], r.text).toBe("GAGAL");
    expect(m?.[6]).toBe("saldo tidak cukup");
    expect(
      await h.deps.db.select().from(h2hOrders).where(eq(h2hOrders.userId, k.userId)),
    ).toHaveLength(0);
    const unknown = await get(trxUrl(k, { ...t, product: "NOPE99", refId: "poor-2" }));
    expect(REPLY.exec(unknown.text)?.[6], unknown.text).toBe("kode produk tidak ada");
    // the claim each request took on arrival went with its refusal
    expect(
      await h.deps.db.select().from(h2hOrders).where(eq(h2hOrders.userId, k.userId)),
    ).toHaveLength(0);
  });

  it("a wrong sign, a wrong pin or an unknown memberID is refused with a 4xx and spends no rate limit", async () => {
    const k = await reseller(100_000);
    await updateCenterKeySettings(h.deps.db, k.userId, { ratePerMinute: 1 });
    const t = { product: "TSEL10", dest: phone("901"), refId: "rl-1" };
    for (let i = 0; i < 5; i++) {
      const wrong = await get(trxUrl({ ...k, password: `${k.password}x` }, t));
      expect(wrong.status).toBe(401);
      expect(wrong.text).toMatch(/^DITOLAK\. Alasan: /);
      const wrongPin = await get(balanceUrl({ ...k, pin: "000000x" }));
      expect(wrongPin.status).toBe(401);
    }
    const stranger = await get(balanceUrl({ ...k, memberId: "KCNOSUCHMEMBER" }));
    expect(stranger.status).toBe(401);
    expect(await h.deps.db.select().from(orders).where(eq(orders.userId, k.userId))).toHaveLength(
      0,
    );
    // the one request of the minute is still there, and then the limit holds
    expect((await get(balanceUrl(k))).status).toBe(200);
    const limited = await get(balanceUrl(k));
    expect(limited.status).toBe(429);
  });

  it("a NUL in any field is refused with a 400 that names it, before the database sees it", async () => {
    const k = await reseller(100_000);
    const stranger = await get(balanceUrl({ ...k, memberId: "KC\u0000X" }));
    expect(stranger).toMatchObject({
      status: 400,
      text: "DITOLAK. Alasan: memberid berisi karakter yang tidak sah",
    });
    const t = { product: "TSEL10", dest: `${phone("901")}\u0000`, refId: "nul-1" };
    const order = await get(trxUrl(k, t));
    expect(order).toMatchObject({
      status: 400,
      text: "DITOLAK. Alasan: dest berisi karakter yang tidak sah",
    });
    expect(await h.deps.db.select().from(orders).where(eq(orders.userId, k.userId))).toHaveLength(
      0,
    );
    expect((await get(balanceUrl(k))).status).toBe(200);
  });

  it("a demoted reseller's credentials stop working; the IP allowlist holds", async () => {
    const k = await reseller(100_000);
    await setTier(h.deps.db, k.userId, "customer");
    expect((await get(balanceUrl(k))).status).toBe(401);
    await setTier(h.deps.db, k.userId, "reseller");
    expect((await get(balanceUrl(k))).status).toBe(200);
    await updateCenterKeySettings(h.deps.db, k.userId, { ipAllowlist: ["203.0.113.9"] });
    expect((await get(balanceUrl(k))).status).toBe(403);
    // without TRUST_PROXY a forwarding header is anyone's say, and ignored
    expect((await door.get(balanceUrl(k), { "x-forwarded-for": "203.0.113.9" })).status).toBe(403);
    await updateCenterKeySettings(h.deps.db, k.userId, { ipAllowlist: ["127.0.0.1"] });
    expect((await get(balanceUrl(k))).status).toBe(200);
  });

  it("switched-off or revoked credentials are refused over HTTP, and nothing is ordered", async () => {
    const k = await reseller(100_000);
    const t = { product: "TSEL10", dest: phone("901"), refId: "off-1" };
    const refusedNow = async (key = k) => {
      for (const url of [balanceUrl(key), trxUrl(key, t)]) {
        const r = await get(url);
        expect(r.status, r.text).toBe(401);
        expect(r.text).toBe("DITOLAK. Alasan: akses dicabut atau dimatikan");
      }
    };
    await updateCenterKeySettings(h.deps.db, k.userId, { enabled: false });
    await refusedNow();
    await updateCenterKeySettings(h.deps.db, k.userId, { enabled: true });
    expect((await get(balanceUrl(k))).status).toBe(200);
    await revokeCenterKey(h.deps.db, k.userId, new Date(h.clock.now()));
    await refusedNow();
    expect(await h.deps.db.select().from(orders).where(eq(orders.userId, k.userId))).toHaveLength(
      0,
    );
    // rotated: the new set works, the old one's sign no longer matches
    const rotated = await rotateCenterKey(h.deps.db, box, k.userId, new Date(h.clock.now()));
    if (!rotated.ok) throw new Error(rotated.reason);
    expect((await get(balanceUrl(rotated.key))).status).toBe(200);
    const old = await get(balanceUrl(k));
    expect(old.status).toBe(401);
    expect(old.text).toBe("DITOLAK. Alasan: memberID atau sign salah");
  });

  it("only a reseller can hold credentials", async () => {
    const customer = await h.newUser(0);
    expect(await createCenterKey(h.deps.db, box, customer)).toEqual({
      ok: false,
      reason: "not_reseller",
    });
  });

  it("twenty concurrent repeats of one refID: one order, one debit, and every answer is that order", async () => {
    const k = await reseller(200_000);
    const price = (await priceFor(h.deps.db, "TSEL10", "reseller"))!;
    const t = { product: "TSEL10", dest: phone("901"), refId: "race-20" };
    const replies = await Promise.all(Array.from({ length: 20 }, () => get(trxUrl(k, t))));
    for (const r of replies) {
      const m = REPLY.exec(r.text);
      expect(m, r.text).not.toBeNull();
      expect(m![1]).toBe(t.refId);
      expect(["PROSES", "SUKSES"]).toContain(m![4]);
    }
    expect(await h.deps.db.select().from(orders).where(eq(orders.userId, k.userId))).toHaveLength(
      1,
    );
    expect(await walletBalance(h.deps.db, k.userId)).toBe(200_000 - price);
  });

  /** a reseller's report URL on this machine: every GET it is sent, in order */
  async function reportReceiver() {
    const got: URL[] = [];
    const rx = createServer((req, res) => {
      got.push(new URL(req.url ?? "/", "http://x"));
      res.writeHead(200).end("ok");
    });
    await new Promise<void>((r) => rx.listen(0, "127.0.0.1", r));
    const port = (rx.address() as AddressInfo).port;
    return { got, port, close: () => new Promise<void>((r) => rx.close(() => r())) };
  }

  /** the callback queue's dependencies, loopback report URLs allowed */
  const deliveryDeps = () => ({
    db: h.deps.db,
    box,
    clock: h.clock,
    logger: h.deps.logger,
    policy: { allowLoopbackHttp: true },
    timeoutMs: 20_000,
  });

  it("a final order's report: one GET of the report URL with refid, message, status and sn; queued and sent once", async () => {
    const { got, port, close } = await reportReceiver();
    try {
      const k = await reseller(100_000);
      await updateCenterKeySettings(h.deps.db, k.userId, {
        reportUrl: `http://127.0.0.1:${port}/report?shop=a`,
      });
      const t = { product: "TSEL10", dest: phone("901"), refId: "rep-1" };
      const placed = await get(trxUrl(k, t));
      expect(REPLY.exec(placed.text)?.[4], placed.text).toBe("SUKSES");
      const deps = deliveryDeps();
      await queueFinalCallbacks(deps);
      await queueFinalCallbacks(deps);
      expect(await deliverDueCallbacks(deps)).toBe(1);
      expect(await deliverDueCallbacks(deps)).toBe(0);
      expect(got).toHaveLength(1);
      const q = got[0]!.searchParams;
      expect(got[0]!.pathname).toBe("/report");
      expect(q.get("shop")).toBe("a");
      expect(q.get("refid")).toBe("rep-1");
      expect(q.get("status")).toBe("SUKSES");
      const message = q.get("message")!;
      const m = REPLY.exec(message);
      expect(m?.[1], message).toBe("rep-1");
      expect(m?.[5]).toBe(q.get("sn"));
      expect(q.get("sn")).toBeTruthy();
      expect(message).toBe((await get(trxUrl(k, t, { check: "1" }))).text);
      expect(await callbackOf(h.deps.db, k.userId, "rep-1")).toMatchObject({
        status: "delivered",
        attempts: 1,
      });
    } finally {
      await close();
    }
  });

  it("a failed order's reply and report: GAGAL with the reason a reseller can act on, sn empty", async () => {
    const { got, port, close } = await reportReceiver();
    try {
      const k = await reseller(100_000);
      await updateCenterKeySettings(h.deps.db, k.userId, {
        reportUrl: `http://127.0.0.1:${port}/report`,
      });
      // the sandbox's 946 ending: the supplier says the number is wrong
      const t = { product: "TSEL10", dest: phone("946"), refId: "fail-1" };
      const placed = await get(trxUrl(k, t));
      const m = REPLY.exec(placed.text);
      expect(m?.slice(1, 7), placed.text).toEqual([
        "fail-1",
        "TSEL10",
        t.dest,
        "GAGAL",
        undefined,
        "nomor tujuan salah, saldo dikembalikan",
      ]);
      // refunded: the balance is what it was
      expect(rupiah(m![8]!)).toBe(100_000);
      const deps = deliveryDeps();
      await queueFinalCallbacks(deps);
      expect(await deliverDueCallbacks(deps)).toBe(1);
      expect(got).toHaveLength(1);
      const q = got[0]!.searchParams;
      expect([...q.keys()].sort()).toEqual(["message", "refid", "sn", "status"]);
      expect(q.get("refid")).toBe("fail-1");
      expect(q.get("status")).toBe("GAGAL");
      expect(q.get("sn")).toBe("");
      expect(q.get("message")).toBe(placed.text);
      expect(q.get("message")).toBe((await get(trxUrl(k, t, { check: "1" }))).text);
    } finally {
      await close();
    }
  });
});

describe(`the OtomaX door behind a trusted proxy (${testDriver})`, () => {
  let door: DoorHarness;
  beforeAll(async () => {
    // TRUST_PROXY=127.0.0.1: the test's own requests come through "the proxy"
    door = await bootDoor({ clientAddress: createClientAddress(["127.0.0.1"]) });
  });
  afterAll(async () => {
    await door?.stop();
  });

  it("the allowlist matches the caller X-Forwarded-For names past the proxy, never the proxy", async () => {
    const k = await door.reseller(10_000);
    await updateCenterKeySettings(door.h.deps.db, k.userId, { ipAllowlist: ["203.0.113.9"] });
    const from = (xff?: string) =>
      door.get(door.balanceUrl(k), xff ? { "x-forwarded-for": xff } : undefined);
    expect((await from("203.0.113.9")).status).toBe(200);
    // what the caller says left of the proxy's hop is not believed
    expect((await from("203.0.113.9, 198.51.100.7")).status).toBe(403);
    expect((await from("198.51.100.7")).status).toBe(403);
    // no header: the caller is the proxy itself, not in the list
    expect((await from()).status).toBe(403);
    expect((await from("not-an-ip")).status).toBe(403);
  });
});
