import { describe, expect, it } from "vitest";
import {
  type CenterParse,
  type Keyword,
  numericCodesIn,
  parseCenterCommand,
  typedOrders,
} from "../../../src/commerce/center/commands.ts";

// the center's text grammar, every command and every refusal: a refusal is a clear error
// (nothing is ordered), and a text that is not in the format is left to the chat (undefined)

const aliases = new Map<string, Keyword>([
  ["SALDO", "SAL"],
  ["GANTI", "GP"],
]);

const ok = (command: unknown): CenterParse => ({ ok: true, command }) as CenterParse;
const bad = (e: object): CenterParse => ({ ok: false, ...e }) as CenterParse;

const table: [string, CenterParse | undefined][] = [
  // buy
  [
    "TSEL10.081234567890.1234",
    ok({ kind: "buy", lines: [{ code: "TSEL10", destination: "081234567890" }], pin: "1234" }),
  ],
  [
    "  tsel10.081234567890.123456  ",
    ok({ kind: "buy", lines: [{ code: "TSEL10", destination: "081234567890" }], pin: "123456" }),
  ],
  [
    "TSEL10.2.081234567890.1234",
    ok({
      kind: "buy",
      lines: [{ code: "TSEL10", destination: "081234567890", nth: 2 }],
      pin: "1234",
    }),
  ],
  [
    "TSEL10.081234567890.1234 R#A1",
    ok({
      kind: "buy",
      lines: [{ code: "TSEL10", destination: "081234567890", ref: "A1" }],
      pin: "1234",
    }),
  ],
  [
    "TSEL10.081234567890.1234 r#trx-77",
    ok({
      kind: "buy",
      lines: [{ code: "TSEL10", destination: "081234567890", ref: "trx-77" }],
      pin: "1234",
    }),
  ],
  [
    "TSEL10.081234567890 R#A1,XL5.3.081299990000.1234 R#A2",
    ok({
      kind: "buy",
      lines: [
        { code: "TSEL10", destination: "081234567890", ref: "A1" },
        { code: "XL5", destination: "081299990000", nth: 3, ref: "A2" },
      ],
      pin: "1234",
    }),
  ],
  [
    "TSEL10.081234567890,TSEL10.081234567891.1234",
    ok({
      kind: "buy",
      lines: [
        { code: "TSEL10", destination: "081234567890" },
        { code: "TSEL10", destination: "081234567891" },
      ],
      pin: "1234",
    }),
  ],
  // keywords
  ["S.1234", ok({ kind: "balance", pin: "1234" })],
  ["sal.1234", ok({ kind: "balance", pin: "1234" })],
  ["SALDO.1234", ok({ kind: "balance", pin: "1234" })],
  ["H.TSEL10.1234", ok({ kind: "price", code: "TSEL10", pin: "1234" })],
  ["CEK.081234567890.1234", ok({ kind: "check", destination: "081234567890", pin: "1234" })],
  ["STA.A1.1234", ok({ kind: "status", ref: "A1", pin: "1234" })],
  ["REKAP.1234", ok({ kind: "recap", pin: "1234" })],
  ["REKAP.01-12-2026.1234", ok({ kind: "recap", day: { y: 2026, m: 12, d: 1 }, pin: "1234" })],
  ["TIKET.100000.1234", ok({ kind: "ticket", amount: 100_000, pin: "1234" })],
  ["GP.1234.567890", ok({ kind: "change_pin", current: "1234", next: "567890" })],
  ["GANTI.1234.5678", ok({ kind: "change_pin", current: "1234", next: "5678" })],
  ["TRANS.555001.50000.1234", ok({ kind: "transfer", to: "555001", amount: 50_000, pin: "1234" })],
  ["trans.@sari.50000.1234", ok({ kind: "transfer", to: "@sari", amount: 50_000, pin: "1234" })],
  // bad input: a clear error
  ["SALX.1234", bad({ error: "unknown_keyword", word: "SALX" })],
  ["S.12", bad({ error: "pin_format" })],
  ["S.1234567", bad({ error: "pin_format" })],
  ["S.abcd", bad({ error: "pin_format" })],
  ["S.9.1234", bad({ error: "format", keyword: "S" })],
  ["H.1234", bad({ error: "format", keyword: "H" })],
  ["REKAP.31-02-2026.1234", bad({ error: "format", keyword: "REKAP" })],
  ["REKAP.2026-12-01.1234", bad({ error: "format", keyword: "REKAP" })],
  ["TIKET.seratus.1234", bad({ error: "format", keyword: "TIKET" })],
  ["TRANS.555001.1234", bad({ error: "format", keyword: "TRANS" })],
  ["GP.1234.56", bad({ error: "pin_format" })],
  ["GP.1234", bad({ error: "format", keyword: "GP" })],
  ["S.1234 R#A1", bad({ error: "format", keyword: "S" })],
  ["TSEL10.081234567890.1234,XL5.081299990000.1234", bad({ error: "pin_only_last" })],
  ["TSEL10.0812345678.1234 R#A1,XL5.0812999900.1234 R#A1", bad({ error: "pin_only_last" })],
  ["TSEL10.0812345678 R#A1,XL5.0812999900.1234 R#A1", bad({ error: "ref_repeated", ref: "A1" })],
  ["T.081234567890.1234", bad({ error: "format", keyword: "buy" })],
  ["TSEL10.081.1234", bad({ error: "format", keyword: "buy" })],
  ["TSEL10.1.2.0812345678.1234", bad({ error: "format", keyword: "buy" })],
  [
    `${Array.from({ length: 11 }, (_, i) => `TSEL10.08123456789${i % 10}`).join(",")}.1234`,
    bad({ error: "too_many", max: 10 }),
  ],
  // not a center command: the chat's quick order and other texts take these
  ["TSEL10.081234567890", undefined],
  ["TSEL10.2.081234567890", undefined],
  // a quick order to a short (wrong) number, not a PIN: the quick order says what is wrong
  ["TSEL10.0812", undefined],
  ["PLN20.123456", undefined],
  ["TSEL10 081234567890", undefined],
  ["halo kak, pulsa 10rb ya", undefined],
  ["/start", undefined],
  ["081234567890", undefined],
  ["1234", undefined],
  // a number typed with dots (the Pulsa flow and the meter's take them): no product code is
  // all digits, unless the shop sells one (below), so these are the flow's answer
  ["0812.3456.7890", undefined],
  ["0812.3456.78901", undefined],
  ["5321.0000.0012", undefined],
  ["0812.3456.7890 R#A1", undefined],
  ["0812.3456,0812.3456.7890", undefined],
  ["0812.2.3456.7890", undefined],
  // after a real order the dotted number is a bad line of a command
  ["TSEL10.081234567890,0812.3456.7890", bad({ error: "format", keyword: "buy" })],
];

describe("the center's text grammar", () => {
  it.each(table)("%s", (text, want) => {
    expect(parseCenterCommand(text, aliases)).toEqual(want);
  });

  it("an all-digit code is a product's only when the shop sells it (and no flow waits)", () => {
    const numericCodes = new Set(["12345"]);
    expect(parseCenterCommand("12345.081234567890.1234", aliases, { numericCodes })).toEqual(
      ok({ kind: "buy", lines: [{ code: "12345", destination: "081234567890" }], pin: "1234" }),
    );
    expect(parseCenterCommand("12345.081234567890.1234", aliases)).toBeUndefined();
    expect(parseCenterCommand("0812.3456.7890", aliases, { numericCodes })).toBeUndefined();
    expect(numericCodesIn("0812.3456.7890 R#A1,TSEL10.0812345678,12345.0812.1234")).toEqual([
      "0812",
      "12345",
    ]);
  });

  it("an order text's orders as typed (for a refusal's answers), never with the PIN", () => {
    expect(typedOrders("TSEL10.081234567890.1234 R#A1")).toEqual([
      { product: "TSEL10", dest: "081234567890", ref: "A1" },
    ]);
    expect(typedOrders("tsel10.081.1234")).toEqual([{ product: "TSEL10", dest: "081" }]);
    expect(typedOrders("TSEL10.081234567890.1234 R#A1,XL5.2.081299990000.1234 R#A2")).toEqual([
      { product: "TSEL10", dest: "081234567890", ref: "A1" },
      { product: "XL5", dest: "081299990000", ref: "A2" },
    ]);
    expect(typedOrders("TSEL10.2.0812345678,TSEL10.1.2.0812345679.1234")).toEqual([
      { product: "TSEL10", dest: "0812345678" },
      { product: "TSEL10", dest: "0812345679" },
    ]);
    // a destination that is the PIN itself is not repeated back
    expect(typedOrders("TSEL10.1234.1234")).toEqual([{ product: "TSEL10", dest: "-" }]);
    expect(typedOrders("TSEL10.1234")).toEqual([{ product: "TSEL10", dest: "-" }]);
  });

  it("an alias is the owner's only: without it the word is unknown", () => {
    expect(parseCenterCommand("SALDO.1234")).toEqual(
      bad({ error: "unknown_keyword", word: "SALDO" }),
    );
  });
});
