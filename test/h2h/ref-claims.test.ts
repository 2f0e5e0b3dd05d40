import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { priceFor } from "../../src/commerce/catalogue/prices.ts";
import * as quotes from "../../src/commerce/orders/quotes.ts";
import { h2hOrders, orders } from "../../src/db/schema.ts";
import { testDriver } from "../helpers/db.ts";
import { bootH2h, type H2hHarness } from "../helpers/h2h.ts";
import { patient } from "../helpers/patience.ts";

// a ref_id is claimed when its request arrives, before its quote (docs/h2h.md): a repeat
// while the first request is still before its quote is told ORDER_PENDING (read by kios's
// own client as an accepted pending order), never a refusal and never a second order.
// The first request is held inside its quote step, as a request waiting for a connection
// under load would be.

vi.mock("../../src/commerce/orders/quotes.ts", async (importOriginal) => {
  const real = await importOriginal<typeof import("../../src/commerce/orders/quotes.ts")>();
  return { ...real, createQuote: vi.fn(real.createQuote) };
});

const phone = (ending: string) =>
  `0812345${String(Math.floor(Math.random() * 1000)).padStart(3, "0")}${ending}`;

describe(`H2H ref_id claims (${testDriver})`, () => {
  let h: H2hHarness;
  const createQuote = vi.mocked(quotes.createQuote);
  beforeAll(async () => {
    h = await bootH2h();
  });
  afterAll(() => h.stop());

  it("a repeat while the first request is before its quote is ORDER_PENDING at the reseller's price; then the first's order; one order", async () => {
    const key = await h.reseller(100_000);
    // the repeat waits a moment for the first request's order before it answers pending
    const client = h.client(key, { timeoutMs: patient(30_000) });
    const price = (await priceFor(h.deps.db, "TSEL10", "reseller"))!;
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
      createQuote.mockImplementation(real);
      arrive();
      await gate;
      return real(engine, q);
    });
    const t = { cmd: "prepaid" as const, code: "TSEL10", customerNo: phone("901"), refId: "H-1" };
    const first = client.order(t);
    await arrived;
    const repeat = await client.order(t);
    expect(repeat, JSON.stringify(repeat)).toMatchObject({
      outcome: "accepted",
      transaction: { refId: "H-1", status: "pending", price, code: "TSEL10" },
    });
    expect(await h.deps.db.select().from(orders).where(eq(orders.userId, key.userId))).toHaveLength(
      0,
    );
    release();
    expect(await first).toMatchObject({
      outcome: "accepted",
      transaction: { refId: "H-1", status: "success" },
    });
    expect(await client.order(t)).toMatchObject({
      outcome: "accepted",
      transaction: { refId: "H-1", status: "success" },
    });
    expect(await h.deps.db.select().from(orders).where(eq(orders.userId, key.userId))).toHaveLength(
      1,
    );
    expect(
      await h.deps.db.select().from(h2hOrders).where(eq(h2hOrders.userId, key.userId)),
    ).toHaveLength(1);
  });
});
