import { describe, expect, it } from "vitest";
import { failureReasonText } from "../../../src/bot/reports/failure-reasons.ts";
import { brandName, categoryName } from "../../../src/bot/ui/catalogue-words.ts";
import { createI18n, LANGUAGES, translator } from "../../../src/bot/ui/i18n.ts";
import { BILL_KINDS, canonicalCategory } from "../../../src/commerce/catalogue/categories.ts";

// what the owner and the buyer read of the supplier's codes and capitals: words of the
// shop's language from the locale files, in each language (#38)

const missing: string[] = [];
const i18n = createI18n({ onMissing: (key, locale) => missing.push(`${locale}:${key}`) });
const id = translator(i18n, "id");
const en = translator(i18n, "en");

describe("failure reasons in /stats and the daily report", () => {
  it("names an answer code in words, never the code itself", () => {
    expect(failureReasonText(id, "ORDER_FAILED")).toBe("digagalkan supplier");
    expect(failureReasonText(en, "ORDER_FAILED")).toBe("the supplier failed the order");
    expect(failureReasonText(id, "BILL_PAYMENT_FAILED")).toBe("digagalkan supplier");
    expect(failureReasonText(id, "INSUFFICIENT_BALANCE")).toBe("saldo supplier kurang");
    expect(failureReasonText(en, "INVALID_CUSTOMER_NO")).toBe("destination number refused");
    for (const t of [id, en]) {
      for (const code of ["ORDER_FAILED", "PRODUCT_INACTIVE", "SERVER_ERROR", "unknown"]) {
        expect(failureReasonText(t, code)).not.toMatch(/[A-Z]{2,}_[A-Z]/);
      }
    }
  });

  it("names kios's own notes in words of the language, not in English", () => {
    expect(failureReasonText(id, "interrupted before it was sent to the supplier")).toBe(
      "tidak sampai ke supplier (terputus)",
    );
    expect(failureReasonText(id, "refunded by admin 42: the supplier has no record of it")).toBe(
      "dikembalikan oleh admin",
    );
    expect(failureReasonText(en, "the supplier has no record of this order")).toBe(
      "the supplier has no record of the order",
    );
  });

  it("shows a code kios does not know as the supplier's own, escaped", () => {
    expect(failureReasonText(id, "RC<40>")).toBe(
      "jawaban supplier lain (<code>RC&lt;40&gt;</code>)",
    );
    expect(failureReasonText(en, "40")).toBe("other supplier answer (<code>40</code>)");
  });
});

describe("bill kinds in the shop's words", () => {
  it("names each known bill kind as the shop writes it, in each language", () => {
    expect(categoryName(id, canonicalCategory("BPJS KESEHATAN"))).toBe("BPJS Kesehatan");
    expect(categoryName(en, canonicalCategory("bpjs kesehatan"))).toBe("BPJS Kesehatan");
    expect(categoryName(id, "PLN PASCABAYAR")).toBe("PLN Pascabayar");
    expect(categoryName(en, "PLN PASCABAYAR")).toBe("PLN Postpaid");
    expect(categoryName(id, "PDAM")).toBe("PDAM (air)");
    expect(categoryName(en, "HP PASCABAYAR")).toBe("Mobile postpaid");
  });

  it("has words for every bill kind of the catalogue, in every language", () => {
    for (const lang of LANGUAGES) {
      const t = translator(i18n, lang);
      for (const kind of BILL_KINDS) {
        const name = categoryName(t, kind);
        // not the supplier's capitals (PDAM, PBB and PGN are names that are capitals)
        expect(name, `${lang} ${kind}`).not.toBe(kind.includes(" ") ? kind : "-");
        expect(name).not.toMatch(/^bill-kind-/);
      }
    }
    expect(missing).toEqual([]);
  });

  it("names Digiflazz's categories and capitals in the shop's words", () => {
    expect(categoryName(id, canonicalCategory("E-MONEY"))).toBe("E-Wallet");
    expect(categoryName(en, canonicalCategory("GAMES"))).toBe("Game Voucher");
    expect(categoryName(id, canonicalCategory("Games"))).toBe("Voucher Game");
    expect(categoryName(en, canonicalCategory("PULSA"))).toBe("Airtime");
    expect(brandName("TELKOMSEL")).toBe("Telkomsel");
    expect(brandName("GO PAY")).toBe("GoPay");
    expect(brandName("BY.U")).toBe("by.U");
    expect(brandName("MOBILE LEGENDS")).toBe("Mobile Legends");
    expect(brandName("PLN PASCABAYAR")).toBe("PLN Pascabayar");
    expect(brandName("BPJS KESEHATAN")).toBe("BPJS Kesehatan");
    expect(brandName("STEAM WALLET")).toBe("Steam Wallet");
    // acronyms and a brand written in its own mixed case stay
    expect(brandName("PUBG")).toBe("PUBG");
    expect(brandName("DANA")).toBe("DANA");
    expect(brandName("Tsel")).toBe("Tsel");
  });

  it("leaves a kind it does not know as the supplier wrote it", () => {
    expect(categoryName(id, "Pulsa")).toBe("Pulsa");
    expect(categoryName(en, "ASURANSI")).toBe("ASURANSI");
  });
});
