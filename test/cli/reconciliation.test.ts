import { eq, like } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { reconcileNow } from "../../src/cli/reconciliation.ts";
import { confirmQuote } from "../../src/commerce/orders/place.ts";
import { parseConfig } from "../../src/config.ts";
import { notifications, orders, products } from "../../src/db/schema.ts";
import { bootCommerce, type CommerceHarness } from "../helpers/commerce.ts";
import { testDriver } from "../helpers/db.ts";

// `kios recon` settles the open orders before it reads the balance: an order that failed
// meanwhile is settled as the server would, with the shop's admins and its pause rule.

describe(`kios recon's settling (${testDriver})`, () => {
  let h: CommerceHarness;
  beforeAll(async () => {
    // pending at the supplier until the test settles it
    h = await bootCommerce({ sandbox: { settleDelayMs: 3_600_000 } });
  });
  afterAll(() => h?.stop());

  it("closes a failing product by the configured rule and tells the configured admins", async () => {
    const user = await h.newUser(100_000);
    const quote = await h.quote(user, "081234567904");
    const placed = await confirmQuote(h.deps, { quoteId: quote.id, userId: user });
    if (!placed.ok) throw new Error(placed.reason);
    expect(placed.order.status).toBe("pending");
    // failed and refunded at the supplier; kios still has it pending
    await h.sandbox.settleNow();

    // one failure in one order closes the product here (the default rule needs 3 of 5)
    const config = parseConfig({ ADMIN_IDS: "777001,777002", PRODUCT_PAUSE_AFTER: "1/1" });
    const check = await reconcileNow({
      config,
      db: h.deps.db,
      supplier: h.supplier,
      clock: h.clock,
      logger: h.deps.logger,
    });
    expect(check.openCount).toBe(0);
    const [order] = await h.deps.db.select().from(orders).where(eq(orders.id, placed.order.id));
    expect(order?.status).toBe("failed");
    const [product] = await h.deps.db
      .select()
      .from(products)
      .where(eq(products.code, quote.productCode));
    expect(product?.pauseReason).toBe("failing");
    expect(product?.pausedUntil?.getTime()).toBeGreaterThan(h.clock.now());
    const alerts = await h.deps.db
      .select({ chatId: notifications.chatId })
      .from(notifications)
      .where(like(notifications.key, `product:${quote.productCode}:paused:%`));
    expect(alerts.map((a) => a.chatId).sort()).toEqual([777_001, 777_002]);
  });
});
