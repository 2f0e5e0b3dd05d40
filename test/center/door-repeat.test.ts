import { createHash } from "node:crypto";
import { listen, type RunningServer } from "@kios/kit";
import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { CENTER_PREFIX, createCenterRoutes } from "../../src/center/routes.ts";
import { createCenterKey, type IssuedCenterKey } from "../../src/commerce/center/keys.ts";
import { createSecretBox } from "../../src/commerce/h2h/cipher.ts";
import { placeH2hOrder, productKind } from "../../src/commerce/h2h/orders.ts";
import * as quotes from "../../src/commerce/orders/quotes.ts";
import { centerKeys, h2hOrders, orders, products } from "../../src/db/schema.ts";
import { createRateLimiter } from "../../src/h2h/rate-limit.ts";
import { bootCommerce, type CommerceHarness } from "../helpers/commerce.ts";
import { testDriver } from "../helpers/db.ts";

// docs/reliability.md's door finding: a repeat of a refID naming another product, whose own
// quote is refused while the refID's first request binds it and forms its order, answered
// "GAGAL. Alasan: kode produk tidak ada" as if the refID were free. The interleaving is made
// exact by running the first request inside the repeat's quote (between the repeat's read
// of the refID and its refusal), as two processes would interleave.

vi.mock("../../src/commerce/orders/quotes.ts", async (importOriginal) => {
  const real = await importOriginal<typeof import("../../src/commerce/orders/quotes.ts")>();
  return { ...real, createQuote: vi.fn(real.createQuote) };
});

const REPLY =
  /^R#(\S+) ([^.\s]+)\.(\S+) (SUKSES|GAGAL|PROSES)\.(?: SN: (.*?)\.)?(?: Alasan: (.*?)\.)?(?: Harga ([\d.]+)\.)? Saldo (-?[\d.]+)/;

const sign = (parts: string[]) =>
  createHash("sha1")
    .update(["OtomaX", ...parts].join("|"))
    .digest("base64")
    .replace(/\+/g, "-")
    .replace(/\//g, "_")
    .replace(/=+$/, "");

const phone = (ending: string) =>
  `0812345${String(Math.floor(Math.random() * 1000)).padStart(3, "0")}${ending}`;

describe(`a repeated refID naming another product (${testDriver})`, () => {
  let h: CommerceHarness;
  let server: RunningServer;
  let base: string;
  const box = createSecretBox("test-h2h-encryption-key-0123456789abcdef");
  const createQuote = vi.mocked(quotes.createQuote);

  beforeAll(async () => {
    h = await bootCommerce();
    const app = createCenterRoutes({
      orders: h.deps,
      box,
      clock: h.clock,
      logger: h.deps.logger,
      limiter: createRateLimiter(),
    });
    server = await listen(app, 0, "127.0.0.1", { keepIdleConnections: true });
    base = `http://127.0.0.1:${server.port}${CENTER_PREFIX}`;
  });
  afterAll(async () => {
    await server.close();
    await h.stop();
  });

  async function reseller(): Promise<IssuedCenterKey> {
    const userId = await h.newUser(1_000_000, "reseller");
    const made = await createCenterKey(h.deps.db, box, userId);
    if (!made.ok) throw new Error(made.reason);
    return made.key;
  }
  const trxUrl = (k: IssuedCenterKey, t: { product: string; dest: string; refId: string }) =>
    `${base}/trx?${new URLSearchParams({
      memberID: k.memberId,
      product: t.product,
      dest: t.dest,
      refID: t.refId,
      sign: sign([k.memberId, t.product, t.dest, t.refId, k.pin, k.password]),
    })}`;

  /** the first request (TSEL10) runs to its order inside the repeat's refused quote */
  function firstRequestDuring(
    refusedCode: string,
    first: () => Promise<unknown>,
  ): { done: Promise<unknown> } {
    const real = createQuote.getMockImplementation()!;
    const state: { done: Promise<unknown> } = { done: Promise.resolve() };
    createQuote.mockImplementation(async (engine, q) => {
      if (q.productCode !== refusedCode) return real(engine, q);
      createQuote.mockImplementation(real);
      state.done = first();
      await state.done;
      return real(engine, q);
    });
    return state;
  }

  it("over the door: the repeat answers the stored order, and no second order is formed", async () => {
    const k = await reseller();
    const t = { product: "TSEL10", dest: phone("901"), refId: "rep-1" };
    const first = firstRequestDuring("NOPE99", () => fetch(trxUrl(k, t)).then((r) => r.text()));
    const repeat = await (await fetch(trxUrl(k, { ...t, product: "NOPE99" }))).text();
    const firstText = (await first.done) as string;
    expect(REPLY.exec(firstText)?.[4], firstText).toBe("SUKSES");
    const m = REPLY.exec(repeat);
    expect({ product: m?.[2], dest: m?.[3], word: m?.[4] }, repeat).toEqual({
      product: "TSEL10",
      dest: t.dest,
      word: "SUKSES",
    });
    expect(repeat).toBe(firstText);
    expect(await h.deps.db.select().from(orders).where(eq(orders.userId, k.userId))).toHaveLength(
      1,
    );
    expect(
      await h.deps.db.select().from(h2hOrders).where(eq(h2hOrders.userId, k.userId)),
    ).toHaveLength(1);
  });

  it("over the JSON API's path (placeH2hOrder): the same, for a refused quote and a quote of the other kind", async () => {
    const k = await reseller();
    const [key] = await h.deps.db.select().from(centerKeys).where(eq(centerKeys.userId, k.userId));
    const caller = { userId: k.userId, centerKeyId: key!.id };
    const [game] = await h.deps.db
      .select()
      .from(products)
      .where(and(eq(products.type, "game"), eq(products.listed, true)))
      .limit(1);
    expect(game, "the harness lists a game product").toBeDefined();
    // a refused quote, and a game's code sent as prepaid: quoted, but of the other kind
    for (const [n, other] of [
      [1, "NOPE99"],
      [2, game!.code],
    ] as const) {
      const t = {
        cmd: "prepaid" as const,
        code: "TSEL10",
        customerNo: phone("901"),
        refId: `json-${n}`,
      };
      const first = firstRequestDuring(other, () => placeH2hOrder(h.deps, caller, t));
      const repeat = await placeH2hOrder(h.deps, caller, { ...t, code: other });
      const firstAnswer = await first.done;
      expect(repeat.ok, JSON.stringify(repeat)).toBe(true);
      if (!repeat.ok || !(firstAnswer as { ok: boolean }).ok) throw new Error("refused");
      expect(repeat.order.id).toBe((firstAnswer as { order: { id: number } }).order.id);
      expect(repeat.order.productCode).toBe("TSEL10");
    }
    expect(await h.deps.db.select().from(orders).where(eq(orders.userId, k.userId))).toHaveLength(
      2,
    );
  });

  it("productKind finds a code in any case, the exact code first", async () => {
    expect(await productKind(h.deps.db, "TSEL10")).toBe("prepaid");
    expect(await productKind(h.deps.db, "tsel10")).toBe("prepaid");
    expect(await productKind(h.deps.db, "TsEl10")).toBe("prepaid");
    expect(await productKind(h.deps.db, "NOPE99")).toBeUndefined();
  });
});
