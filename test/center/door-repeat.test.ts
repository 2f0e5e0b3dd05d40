import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import type { IssuedCenterKey } from "../../src/commerce/center/keys.ts";
import { CLAIM_TAKEOVER_MS, placeH2hOrder, productKind } from "../../src/commerce/h2h/orders.ts";
import * as quotes from "../../src/commerce/orders/quotes.ts";
import { centerKeys, h2hOrders, orders, products } from "../../src/db/schema.ts";
import type { CommerceHarness } from "../helpers/commerce.ts";
import { testDriver } from "../helpers/db.ts";
import { bootDoor, type DoorHarness, phone, REPLY } from "../helpers/door.ts";

// docs/reliability.md's door findings, each interleaving made exact by a hook in the quote
// step (createQuote), as two processes would interleave:
// - a repeat of a refID naming another product, whose own quote is refused while the
//   refID's first request binds it and forms its order, answered "GAGAL. Alasan: kode
//   produk tidak ada" as if the refID were free (the first request runs inside the repeat's
//   quote);
// - a repeat arriving while the first request is still before its quote found the refID
//   free: refused for its own product it answered GAGAL, or with the same product it made
//   the order itself. The first request now claims the refID on arrival (h2h_orders with no
//   quote yet), so the repeat answers PROSES (the first request held inside its quote).

vi.mock("../../src/commerce/orders/quotes.ts", async (importOriginal) => {
  const real = await importOriginal<typeof import("../../src/commerce/orders/quotes.ts")>();
  return { ...real, createQuote: vi.fn(real.createQuote) };
});

describe(`a repeated refID (${testDriver})`, () => {
  let door: DoorHarness;
  let h: CommerceHarness;
  const createQuote = vi.mocked(quotes.createQuote);

  beforeAll(async () => {
    door = await bootDoor();
    h = door.h;
  });
  afterAll(async () => {
    await door.stop();
  });

  const reseller = (): Promise<IssuedCenterKey> => door.reseller();
  const trxUrl = (k: IssuedCenterKey, t: { product: string; dest: string; refId: string }) =>
    door.trxUrl(k, t);
  const ordersOf = (userId: number) =>
    h.deps.db.select().from(orders).where(eq(orders.userId, userId));
  const rowsOf = (userId: number) =>
    h.deps.db.select().from(h2hOrders).where(eq(h2hOrders.userId, userId));

  /**
   * the first quote of `code` waits inside createQuote (the request has arrived, its quote
   * not made yet) until released, as a request waiting for a connection under load would
   */
  function holdQuote(code: string): { arrived: Promise<void>; release(): void } {
    const real = createQuote.getMockImplementation()!;
    let arrive!: () => void;
    let release!: () => void;
    const arrived = new Promise<void>((r) => {
      arrive = r;
    });
    const gate = new Promise<void>((r) => {
      release = r;
    });
    createQuote.mockImplementation(async (engine, q) => {
      if (q.productCode !== code) return real(engine, q);
      createQuote.mockImplementation(real);
      arrive();
      await gate;
      return real(engine, q);
    });
    return { arrived, release };
  }

  for (const other of ["NOPE99", "TSEL10"]) {
    it(`over the door: a repeat (${other}) while the first request is before its quote answers PROSES, then the first's final; one order`, async () => {
      const k = await reseller();
      const t = { product: "TSEL10", dest: phone("901"), refId: `held-${other}` };
      const hold = holdQuote("TSEL10");
      const firstReply = door.get(trxUrl(k, t));
      await hold.arrived;
      const repeat = await door.get(trxUrl(k, { ...t, product: other }));
      const m = REPLY.exec(repeat.text);
      expect({ refId: m?.[1], product: m?.[2], dest: m?.[3], word: m?.[4] }, repeat.text).toEqual({
        refId: t.refId,
        product: "TSEL10",
        dest: t.dest,
        word: "PROSES",
      });
      expect(await ordersOf(k.userId)).toHaveLength(0);
      hold.release();
      const first = await firstReply;
      expect(REPLY.exec(first.text)?.[4], first.text).toBe("SUKSES");
      const later = await door.get(trxUrl(k, { ...t, product: other }));
      expect(later.text).toBe(first.text);
      expect(await ordersOf(k.userId)).toHaveLength(1);
      expect(await rowsOf(k.userId)).toHaveLength(1);
    });
  }

  it("over the JSON API's path (placeH2hOrder): a repeat naming a game's code while the first is before its quote is in flight, then the first's order", async () => {
    const k = await reseller();
    const [key] = await h.deps.db.select().from(centerKeys).where(eq(centerKeys.userId, k.userId));
    const caller = { userId: k.userId, centerKeyId: key!.id };
    const [game] = await h.deps.db
      .select()
      .from(products)
      .where(and(eq(products.type, "game"), eq(products.listed, true)))
      .limit(1);
    expect(game, "the harness lists a game product").toBeDefined();
    const t = {
      cmd: "prepaid" as const,
      code: "TSEL10",
      customerNo: phone("901"),
      refId: "json-1",
    };
    const hold = holdQuote("TSEL10");
    const firstAnswer = placeH2hOrder(h.deps, caller, t);
    await hold.arrived;
    const repeat = await placeH2hOrder(h.deps, caller, { ...t, code: game!.code });
    expect(repeat).toMatchObject({ ok: true, order: null, row: { productCode: "TSEL10" } });
    hold.release();
    const first = await firstAnswer;
    if (!first.ok || !first.order) throw new Error(`first: ${JSON.stringify(first)}`);
    const later = await placeH2hOrder(h.deps, caller, { ...t, code: game!.code });
    expect(later.ok && later.order?.id).toBe(first.order.id);
    expect(await ordersOf(k.userId)).toHaveLength(1);
  });

  it("a claim left by a request that never came back (a crashed process) is taken over once old; the late request then answers the order made", async () => {
    const k = await reseller();
    const [key] = await h.deps.db.select().from(centerKeys).where(eq(centerKeys.userId, k.userId));
    const caller = { userId: k.userId, centerKeyId: key!.id };
    const t = {
      cmd: "prepaid" as const,
      code: "TSEL10",
      customerNo: phone("901"),
      refId: "crash-1",
    };
    const hold = holdQuote("TSEL10");
    const stuck = placeH2hOrder(h.deps, caller, t);
    await hold.arrived;
    // young, the claim stands: the repeat is told it is in flight
    expect(await placeH2hOrder(h.deps, caller, t)).toMatchObject({ ok: true, order: null });
    h.clock.advance(CLAIM_TAKEOVER_MS + 1000);
    const taken = await placeH2hOrder(h.deps, caller, t);
    if (!taken.ok || !taken.order) throw new Error(`taken: ${JSON.stringify(taken)}`);
    hold.release();
    // the request that lost its claim binds nothing: the refID's order is its answer too
    const late = await stuck;
    expect(late.ok && late.order?.id).toBe(taken.order.id);
    expect(await ordersOf(k.userId)).toHaveLength(1);
    expect(await rowsOf(k.userId)).toHaveLength(1);
  });

  it("a request whose old claim was taken over by a refused repeat forms nothing when it comes back: the refID ends free, as the repeat's GAGAL said", async () => {
    const k = await reseller();
    const [key] = await h.deps.db.select().from(centerKeys).where(eq(centerKeys.userId, k.userId));
    const caller = { userId: k.userId, centerKeyId: key!.id };
    const t = {
      cmd: "prepaid" as const,
      code: "TSEL10",
      customerNo: phone("901"),
      refId: "crash-2",
    };
    const hold = holdQuote("TSEL10");
    const stuck = placeH2hOrder(h.deps, caller, t);
    await hold.arrived;
    h.clock.advance(CLAIM_TAKEOVER_MS + 1000);
    expect(await placeH2hOrder(h.deps, caller, { ...t, code: "NOPE99" })).toMatchObject({
      ok: false,
      refusal: { code: "PRODUCT_NOT_FOUND" },
    });
    expect(await rowsOf(k.userId)).toHaveLength(0);
    hold.release();
    expect(await stuck).toMatchObject({ ok: false, refusal: { code: "SERVER_ERROR" } });
    expect(await ordersOf(k.userId)).toHaveLength(0);
    expect(await rowsOf(k.userId)).toHaveLength(0);
  });

  it("productKind finds a code in any case, the exact code first", async () => {
    expect(await productKind(h.deps.db, "TSEL10")).toBe("prepaid");
    expect(await productKind(h.deps.db, "tsel10")).toBe("prepaid");
    expect(await productKind(h.deps.db, "TsEl10")).toBe("prepaid");
    expect(await productKind(h.deps.db, "NOPE99")).toBeUndefined();
  });
});
