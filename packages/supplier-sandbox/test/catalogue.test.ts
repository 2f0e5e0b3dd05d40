import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { WireProduct } from "../index.ts";
import { generateCatalogue, SANDBOX_PRODUCT_CODES } from "../src/catalogue.ts";
import { type Harness, harness } from "./helpers.ts";

const PREPAID_CATEGORIES = ["Pulsa", "Data", "PLN", "E-Money"];
const PASCA_CATEGORIES = [
  "PLN PASCABAYAR",
  "BPJS KESEHATAN",
  "PDAM",
  "TELKOM",
  "PBB",
  "MULTIFINANCE",
];

describe("sandbox catalogue", () => {
  const catalogue = generateCatalogue(1);
  const byCode = (code: string) => catalogue.get(code)?.product;

  it("holds more than 5,000 products with unique short uppercase codes", () => {
    expect(catalogue.all.length).toBeGreaterThanOrEqual(5000);
    const codes = catalogue.all.map((p) => p.code);
    expect(new Set(codes).size).toBe(codes.length);
    for (const code of codes) expect(code).toMatch(/^[A-Z0-9]{2,16}$/);
  });

  it("gives every product the wire record's fields and conventions", () => {
    // one collected list keeps 5,000 products × a dozen checks fast
    const problems: string[] = [];
    const check = (ok: boolean, p: WireProduct, what: string) => {
      if (!ok) problems.push(`${p.code}: ${what}`);
    };
    for (const p of catalogue.all) {
      check(typeof p.name === "string" && p.name.length > 3, p, "name");
      check(p.desc.length > 10, p, "desc");
      check(Number.isSafeInteger(p.price) && p.price > 0, p, "price");
      check(p.status === "active" || p.status === "inactive", p, "status");
      check(p.brand === p.brand.toUpperCase(), p, "brand");
      if (p.type === "prepaid") check(PREPAID_CATEGORIES.includes(p.category), p, "category");
      if (p.type === "game") check(p.category === "Games", p, "category");
      if (p.type === "pasca") check(PASCA_CATEGORIES.includes(p.category), p, "category");
      if (p.start_cut_off !== undefined || p.end_cut_off !== undefined) {
        check(/^\d\d:\d\d$/.test(p.start_cut_off ?? ""), p, "start_cut_off");
        check(/^\d\d:\d\d$/.test(p.end_cut_off ?? ""), p, "end_cut_off");
      }
    }
    expect(problems).toEqual([]);
    const brands = new Set(catalogue.all.map((p) => p.brand));
    for (const brand of [
      "TELKOMSEL",
      "INDOSAT",
      "XL",
      "AXIS",
      "TRI",
      "SMARTFREN",
      "BY.U",
      "PLN",
      "GOPAY",
      "OVO",
      "DANA",
      "SHOPEEPAY",
      "LINKAJA",
      "MOBILE LEGENDS",
      "FREE FIRE",
      "PUBG MOBILE",
      "GENSHIN IMPACT",
      "VALORANT",
      "HONOR OF KINGS",
      "CALL OF DUTY MOBILE",
    ]) {
      expect(brands.has(brand), brand).toBe(true);
    }
    const inactive = catalogue.all.filter((p) => p.status === "inactive");
    expect(inactive.length).toBeGreaterThan(0);
    expect(inactive.length).toBeLessThan(catalogue.all.length / 10);
  });

  it("names products in Indonesian style with plausible prices", () => {
    const tsel5 = byCode("TSEL5")!;
    expect(tsel5).toMatchObject({
      name: "Telkomsel 5.000",
      category: "Pulsa",
      brand: "TELKOMSEL",
      type: "prepaid",
    });
    expect(tsel5.price).toBeGreaterThan(5000);
    expect(tsel5.price).toBeLessThan(5600);
    expect(byCode("TSELD10GB30")?.name).toBe("Telkomsel Data 10GB 30 Hari");
    expect(byCode("PLN20")).toMatchObject({ name: "Token PLN 20.000", category: "PLN" });
    expect(byCode("GOPAY50")).toMatchObject({ name: "GoPay 50.000", category: "E-Money" });
    expect(byCode("ML86")).toMatchObject({
      name: "Mobile Legends 86 Diamonds",
      type: "game",
      brand: "MOBILE LEGENDS",
    });
    expect(byCode("FF140")?.name).toBe("Free Fire 140 Diamonds");
    expect(byCode("PLNPOST")).toMatchObject({ type: "pasca", category: "PLN PASCABAYAR" });
    expect(byCode("PDAMSBY")).toMatchObject({ type: "pasca", category: "PDAM" });
    // for pasca the price is the admin fee
    expect(byCode("BPJS")!.price).toBeLessThan(10_000);
  });

  it("keeps the documented fixture codes in their documented state", () => {
    for (const [group, codes] of Object.entries(SANDBOX_PRODUCT_CODES)) {
      for (const code of codes) {
        const p = byCode(code);
        expect(p, code).toBeDefined();
        expect(p!.status, code).toBe(group === "inactive" ? "inactive" : "active");
        if (group === "cutOff") {
          expect(p).toMatchObject({ start_cut_off: "23:45", end_cut_off: "00:15" });
        }
      }
    }
  });

  it("is the same for the same seed; another seed keeps the codes and moves prices", () => {
    expect(generateCatalogue(1).all).toEqual(catalogue.all);
    const other = generateCatalogue(7).all;
    expect(other.map((p) => p.code)).toEqual(catalogue.all.map((p) => p.code));
    const moved = other.filter((p, i) => p.price !== catalogue.all[i]!.price);
    expect(moved.length).toBeGreaterThan(1000);
  });
});

describe("POST /v1/products", () => {
  let h: Harness;
  beforeAll(async () => {
    h = await harness();
  });
  afterAll(() => h.close());

  it("lists one type per cmd, the prepaid list holding pulsa, data, PLN and e-money", async () => {
    const lists: Record<string, WireProduct[]> = {};
    for (const cmd of ["prepaid", "game", "pasca"]) {
      const { status, body } = await h.call("/products", { cmd });
      expect(status).toBe(200);
      expect(body).toMatchObject({ success: true, code: "SUCCESS", errors: null });
      const list = body.data as WireProduct[];
      expect(body.meta).toEqual({ total: list.length });
      expect(list.every((p) => p.type === cmd)).toBe(true);
      lists[cmd] = list;
    }
    expect(new Set(lists.prepaid!.map((p) => p.category))).toEqual(new Set(PREPAID_CATEGORIES));
    const total = Object.values(lists).reduce((n, l) => n + l.length, 0);
    expect(total).toBe(h.sandbox.catalogue().length);
    expect(total).toBeGreaterThanOrEqual(5000);
  });

  it("answers a missing or unknown cmd with VALIDATION_ERROR", async () => {
    const missing = await h.call("/products", {});
    expect(missing.status).toBe(400);
    expect(missing.body.errors).toEqual({ cmd: ["is required"] });
    const unknown = await h.call("/products", { cmd: "voucher" });
    expect(unknown.status).toBe(400);
    expect(unknown.body.code).toBe("VALIDATION_ERROR");
    expect(unknown.body.errors?.cmd?.[0]).toContain("prepaid, game, pasca");
  });
});
