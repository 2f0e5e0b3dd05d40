import { describe, expect, it } from "vitest";
import { orderCostCeiling } from "../../../src/commerce/orders/route-ceiling.ts";

// Digiflazz's max_price: what the route may cost for the shop to keep its minimum margin
// after every upline's margin (design rule 21), never below zero

describe("the cost ceiling sent as max_price", () => {
  it("leaves the uplines' margins and the minimum margin out of the buyer's price", () => {
    const margins = [
      { userId: 1, amount: 200 },
      { userId: 2, amount: 300 },
    ];
    expect(orderCostCeiling({ price: 11_000, margins }, 100)).toBe(10_400);
    expect(orderCostCeiling({ price: 11_000, margins: [] }, 100)).toBe(10_900);
  });

  it("is never negative", () => {
    expect(orderCostCeiling({ price: 300, margins: [{ userId: 1, amount: 400 }] }, 100)).toBe(0);
  });
});
