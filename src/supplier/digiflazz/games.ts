// Which of Digiflazz's prepaid items are games (docs/suppliers.md#games-at-digiflazz).
// Digiflazz has no game list: games are prepaid items, most in its category "Games", but a
// game's own currency is also sold under other categories (a publisher's shells under
// "Voucher", a region's top-ups under that region's category). kios sells a game where a
// buyer looks for one (the games menu, /harga's and the Mini App's Games, inline, H2H's
// type), so an item is a game when its category says so or its brand is a game's or a game
// publisher's. A store's voucher (Google Play, Steam) is not a game: it stays prepaid.

/** categories that hold games, compared lowercase with everything but letters removed */
const GAME_CATEGORIES: ReadonlySet<string> = new Set([
  "games",
  "game",
  "vouchergame",
  "gamevoucher",
  "topupgame",
  "gametopup",
]);

/**
 * brands of games and of game publishers' currencies, compared as GAME_CATEGORIES: a brand
 * that starts with one of these ("MOBILE LEGENDS MALAYSIA") is that game's
 */
const GAME_BRANDS: readonly string[] = [
  "mobilelegend",
  "mlbb",
  "freefire",
  "garena",
  "pubg",
  "genshinimpact",
  "honkai",
  "zenlesszonezero",
  "valorant",
  "honorofkings",
  "callofduty",
  "arenaofvalor",
  "wildrift",
  "leagueoflegends",
  "efootball",
  "sausageman",
  "stumbleguys",
  "supersus",
  "pointblank",
  "clashofclans",
  "clashroyale",
  "lordsmobile",
  "deltaforce",
  "bloodstrike",
  "magicchess",
  "ragnarok",
  "higgsdomino",
  "dominoisland",
  "roblox",
  "minecraft",
  "unipin",
  "metalslug",
  "eggyparty",
  "hayday",
  "growtopia",
];

const letters = (s: string) => s.toLowerCase().replace(/[^a-z]/g, "");

/** whether a Digiflazz prepaid item is a game, by its category or its brand */
export function isDigiflazzGame(item: {
  category?: string | undefined;
  brand?: string | undefined;
}): boolean {
  if (GAME_CATEGORIES.has(letters(item.category ?? ""))) return true;
  const brand = letters(item.brand ?? "");
  return brand !== "" && GAME_BRANDS.some((g) => brand.startsWith(g));
}
