import { eq, like } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { h2hResultMuted } from "../../src/commerce/h2h/chat.ts";
import { updateKeySettings } from "../../src/commerce/h2h/keys.ts";
import type { OrderJobs } from "../../src/commerce/orders/engine.ts";
import { h2hOrders, notifications, orders } from "../../src/db/schema.ts";
import { testDriver } from "../helpers/db.ts";
import { bootDoor, type DoorHarness, phone } from "../helpers/door.ts";
import { bootH2h, type H2hHarness } from "../helpers/h2h.ts";

// an H2H key's results go to the reseller's server; the chat gets them only when the key asks
// (docs/h2h.md#chat). A result the chat will not show must take no place in the outbox: each
// queued one waits out Telegram's limits (one a second per chat, thirty for the whole bot)
// before the renderer drops it, so a server's burst of thousands of orders would hold every
// other customer's notification behind it for as long.

describe(`a muted H2H result is not queued for the chat (${testDriver})`, () => {
  let h: H2hHarness;
  let kicks = 0;
  beforeAll(async () => {
    h = await bootH2h();
    const jobs: OrderJobs = {
      scheduleCheck: async () => {},
      kickNotifications: async () => {
        kicks += 1;
      },
    };
    h.deps.jobs = jobs;
  });
  afterAll(() => h?.stop());

  const queuedFor = async (refId: string) => {
    const [order] = await h.deps.db
      .select({ id: orders.id, status: orders.status })
      .from(h2hOrders)
      .innerJoin(orders, eq(orders.confirmKey, h2hOrders.quoteId))
      .where(eq(h2hOrders.refId, refId));
    if (!order) throw new Error(`no order for ${refId}`);
    expect(order.status).toBe("success");
    return h.deps.db
      .select()
      .from(notifications)
      .where(like(notifications.key, `order:${order.id}:%`));
  };

  it("muted (the default): no notification and no kick; asked for: queued and kicked", async () => {
    const key = await h.reseller(1_000_000);
    const client = h.client(key);
    const buy = async (n: number) => {
      const o = await client.order({
        cmd: "prepaid",
        code: "TSEL10",
        // a number ending in 901: the sandbox answers it with a success at once
        customerNo: `0812345${n}901`,
        refId: `quiet-${n}`,
      });
      if (o.outcome !== "accepted" || o.transaction.status !== "success") {
        throw new Error(`expected an instant success: ${JSON.stringify(o)}`);
      }
    };

    const before = kicks;
    await buy(100);
    expect(await queuedFor("quiet-100")).toEqual([]);
    expect(kicks).toBe(before);

    await updateKeySettings(h.deps.db, key.userId, { chatResults: true });
    await buy(101);
    const queued = await queuedFor("quiet-101");
    expect(queued.map((n) => n.payload)).toEqual([
      expect.objectContaining({ type: "order_final" }),
    ]);
    expect(kicks).toBe(before + 1);
  });
});

describe(`an OtomaX door's result is not queued for the chat either (${testDriver})`, () => {
  let door: DoorHarness;
  beforeAll(async () => {
    door = await bootDoor();
  });
  afterAll(() => door?.stop());

  it("the door's server has it (its reply, its report URL); the chat gets nothing queued", async () => {
    const k = await door.reseller(100_000);
    const answer = await door.get(
      door.trxUrl(k, { product: "TSEL10", dest: phone("901"), refId: "door-quiet-1" }),
    );
    expect(answer.text).toMatch(/SUKSES/);
    const db = door.h.deps.db;
    const [order] = await db
      .select({ id: orders.id, status: orders.status })
      .from(h2hOrders)
      .innerJoin(orders, eq(orders.confirmKey, h2hOrders.quoteId))
      .where(eq(h2hOrders.refId, "door-quiet-1"));
    expect(order?.status).toBe("success");
    const queued = await db
      .select()
      .from(notifications)
      .where(like(notifications.key, `order:${order!.id}:%`));
    expect(queued).toEqual([]);
    expect(await h2hResultMuted(db, order!.id)).toBe(true);
  });
});
