import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  detectOperator,
  normaliseMeterNumber,
  normalisePhone,
  OPERATOR_PREFIXES,
  offeredOperators,
  operatorOfBrand,
} from "../../../src/commerce/catalogue/operators.ts";

describe("normalisePhone", () => {
  it.each([
    ["081234567890", "081234567890"],
    ["6281234567890", "081234567890"],
    ["+6281234567890", "081234567890"],
    ["+62 812 3456 7890", "081234567890"],
    ["+62-812-3456-7890", "081234567890"],
    ["0812.3456.7890", "081234567890"],
    ["(0812) 3456-7890", "081234567890"],
    ["+62 (0) 812 3456 7890", "081234567890"],
    ["  0812 3456 789 ", "08123456789"],
    ["0812345678", "0812345678"], // 10 digits: the shortest
    ["0812345678901", "0812345678901"], // 13 digits: the longest
  ])("%s → %s", (input, expected) => {
    expect(normalisePhone(input)).toBe(expected);
  });

  it.each([
    "",
    "hello",
    "081234567", // 9 digits
    "08123456789012", // 14 digits
    "+6581234567", // another country
    "+1 812 345 6789",
    "02112345678", // a landline
    "8123456789", // no leading zero or country code
    "0812-3456-78ab",
    "0812/3456/7890",
    "62",
    "+",
    "++6281234567890",
  ])("refuses %j", (input) => {
    expect(normalisePhone(input)).toBeNull();
  });

  it("gives the same number for every accepted spelling", () => {
    const digits = fc.stringMatching(/^8\d{8,11}$/);
    const sep = fc.constantFrom("", " ", "-", ".");
    fc.assert(
      fc.property(digits, sep, fc.constantFrom("0", "62", "+62", "+62 "), (rest, s, lead) => {
        const spaced = rest.replace(/(\d{3})(?=\d)/g, `$1${s}`);
        expect(normalisePhone(`${lead}${spaced}`)).toBe(`0${rest}`);
      }),
    );
  });

  it("always answers 08 and 10 to 13 digits, or null", () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 20 }), (s) => {
        const n = normalisePhone(s);
        if (n !== null) expect(n).toMatch(/^08\d{8,11}$/);
      }),
    );
  });
});

describe("detectOperator", () => {
  it.each([
    ["0811 1234 5678", "telkomsel"],
    ["081234567890", "telkomsel"],
    ["0813 1234 5678", "telkomsel"],
    ["082112345678", "telkomsel"],
    ["082212345678", "telkomsel"],
    ["082312345678", "telkomsel"],
    ["085112345678", "telkomsel"],
    ["085212345678", "telkomsel"],
    ["085312345678", "telkomsel"],
    ["081412345678", "indosat"],
    ["081512345678", "indosat"],
    ["081612345678", "indosat"],
    ["085512345678", "indosat"],
    ["+6285612345678", "indosat"],
    ["085712345678", "indosat"],
    ["085812345678", "indosat"],
    ["081712345678", "xl"],
    ["081812345678", "xl"],
    ["081912345678", "xl"],
    ["085912345678", "xl"],
    ["087712345678", "xl"],
    ["087812345678", "xl"],
    ["083112345678", "axis"],
    ["083212345678", "axis"],
    ["083312345678", "axis"],
    ["083812345678", "axis"],
    ["089512345678", "tri"],
    ["089612345678", "tri"],
    ["089712345678", "tri"],
    ["089812345678", "tri"],
    ["6289912345678", "tri"],
    ["088112345678", "smartfren"],
    ["088512345678", "smartfren"],
    ["088912345678", "smartfren"],
  ])("%s is %s", (phone, operator) => {
    expect(detectOperator(phone)).toBe(operator);
  });

  it.each(["080012345678", "082012345678", "089012345678", "not a number", "0812"])(
    "%s has no operator",
    (phone) => {
      expect(detectOperator(phone)).toBeNull();
    },
  );

  it("gives no prefix to two operators", () => {
    const all = Object.values(OPERATOR_PREFIXES).flat();
    expect(new Set(all).size).toBe(all.length);
  });
});

describe("offeredOperators", () => {
  it("offers by.U products to telkomsel's 0851 range only", () => {
    expect(offeredOperators("0851 2345 6789")).toEqual(["telkomsel", "byu"]);
    expect(offeredOperators("081234567890")).toEqual(["telkomsel"]);
    expect(offeredOperators("085212345678")).toEqual(["telkomsel"]);
  });

  it("offers one operator to other networks and none to unknown numbers", () => {
    expect(offeredOperators("087812345678")).toEqual(["xl"]);
    expect(offeredOperators("080012345678")).toEqual([]);
    expect(offeredOperators("rubbish")).toEqual([]);
  });
});

describe("operatorOfBrand", () => {
  it.each([
    ["TELKOMSEL", "telkomsel"],
    ["Telkomsel", "telkomsel"],
    ["INDOSAT", "indosat"],
    ["Indosat Ooredoo", "indosat"],
    ["IM3", "indosat"],
    ["im3 ooredoo", "indosat"],
    ["XL", "xl"],
    ["XL Axiata", "xl"],
    ["AXIS", "axis"],
    ["TRI", "tri"],
    ["THREE", "tri"],
    ["SMARTFREN", "smartfren"],
    ["BY.U", "byu"],
    ["BYU", "byu"],
    ["by.U", "byu"],
  ])("%s → %s", (brand, operator) => {
    expect(operatorOfBrand(brand)).toBe(operator);
  });

  it.each(["PLN", "GOPAY", "MOBILE LEGENDS", "", "TELKOM"])("%j is no operator", (brand) => {
    expect(operatorOfBrand(brand)).toBeNull();
  });
});

describe("normaliseMeterNumber", () => {
  it.each([
    ["12345678901", "12345678901"],
    ["1234 5678 9012", "123456789012"],
    ["1234-5678-901", "12345678901"],
  ])("%s → %s", (input, expected) => {
    expect(normaliseMeterNumber(input)).toBe(expected);
  });

  it.each(["1234567890", "1234567890123", "12345a78901", ""])("refuses %j", (input) => {
    expect(normaliseMeterNumber(input)).toBeNull();
  });
});
