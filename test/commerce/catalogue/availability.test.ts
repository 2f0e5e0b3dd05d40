import { describe, expect, it } from "vitest";
import { closureOf } from "../../../src/commerce/catalogue/availability.ts";

// a product's hours: its daily cut-off window in WIB (UTC+7) and kios's pauses

/** 2026-11-23 at HH:MM WIB, as Unix ms */
const wib = (hhmm: string, day = 23) => {
  const [h, m] = hhmm.split(":").map(Number) as [number, number];
  return Date.UTC(2026, 10, day, h - 7, m);
};
const hours = (start: string | null, end: string | null, pausedUntil: number | null = null) => ({
  startCutOff: start,
  endCutOff: end,
  pausedUntil: pausedUntil === null ? null : new Date(pausedUntil),
});

describe("product availability", () => {
  it("is open outside its window and closed inside it until the window's end", () => {
    const p = hours("23:00", "23:30");
    expect(closureOf(p, wib("22:59"))).toBeUndefined();
    expect(closureOf(p, wib("23:00"))).toEqual({ reason: "cut_off", until: wib("23:30") });
    expect(closureOf(p, wib("23:29"))).toEqual({ reason: "cut_off", until: wib("23:30") });
    expect(closureOf(p, wib("23:30"))).toBeUndefined();
  });

  it("a window across midnight closes until the next day's end when entered before midnight", () => {
    const p = hours("23:45", "00:15");
    expect(closureOf(p, wib("23:44"))).toBeUndefined();
    expect(closureOf(p, wib("23:50"))).toEqual({ reason: "cut_off", until: wib("00:15", 24) });
    expect(closureOf(p, wib("00:10", 24))).toEqual({ reason: "cut_off", until: wib("00:15", 24) });
    expect(closureOf(p, wib("00:15", 24))).toBeUndefined();
  });

  it("ignores a missing, malformed or empty window", () => {
    for (const [s, e] of [
      [null, "00:15"],
      ["23:45", null],
      ["25:00", "01:00"],
      ["soon", "later"],
      ["10:00", "10:00"],
    ] as const) {
      expect(closureOf(hours(s, e), wib("10:00")), `${s}-${e}`).toBeUndefined();
    }
  });

  it("a pause closes it until the pause ends; with both, until the later", () => {
    expect(closureOf(hours(null, null, wib("12:00")), wib("11:00"))).toEqual({
      reason: "paused",
      until: wib("12:00"),
    });
    expect(closureOf(hours(null, null, wib("12:00")), wib("12:00"))).toBeUndefined();
    expect(closureOf(hours("23:00", "23:30", wib("23:10")), wib("23:05"))).toEqual({
      reason: "cut_off",
      until: wib("23:30"),
    });
    expect(closureOf(hours("23:00", "23:30", wib("23:50")), wib("23:05"))).toEqual({
      reason: "paused",
      until: wib("23:50"),
    });
  });
});
