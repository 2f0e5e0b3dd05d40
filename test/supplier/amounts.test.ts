import { describe, expect, it } from "vitest";
import { formatRupiah, parseRupiah, wholeRupiah } from "../../src/supplier/amounts.ts";
import { parseSupplierTime } from "../../src/supplier/times.ts";

describe("parseRupiah (bill detail amounts)", () => {
  const cases: [string, number | undefined][] = [
    ["125000", 125000],
    ["125.000", 125000],
    ["1.250.000", 1250000],
    ["1,250,000", 1250000],
    ["Rp 125.000", 125000],
    ["Rp125.000,00", 125000],
    ["125000.00", 125000],
    ["2500,5", 2501],
    [" 7500 ", 7500],
    ["-5.000", -5000],
    ["0", 0],
    ["", undefined],
    ["   ", undefined],
    ["-", undefined],
    ["abc", undefined],
    ["12.34.56", undefined],
    ["1000.000", undefined],
  ];
  for (const [text, expected] of cases) {
    it(`"${text}" → ${expected}`, () => {
      expect(parseRupiah(text)).toBe(expected);
    });
  }
});

describe("wholeRupiah (integer fields)", () => {
  it("takes integers and integer text, refuses fractions and junk", () => {
    expect(wholeRupiah(10150)).toBe(10150);
    expect(wholeRupiah("10150")).toBe(10150);
    expect(wholeRupiah("10.150")).toBe(10150);
    expect(wholeRupiah(10150.5)).toBeUndefined();
    expect(wholeRupiah("10150,50")).toBeUndefined();
    expect(wholeRupiah(null)).toBeUndefined();
    expect(wholeRupiah("")).toBeUndefined();
    expect(wholeRupiah(Number.NaN)).toBeUndefined();
  });
});

describe("formatRupiah", () => {
  it("writes Rp with dots between thousands", () => {
    expect(formatRupiah(10000)).toBe("Rp10.000");
    expect(formatRupiah(5_000_000)).toBe("Rp5.000.000");
    expect(formatRupiah(950)).toBe("Rp950");
    expect(formatRupiah(0)).toBe("Rp0");
    expect(formatRupiah(-2500)).toBe("-Rp2.500");
  });
});

describe("parseSupplierTime", () => {
  it("reads WIB local times, ISO times with a zone, and Unix seconds", () => {
    expect(parseSupplierTime("2026-01-01 10:05:00")?.toISOString()).toBe(
      "2026-01-01T03:05:00.000Z",
    );
    expect(parseSupplierTime("2026-01-01T10:05:00+07:00")?.toISOString()).toBe(
      "2026-01-01T03:05:00.000Z",
    );
    expect(parseSupplierTime("2026-01-01T03:05:00Z")?.toISOString()).toBe(
      "2026-01-01T03:05:00.000Z",
    );
    expect(parseSupplierTime(1767236700)?.toISOString()).toBe("2026-01-01T03:05:00.000Z");
    expect(parseSupplierTime("tomorrow")).toBeUndefined();
    expect(parseSupplierTime("2026-13-45 99:99:99")).toBeUndefined();
    expect(parseSupplierTime(null)).toBeUndefined();
  });
});
