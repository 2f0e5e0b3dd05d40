import { describe, expect, it } from "vitest";
import { isDigiflazzGame } from "../../../src/supplier/digiflazz/games.ts";

// which of Digiflazz's prepaid items kios sells as games: by category, else by the game's brand

describe("Digiflazz games by category or brand", () => {
  it.each([
    ["Games", "MOBILE LEGENDS", true],
    ["GAMES", "HIGGS DOMINO", true],
    ["Voucher Game", "ANY", true],
    ["Voucher", "GARENA", true],
    ["Malaysia TOPUP", "MOBILE LEGENDS MALAYSIA", true],
    ["Voucher", "Free Fire", true],
    ["Voucher", "GOOGLE PLAY INDONESIA", false],
    ["Voucher", "STEAM WALLET (IDR)", false],
    ["Pulsa", "TELKOMSEL", false],
    ["E-Money", "DANA", false],
    ["", "", false],
  ])("%s / %s → %s", (category, brand, game) => {
    expect(isDigiflazzGame({ category, brand })).toBe(game);
  });
});
