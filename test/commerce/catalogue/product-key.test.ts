import { describe, expect, it } from "vitest";
import { brandKey, productKey } from "../../../src/commerce/catalogue/product-key.ts";

// the linking key (docs/suppliers.md#linking): the ways real catalogues name one product
// give one key, and a product that differs in anything but spelling gives another

type Named = { type: string; brand: string; category: string; name: string };
const item = (brand: string, category: string, name: string, type = "prepaid"): Named => ({
  type,
  brand,
  category,
  name,
});

describe("brandKey", () => {
  it.each([
    ["TELKOMSEL", "telkomsel"],
    ["Telkomsel", "telkomsel"],
    ["TSEL", "telkomsel"],
    ["Tsel", "telkomsel"],
    ["INDOSAT", "indosat"],
    ["ISAT", "indosat"],
    ["IM3", "indosat"],
    ["Indosat Ooredoo", "indosat"],
    ["XL", "xl"],
    ["AXIS", "axis"],
    ["Tri", "tri"],
    ["THREE", "tri"],
    ["3", "tri"],
    ["SMARTFREN", "smartfren"],
    ["PLN", "pln"],
    ["DANA", "dana"],
    ["OVO", "ovo"],
    ["GoPay", "gopay"],
    ["GO PAY", "gopay"],
    ["SHOPEE PAY", "shopeepay"],
    ["ShopeePay", "shopeepay"],
    ["MOBILE LEGENDS", "mobilelegends"],
    ["MLBB", "mobilelegends"],
    ["Free Fire", "freefire"],
    ["FF", "freefire"],
    ["Some New Brand", "somenewbrand"],
  ])("%s → %s", (brand, key) => {
    expect(brandKey(brand)).toBe(key);
  });
});

describe("productKey: one product, many names", () => {
  it.each<[string, Named, Named]>([
    [
      "Digiflazz's Telkomsel 10.000 beside TSEL 10K",
      item("TELKOMSEL", "Pulsa", "Telkomsel 10.000"),
      item("TSEL", "PULSA", "TSEL 10K"),
    ],
    [
      "10000 and 10rb",
      item("Telkomsel", "Pulsa", "Telkomsel 10000"),
      item("Tsel", "pulsa", "Tsel 10rb"),
    ],
    [
      "Rp and the category's word",
      item("INDOSAT", "Pulsa", "Pulsa Indosat Rp 25.000"),
      item("ISAT", "Pulsa", "ISAT 25K"),
    ],
    ["IM3", item("INDOSAT", "Pulsa", "Indosat 5.000"), item("IM3", "Pulsa", "IM3 5 rb")],
    ["XL", item("XL", "Pulsa", "XL 50.000"), item("xl", "PULSA", "Xl 50K")],
    ["Axis", item("AXIS", "Pulsa", "Axis 15.000"), item("Axis", "Pulsa", "AXIS 15RB")],
    ["Tri / Three / 3", item("TRI", "Pulsa", "Tri 20.000"), item("3", "Pulsa", "3 20K")],
    ["Three", item("THREE", "Pulsa", "Three 20000"), item("Tri", "Pulsa", "Tri 20rb")],
    [
      "Smartfren",
      item("SMARTFREN", "Pulsa", "Smartfren 10.000"),
      item("Smart", "Pulsa", "Smart 10K"),
    ],
    [
      "data with its units apart or joined",
      item("TELKOMSEL", "Data", "Telkomsel Data 1 GB 30 Hari"),
      item("TSEL", "DATA", "TSEL 1GB 30hari"),
    ],
    [
      "the words in another order",
      item("XL", "Data", "XL 30 Hari 2GB"),
      item("XL", "Data", "XL 2 GB 30 Hari"),
    ],
    ["PLN tokens", item("PLN", "PLN", "PLN 20.000"), item("PLN", "pln", "Token PLN 20K")],
    ["DANA", item("DANA", "E-Money", "DANA 10.000"), item("Dana", "E-MONEY", "Saldo DANA 10rb")],
    ["OVO", item("OVO", "E-Money", "OVO 50.000"), item("OVO", "E-Wallet", "Top Up OVO 50K")],
    [
      "GoPay / GO PAY",
      item("GO PAY", "E-Money", "Go Pay 20.000"),
      item("GOPAY", "E-Money", "GoPay 20K"),
    ],
    [
      "ShopeePay",
      item("SHOPEE PAY", "E-Money", "Shopee Pay 100.000"),
      item("ShopeePay", "E-Money", "ShopeePay 100K"),
    ],
    [
      "Mobile Legends / MLBB, a game list beside a prepaid item",
      item("MOBILE LEGENDS", "Games", "Mobile Legends 86 Diamonds", "game"),
      item("MLBB", "Games", "MLBB 86 DM"),
    ],
    [
      "Free Fire / FF",
      item("FREE FIRE", "Games", "Free Fire 70 Diamond", "game"),
      item("FF", "GAMES", "FF 70 Diamonds", "prepaid"),
    ],
  ])("%s", (_, a, b) => {
    const key = productKey(a);
    expect(key).not.toBeNull();
    expect(productKey(b)).toBe(key);
  });
});

describe("productKey: different products stay apart", () => {
  it.each<[string, Named, Named]>([
    ["another nominal", item("TSEL", "Pulsa", "TSEL 10K"), item("TSEL", "Pulsa", "TSEL 100K")],
    [
      "another brand",
      item("TELKOMSEL", "Pulsa", "Telkomsel 10.000"),
      item("INDOSAT", "Pulsa", "Indosat 10.000"),
    ],
    [
      "another category",
      item("TELKOMSEL", "Pulsa", "Telkomsel 10.000"),
      item("TELKOMSEL", "Paket SMS & Telpon", "Telkomsel 10.000"),
    ],
    [
      "a word more (transfer)",
      item("TELKOMSEL", "Pulsa", "Telkomsel 10.000"),
      item("TELKOMSEL", "Pulsa", "Telkomsel Transfer 10.000"),
    ],
    ["1,5 GB is not 15 GB", item("XL", "Data", "XL 1,5 GB"), item("XL", "Data", "XL 15 GB")],
    ["another validity", item("XL", "Data", "XL 2GB 7 Hari"), item("XL", "Data", "XL 2GB 30 Hari")],
    [
      "a bill is not an item",
      item("PLN", "PLN", "PLN 20.000", "pasca"),
      item("PLN", "PLN", "PLN 20.000", "prepaid"),
    ],
  ])("%s", (_, a, b) => {
    expect(productKey(a)).not.toBe(productKey(b));
  });

  it("a name that says nothing but its brand matches only by the whole name", () => {
    const bare = productKey(item("TELKOMSEL", "Pulsa", "Telkomsel"));
    expect(bare).not.toBeNull();
    expect(productKey(item("Telkomsel", "PULSA", "TELKOMSEL"))).toBe(bare);
    expect(productKey(item("TSEL", "Pulsa", "TSEL"))).not.toBe(bare);
    expect(productKey(item("TSEL", "Pulsa", ""))).toBeNull();
  });
});
