import { describe, expect, it } from "vitest";
import { newRefId, REF_ID_PATTERN } from "../../src/supplier/ref-id.ts";

// kios's ref_id: "K" + a ULID, unique and in creation order, its random part from crypto

const ULID_REF = /^K[0-7][0-9A-HJKMNP-TV-Z]{25}$/;

describe("newRefId", () => {
  it("is unique and sorts as it was made, within one millisecond and across many", () => {
    const start = Date.UTC(2026, 11, 7);
    const ids = [
      ...Array.from({ length: 5_000 }, () => newRefId(start)),
      ...Array.from({ length: 5_000 }, (_, i) => newRefId(start + 1 + i)),
    ];
    for (const id of ids) {
      expect(id).toMatch(ULID_REF);
      expect(id).toMatch(REF_ID_PATTERN);
    }
    expect(new Set(ids).size).toBe(ids.length);
    expect([...ids].sort()).toEqual(ids);
  });

  it("draws every character of the alphabet in its random part, each about as often", () => {
    const seen = new Map<string, number>();
    const at = Date.UTC(2026, 11, 8);
    // a new millisecond each time: the monotonic generator draws a fresh random part
    for (let i = 0; i < 4_000; i++) {
      for (const ch of newRefId(at + i).slice(11)) seen.set(ch, (seen.get(ch) ?? 0) + 1);
    }
    expect(seen.size).toBe(32);
    // 64,000 draws: 2,000 expected per character; a biased byte mapping is far outside this
    for (const n of seen.values()) expect(Math.abs(n - 2_000)).toBeLessThan(300);
  });
});
