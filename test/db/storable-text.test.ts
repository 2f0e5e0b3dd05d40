import { describe, expect, it } from "vitest";
import { isStorableText, storableText, unstorableField } from "../../src/db/storable-text.ts";

// what PostgreSQL refuses (a NUL anywhere, a lone surrogate in jsonb), found and replaced

describe("text PostgreSQL can store", () => {
  it("finds a NUL and a lone surrogate, and nothing else", () => {
    for (const bad of ["a\u0000", "\ud800", "x\udbffy", "\udc00", "ok\ud83d"]) {
      expect(isStorableText(bad)).toBe(false);
    }
    for (const good of ["", "Rp10.000 ✓", "😀", "\\u0000", "a\u0001b", "\ud83d\ude00"]) {
      expect(isStorableText(good)).toBe(true);
      expect(storableText(good)).toBe(good);
    }
    expect(storableText("a\u0000b\ud800c\udc00")).toBe("a\uFFFDb\uFFFDc\uFFFD");
  });

  it("names the first field of a parsed body that holds one, keys included", () => {
    expect(unstorableField({ a: "x", b: [1, "y", { c: null }] })).toBeUndefined();
    expect(unstorableField({ a: "x", b: [1, "y", { c: "\u0000" }] })).toBe("b.2.c");
    expect(unstorableField({ "k\u0000": 1 })).toBe("k\u0000");
    expect(unstorableField("\ud800")).toBe("body");
    expect(unstorableField(42)).toBeUndefined();
    // nested far past the call stack's depth: walked, not recursed
    const deep = JSON.parse(`${"[".repeat(50_000)}"\\u0000"${"]".repeat(50_000)}`);
    expect(unstorableField({ a: deep })).toBe(`a${".0".repeat(50_000)}`);
  });
});
