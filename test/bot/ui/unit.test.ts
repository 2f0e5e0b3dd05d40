import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { parseCustomerNo } from "../../../src/bot/bills/flow.ts";
import { needsZone, parseGameId, parseZone } from "../../../src/bot/purchase/games.ts";
import { parsePhone } from "../../../src/bot/purchase/pulsa-data.ts";
import { conversationVersion } from "../../../src/bot/storage/chat-state.ts";
import { parsePercentBp, parseSignedRupiah } from "../../../src/bot/ui/args.ts";
import { CB, cb, cbInt, MAX_CALLBACK_BYTES, parseCb } from "../../../src/bot/ui/callback-data.ts";
import {
  escapeHtml,
  groupDigits,
  parseAmount,
  parsePlnToken,
  rupiah,
  wibDateTime,
  wibTime,
} from "../../../src/bot/ui/format.ts";
import { createI18n, LOCALES_DIR, translator } from "../../../src/bot/ui/i18n.ts";
import { orderCard, orderMessage } from "../../../src/bot/ui/order-card.ts";
import { parseQuickOrder } from "../../../src/commerce/orders/quick-order.ts";
import type { Order } from "../../../src/commerce/orders/types.ts";

describe("rupiah and amounts", () => {
  it("writes rupiah with dots", () => {
    expect(rupiah(10_000)).toBe("Rp10.000");
    expect(rupiah(0)).toBe("Rp0");
    expect(rupiah(999)).toBe("Rp999");
    expect(rupiah(1_234_567)).toBe("Rp1.234.567");
    expect(rupiah(-5_400)).toBe("-Rp5.400");
  });

  it("reads amounts as people type them", () => {
    expect(parseAmount("50000")).toBe(50_000);
    expect(parseAmount("50.000")).toBe(50_000);
    expect(parseAmount("Rp 150.000")).toBe(150_000);
    expect(parseAmount("50rb")).toBe(50_000);
    expect(parseAmount("50k")).toBe(50_000);
    expect(parseAmount("1jt")).toBe(1_000_000);
    expect(parseAmount("0")).toBeUndefined();
    expect(parseAmount("lima puluh")).toBeUndefined();
    expect(parseAmount("5.00")).toBeUndefined();
    expect(parseAmount("-100")).toBeUndefined();
  });

  it("admin arguments: percentages in basis points, signed rupiah", () => {
    expect(parsePercentBp("1.5")).toBe(150);
    expect(parsePercentBp("2,25%")).toBe(225);
    expect(parsePercentBp("-1")).toBe(-100);
    expect(parsePercentBp("abc")).toBeUndefined();
    expect(parseSignedRupiah("-200")).toBe(-200);
    expect(parseSignedRupiah("1.000")).toBe(1000);
    expect(parseSignedRupiah("1,5")).toBeUndefined();
  });
});

describe("tokens, times, html", () => {
  it("groups a PLN token in fours and reads its details", () => {
    expect(groupDigits("12345678901234567890")).toBe("1234 5678 9012 3456 7890");
    expect(parsePlnToken("12345678901234567890/BUDI SANTOSO/R1/1300/32.5")).toEqual({
      token: "1234 5678 9012 3456 7890",
      name: "BUDI SANTOSO",
      tarif: "R1",
      daya: "1300",
      kwh: "32.5",
    });
    expect(parsePlnToken("1234-5678-9012-3456-7890")).toMatchObject({
      token: "1234 5678 9012 3456 7890",
    });
    expect(parsePlnToken("ABCD-1234")).toBeUndefined();
  });

  it("shows times in WIB", () => {
    const t = Date.UTC(2025, 0, 31, 17, 5);
    expect(wibTime(t)).toBe("00:05 WIB");
    expect(wibDateTime(t)).toBe("01/02/2025 00:05 WIB");
  });

  it("escapes what Telegram HTML treats as markup", () => {
    expect(escapeHtml("<b>A & B</b>")).toBe("&lt;b&gt;A &amp; B&lt;/b&gt;");
  });
});

describe("inputs of the flows", () => {
  it("phones: normalised to 08…, only known operators", () => {
    expect(parsePhone("+62 812-3456-7890")).toBe("081234567890");
    expect(parsePhone("6285712345678")).toBe("085712345678");
    expect(parsePhone("08001234567")).toBeUndefined();
    expect(parsePhone("hello")).toBeUndefined();
  });

  it("game ids, zones, customer numbers", () => {
    expect(parseGameId("12345678")).toBe("12345678");
    expect(parseGameId("12 3")).toBeUndefined();
    expect(parseZone("(2001)")).toBe("2001");
    expect(parseZone("zona")).toBeUndefined();
    expect(needsZone("MOBILE LEGENDS")).toBe(true);
    expect(needsZone("FREE FIRE")).toBe(false);
    expect(parseCustomerNo("5321 0000 0012")).toBe("532100000012");
    expect(parseCustomerNo("12")).toBeUndefined();
  });

  it("quick orders: CODE.DESTINATION and CODE DESTINATION", () => {
    expect(parseQuickOrder("TSEL10.081234567890")).toEqual({
      code: "TSEL10",
      destination: "081234567890",
    });
    expect(parseQuickOrder("pln20 12345678901")).toEqual({
      code: "pln20",
      destination: "12345678901",
    });
    expect(parseQuickOrder("apa kabar kamu hari ini")).toBeUndefined();
  });
});

describe("callback data", () => {
  it("builds short data and refuses what would exceed 64 bytes or carry odd characters", () => {
    expect(cb(CB.pay, "AbC-_123")).toBe("pay:AbC-_123");
    expect(parseCb("ho:12:3")).toEqual({ prefix: "ho", parts: ["12", "3"] });
    expect(() => cb(CB.pay, "x".repeat(MAX_CALLBACK_BYTES))).toThrow(/exceeds 64/);
    expect(() => cb(CB.pay, "name with spaces")).toThrow(/short-safe/);
    expect(cbInt("42")).toBe(42);
    expect(cbInt("4x")).toBeUndefined();
    expect(cbInt(undefined)).toBeUndefined();
  });

  it("every prefix is distinct", () => {
    const prefixes = Object.values(CB);
    expect(new Set(prefixes).size).toBe(prefixes.length);
  });
});

describe("locales", () => {
  const keys = (file: string) =>
    readFileSync(join(LOCALES_DIR, file), "utf8")
      .split("\n")
      .map((l) => /^([a-z][a-z0-9-]*) =/.exec(l)?.[1])
      .filter((k): k is string => k !== undefined)
      .sort();

  it("Indonesian and English have the same keys", () => {
    expect(keys("en.ftl")).toEqual(keys("id.ftl"));
    expect(keys("id.ftl").length).toBeGreaterThan(150);
  });

  /** each message's variables ({ $name }), from its first line and its indented ones */
  const variables = (file: string) => {
    const out = new Map<string, Set<string>>();
    let current: string | undefined;
    for (const line of readFileSync(join(LOCALES_DIR, file), "utf8").split("\n")) {
      const head = /^([a-z][a-z0-9-]*) =/.exec(line);
      if (head) current = head[1];
      else if (!/^\s+\S/.test(line)) current = undefined;
      if (!current) continue;
      const vars = out.get(current) ?? new Set<string>();
      for (const m of line.matchAll(/\{ \$([a-z]+) \}/g)) vars.add(m[1]!);
      // a select's selector ({ $status -> … }): given, though a branch need not show it
      for (const m of line.matchAll(/\{ \$([a-z]+) ->/g)) vars.add(`${m[1]!}?`);
      out.set(current, vars);
    }
    return out;
  };

  it("every literal key in src/bot exists in the locales", () => {
    const known = new Set(keys("id.ftl"));
    // src/bot: the locales sit in src/bot/ui/locales
    const dir = join(LOCALES_DIR, "..", "..");
    const files = readdirSync(dir, { recursive: true })
      .map(String)
      .filter((f) => f.endsWith(".ts"));
    const used = new Set<string>();
    for (const f of files) {
      for (const m of readFileSync(join(dir, f), "utf8").matchAll(/\bt\(\s*"([a-z0-9-]+)"/g))
        used.add(m[1]!);
    }
    expect(used.size).toBeGreaterThan(100);
    expect([...used].filter((k) => !known.has(k))).toEqual([]);
    // keys built at run time
    for (const k of [
      "admin-credit-done",
      "admin-debit-done",
      "admin-credit-usage",
      "admin-debit-usage",
      "wallet-credited",
      "wallet-debited",
      "deposit-admin-expired",
      "deposit-admin-already",
      "deposit-status-requested",
      "deposit-status-confirmed",
      "deposit-status-rejected",
      "deposit-status-expired",
      "admin-stats-today",
      "admin-stats-week",
      "push-success",
      "push-failed",
      ...["pulsa", "pln", "ewallet", "game", "bill", "saldo", "history", "help"].map(
        (e) => `menu-${e}`,
      ),
      ...["start", "saldo", "deposit", "riwayat", "harga", "status", "lang", "help", "cancel"].map(
        (c) => `cmd-${c}`,
      ),
      ...[
        "balance",
        "sync",
        "credit",
        "debit",
        "role",
        "markup",
        "stats",
        "pending",
        "broadcast",
        "user",
      ].map((c) => `cmd-${c}`),
    ]) {
      expect(known.has(k), k).toBe(true);
    }
  });

  it("both languages use the same variables in each message", () => {
    const id = variables("id.ftl");
    const en = variables("en.ftl");
    for (const [key, vars] of id)
      expect([...(en.get(key) ?? [])].sort(), key).toEqual([...vars].sort());
  });

  it("every message formats in both languages", () => {
    const missing: string[] = [];
    const i18n = createI18n({ onMissing: (k, l) => missing.push(`${l}:${k}`) });
    for (const lang of ["id", "en"]) {
      const t = translator(i18n, lang);
      for (const [key, vars] of variables(`${lang}.ftl`)) {
        const given = Object.fromEntries(
          [...vars].map((v) => [v.replace("?", ""), `<${v.replace("?", "")}>`]),
        );
        const text = t(key, given);
        expect(text.length, key).toBeGreaterThan(0);
        for (const v of vars) if (!v.endsWith("?")) expect(text, key).toContain(`<${v}>`);
      }
    }
    expect(missing).toEqual([]);
    // an unknown language falls back to Indonesian
    expect(translator(i18n, "fr")("cancelled")).toBe("Dibatalkan.");
  });
});

describe("conversation storage version", () => {
  it("changes with the code of the flows and with the salt", () => {
    const a = () => 1;
    const b = () => 2;
    expect(conversationVersion([a])).toBe(conversationVersion([a]));
    expect(conversationVersion([a])).not.toBe(conversationVersion([b]));
    expect(conversationVersion([a], 1)).not.toBe(conversationVersion([a], 2));
  });
});

describe("the order message's reason for a failure", () => {
  const t = translator(createI18n(), "id");
  const failed = (over: Partial<Order>): Order => ({
    id: 1,
    refId: "K01TEST",
    confirmKey: "q",
    userId: 1,
    chatId: 1,
    messageId: null,
    kind: "prepaid",
    productCode: "TSEL10",
    productName: "Telkomsel 10.000",
    destination: "081234567890",
    price: 10_400,
    cost: 10_300,
    margins: [],
    status: "failed",
    testing: false,
    inquiryId: null,
    billKey: null,
    bill: null,
    requestTimestamp: null,
    supplier: null,
    routeCode: null,
    decision: null,
    decidedBy: null,
    decidedAt: null,
    lockHolder: null,
    lockUntil: null,
    sn: null,
    supplierCode: null,
    supplierMessage: null,
    failureReason: null,
    supplierPrice: null,
    checks: 0,
    nextCheckAt: null,
    flaggedAt: null,
    createdAt: new Date(0),
    submittedAt: null,
    finalAt: null,
    updatedAt: new Date(0),
    ...over,
  });

  it("never shows kios's own technical explanation of a refusal", () => {
    const text = orderMessage(
      t,
      failed({
        supplierCode: "INSUFFICIENT_BALANCE",
        failureReason: "the supplier account balance is too low for this purchase",
      }),
    );
    expect(text).toContain("Alasan: layanan supplier sedang terganggu; coba lagi nanti");
    expect(text).not.toContain("supplier account balance");
  });

  it("says the destination was not valid, in the buyer's language", () => {
    const en = translator(createI18n(), "en");
    expect(orderMessage(en, failed({ supplierCode: "INVALID_CUSTOMER_NO" }))).toContain(
      "Reason: the destination number is not valid for this product",
    );
  });

  it("says a supplier's failure in the buyer's language only, never the supplier's words", () => {
    const text = orderMessage(
      t,
      failed({
        supplierCode: "ORDER_FAILED",
        supplierMessage: "order failed; the balance was refunded",
      }),
    );
    expect(text).toContain("Alasan: supplier tidak dapat memproses pesanan ini");
    expect(text).not.toContain("order failed; the balance was refunded");
    expect(text).not.toContain("catatan supplier");
    const en = orderMessage(
      translator(createI18n(), "en"),
      failed({ supplierCode: "02", supplierMessage: "" }),
    );
    expect(en).toContain("Reason: the supplier could not process this order");
  });

  it("a bill whose window closed before the payment arrived: nothing charged, inquire again", () => {
    for (const code of ["INQUIRY_EXPIRED", "INQUIRY_NOT_FOUND", "INQUIRY_MISMATCH"]) {
      const card = orderCard(t, failed({ kind: "bill", supplierCode: code, confirmKey: "Qk1" }));
      expect(card.text).toMatch(/Tidak ada saldo yang dipotong/);
      expect(card.text).not.toMatch(/Gagal/);
      expect(card.keyboard?.inline_keyboard.flat().map((b) => b.text)).toEqual([
        "🔄 Cek ulang tagihan",
      ]);
    }
    // any other failure of a bill is a failure, with its refund
    const other = orderCard(t, failed({ kind: "bill", supplierCode: "BILL_PAYMENT_FAILED" }));
    expect(other.text).toMatch(/^❌ <b>Gagal<\/b>/);
    expect(other.keyboard).toBeUndefined();
  });
});
