import { hashString, type Rng, rngFor } from "./rng.ts";
import { thousands } from "./time.ts";
import type { CatalogueVariant, ProductType, WireProduct } from "./types.ts";

// a generated catalogue that looks like an Indonesian supplier's: operators' pulsa and data
// packages, PLN tokens, e-wallets, game currencies and postpaid bills. Codes and names are
// the same for every seed; prices, the inactive few and nothing else vary with it.

type BillKind = "pln" | "bpjs" | "pdam" | "telkom" | "mobile" | "pbb" | "multifinance";
type Family = "pulsa" | "data" | "pln" | "emoney" | "game" | "bill";

export interface CatalogueEntry {
  product: WireProduct;
  family: Family;
  /** face value in rupiah (pulsa, PLN tokens, e-money) */
  denomination?: number;
  billKind?: BillKind;
  /** city or region, for bills that carry an address */
  region?: string;
}

export interface Catalogue {
  all: readonly WireProduct[];
  byType: Readonly<Record<ProductType, readonly WireProduct[]>>;
  get(code: string): CatalogueEntry | undefined;
}

/** codes a test or demo can rely on, whatever the seed */
export const SANDBOX_PRODUCT_CODES = {
  pulsa: ["TSEL5", "TSEL10", "TSEL50", "ISAT10", "XL25", "AXIS10", "TRI10", "SMART10", "BYU10"],
  data: ["TSELD10GB30", "TSELD1GB1", "ISATD5GB7", "XLD20GB30", "BYUD3GB3"],
  pln: ["PLN20", "PLN50", "PLN100"],
  emoney: ["GOPAY50", "OVO50", "DANA25", "SHOPEE100", "LINKAJA50"],
  game: ["ML86", "ML172", "FF140", "PUBG60", "GI60", "VAL125", "HOK80", "CODM31"],
  pasca: ["PLNPOST", "BPJS", "PDAMSBY", "TELKOM", "INDIHOME", "HALO", "PBBSBY", "ADIRA"],
  /** always inactive: PRODUCT_INACTIVE */
  inactive: ["ISAT1000", "PUBG16200", "PDAMAMB"],
  /** carry start_cut_off "23:45" and end_cut_off "00:15" */
  cutOff: ["LINKAJA50", "LINKAJA100"],
} as const;

const ALWAYS_ACTIVE = new Set<string>(
  Object.entries(SANDBOX_PRODUCT_CODES)
    .filter(([group]) => group !== "inactive")
    .flatMap(([, codes]) => codes),
);
const ALWAYS_INACTIVE = new Set<string>(SANDBOX_PRODUCT_CODES.inactive);
const INACTIVE_SHARE = 0.03;

/** prices end in 25s, like a supplier's */
function round25(n: number): number {
  return Math.max(25, Math.round(n / 25) * 25);
}

function jitter(rng: Rng, spread: number): number {
  return 1 + (rng() * 2 - 1) * spread;
}

// ---- operators: pulsa and data ----

const OPERATORS = [
  { brand: "TELKOMSEL", prefix: "TSEL", label: "Telkomsel", fee: 300, data: 1.15 },
  { brand: "INDOSAT", prefix: "ISAT", label: "Indosat", fee: 200, data: 1.0 },
  { brand: "XL", prefix: "XL", label: "XL", fee: 225, data: 1.0 },
  { brand: "AXIS", prefix: "AXIS", label: "Axis", fee: 175, data: 0.85 },
  { brand: "TRI", prefix: "TRI", label: "Tri", fee: 150, data: 0.85 },
  { brand: "SMARTFREN", prefix: "SMART", label: "Smartfren", fee: 175, data: 0.9 },
  { brand: "BY.U", prefix: "BYU", label: "by.U", fee: 250, data: 0.95 },
] as const;

const PULSA_THOUSANDS = [
  1, 2, 3, 5, 10, 15, 20, 25, 30, 40, 50, 60, 70, 75, 80, 90, 100, 125, 150, 200, 250, 300, 500,
  1000,
];

const QUOTAS = [
  { gb: 0.5, label: "500MB" },
  { gb: 0.75, label: "750MB" },
  ...[1, 2, 3, 4, 5, 6, 8, 10, 12, 15, 18, 20, 25, 30, 35, 40, 50, 60, 75, 100, 150].map((gb) => ({
    gb,
    label: `${gb}GB`,
  })),
];

/** which quotas a validity period is sold with: [smallest, largest] in GB */
const VALIDITY: Record<number, [number, number]> = {
  1: [0.5, 3],
  3: [0.5, 6],
  5: [0.75, 8],
  7: [1, 15],
  14: [3, 30],
  30: [1, 150],
};
const COMBO_MINUTES: Record<number, number> = { 1: 20, 3: 50, 5: 60, 7: 100, 14: 150, 30: 300 };

const DATA_LINES = [
  {
    key: "D",
    factor: 1,
    name: (op: string, q: string, d: number) => `${op} Data ${q} ${d} Hari`,
    desc: (q: string, d: number) => `Kuota ${q} 24 jam di semua jaringan, berlaku ${d} hari.`,
  },
  {
    key: "C",
    factor: 1.15,
    name: (op: string, q: string, d: number) =>
      `${op} Combo ${q} + ${COMBO_MINUTES[d]} Menit ${d} Hari`,
    desc: (q: string, d: number) =>
      `Kuota ${q} dan ${COMBO_MINUTES[d]} menit nelpon ke sesama operator, berlaku ${d} hari.`,
  },
  {
    key: "N",
    factor: 0.5,
    name: (op: string, q: string, d: number) => `${op} Data Malam ${q} ${d} Hari`,
    desc: (q: string, d: number) => `Kuota malam ${q} (00.00–06.00 WIB), berlaku ${d} hari.`,
  },
  {
    key: "L",
    factor: 0.75,
    name: (op: string, q: string, d: number) => `${op} Data Lokal ${q} ${d} Hari`,
    desc: (q: string, d: number) =>
      `Kuota ${q} khusus zona lokal sesuai lokasi pelanggan, berlaku ${d} hari.`,
  },
  {
    key: "A",
    factor: 0.6,
    name: (op: string, q: string, d: number) => `${op} Data Apps ${q} ${d} Hari`,
    desc: (q: string, d: number) =>
      `Kuota aplikasi ${q} untuk YouTube, TikTok, Instagram dan WhatsApp, berlaku ${d} hari.`,
  },
  {
    key: "U",
    factor: 1.3,
    name: (op: string, q: string, d: number) => `${op} Data Unlimited ${q} ${d} Hari`,
    desc: (q: string, d: number) =>
      `Unlimited YouTube, WhatsApp dan Instagram plus kuota utama ${q}, berlaku ${d} hari.`,
  },
] as const;

// ---- e-money ----

const WALLETS = [
  { brand: "GOPAY", prefix: "GOPAY", label: "GoPay", admin: 1000 },
  { brand: "OVO", prefix: "OVO", label: "OVO", admin: 1250 },
  { brand: "DANA", prefix: "DANA", label: "DANA", admin: 1000 },
  { brand: "SHOPEEPAY", prefix: "SHOPEE", label: "ShopeePay", admin: 1100 },
  { brand: "LINKAJA", prefix: "LINKAJA", label: "LinkAja", admin: 1250 },
] as const;

function walletThousands(): number[] {
  const out: number[] = [];
  for (let k = 10; k <= 500; k += 5) out.push(k);
  out.push(600, 700, 750, 800, 900, 1000);
  return out;
}

// ---- games ----

interface Game {
  brand: string;
  prefix: string;
  label: string;
  unit: string;
  /** rupiah per unit for the smallest packs */
  unitPrice: number;
  amounts: number[];
  /** packs that are not a plain amount */
  passes?: { code: string; name: string; price: number }[];
  idHint: string;
}

const PLAYER_ID = "Isi Player ID (angka).";
const GAMES: Game[] = [
  {
    brand: "MOBILE LEGENDS",
    prefix: "ML",
    label: "Mobile Legends",
    unit: "Diamonds",
    unitPrice: 265,
    amounts: [
      3, 5, 12, 14, 19, 28, 33, 36, 42, 44, 56, 59, 70, 74, 85, 86, 110, 113, 140, 148, 170, 172,
      184, 220, 222, 240, 257, 277, 284, 296, 326, 344, 355, 366, 370, 408, 429, 444, 514, 568, 600,
      706, 716, 750, 800, 875, 878, 963, 1050, 1135, 1159, 1220, 1412, 1506, 1708, 2010, 2195, 2500,
      2901, 3688, 4394, 4830, 5532, 6042, 9288,
    ],
    passes: [
      { code: "MLWDP", name: "Mobile Legends Weekly Diamond Pass", price: 27_500 },
      { code: "MLTP", name: "Mobile Legends Twilight Pass", price: 142_000 },
    ],
    idHint: "Isi User ID dan Zone ID, contoh 123456789(2001).",
  },
  {
    brand: "FREE FIRE",
    prefix: "FF",
    label: "Free Fire",
    unit: "Diamonds",
    unitPrice: 136,
    amounts: [
      5, 12, 50, 70, 100, 140, 210, 280, 355, 425, 500, 635, 720, 860, 1000, 1075, 1450, 2000, 2180,
      3640, 7290,
    ],
    passes: [
      { code: "FFMM", name: "Free Fire Membership Mingguan", price: 29_000 },
      { code: "FFMB", name: "Free Fire Membership Bulanan", price: 86_000 },
    ],
    idHint: PLAYER_ID,
  },
  {
    brand: "PUBG MOBILE",
    prefix: "PUBG",
    label: "PUBG Mobile",
    unit: "UC",
    unitPrice: 240,
    amounts: [30, 60, 120, 180, 240, 300, 325, 360, 600, 660, 720, 985, 1800, 3850, 8100, 16200],
    passes: [{ code: "PUBGRP", name: "PUBG Mobile Royale Pass Elite", price: 145_000 }],
    idHint: PLAYER_ID,
  },
  {
    brand: "GENSHIN IMPACT",
    prefix: "GI",
    label: "Genshin Impact",
    unit: "Genesis Crystals",
    unitPrice: 265,
    amounts: [60, 300, 980, 1980, 3280, 6480],
    passes: [
      { code: "GIWELKIN", name: "Genshin Impact Blessing of the Welkin Moon", price: 65_000 },
    ],
    idHint: "Isi UID dan server (Asia/America/Europe/TW).",
  },
  {
    brand: "VALORANT",
    prefix: "VAL",
    label: "Valorant",
    unit: "Points",
    unitPrice: 118,
    amounts: [125, 420, 700, 1375, 2400, 4000, 8150],
    idHint: "Isi Riot ID (angka).",
  },
  {
    brand: "HONOR OF KINGS",
    prefix: "HOK",
    label: "Honor of Kings",
    unit: "Tokens",
    unitPrice: 190,
    amounts: [16, 80, 240, 400, 560, 800, 1200, 2400, 4000, 8000],
    passes: [{ code: "HOKWEEK", name: "Honor of Kings Weekly Card", price: 15_500 }],
    idHint: PLAYER_ID,
  },
  {
    brand: "CALL OF DUTY MOBILE",
    prefix: "CODM",
    label: "Call of Duty Mobile",
    unit: "CP",
    unitPrice: 160,
    amounts: [31, 63, 128, 321, 645, 1373, 2059, 3564, 7656],
    idHint: "Isi Open ID.",
  },
  {
    brand: "HONKAI STAR RAIL",
    prefix: "HSR",
    label: "Honkai Star Rail",
    unit: "Oneiric Shards",
    unitPrice: 265,
    amounts: [60, 300, 980, 1980, 3280, 6480],
    passes: [{ code: "HSREXPRESS", name: "Honkai Star Rail Express Supply Pass", price: 65_000 }],
    idHint: "Isi UID dan server.",
  },
  {
    brand: "ARENA OF VALOR",
    prefix: "AOV",
    label: "Arena of Valor",
    unit: "Vouchers",
    unitPrice: 225,
    amounts: [40, 90, 230, 470, 950, 1430, 2390, 4800],
    idHint: PLAYER_ID,
  },
  {
    brand: "LEAGUE OF LEGENDS WILD RIFT",
    prefix: "WR",
    label: "Wild Rift",
    unit: "Wild Cores",
    unitPrice: 139,
    amounts: [425, 1000, 1850, 3275, 4800, 10000],
    idHint: "Isi Riot ID (angka).",
  },
  {
    brand: "EFOOTBALL",
    prefix: "EF",
    label: "eFootball",
    unit: "Coins",
    unitPrice: 115,
    amounts: [130, 300, 550, 750, 1040, 2130, 3250, 5700, 12800],
    idHint: "Isi Konami ID (angka).",
  },
  {
    brand: "SAUSAGE MAN",
    prefix: "SM",
    label: "Sausage Man",
    unit: "Candy",
    unitPrice: 250,
    amounts: [60, 180, 300, 680, 1280, 1980, 3280, 6480],
    idHint: PLAYER_ID,
  },
  {
    brand: "STUMBLE GUYS",
    prefix: "SG",
    label: "Stumble Guys",
    unit: "Gems",
    unitPrice: 170,
    amounts: [90, 200, 450, 800, 1600, 2500, 5000],
    idHint: PLAYER_ID,
  },
  {
    brand: "SUPER SUS",
    prefix: "SUS",
    label: "Super Sus",
    unit: "Goldstar",
    unitPrice: 150,
    amounts: [100, 310, 520, 1060, 2180, 5600, 11300],
    idHint: PLAYER_ID,
  },
  {
    brand: "POINT BLANK",
    prefix: "PB",
    label: "Point Blank",
    unit: "Cash",
    unitPrice: 8.4,
    amounts: [1200, 2400, 6000, 12000, 24000, 36000, 60000],
    idHint: "Isi Zepetto ID (angka).",
  },
  {
    brand: "CLASH OF CLANS",
    prefix: "COC",
    label: "Clash of Clans",
    unit: "Gems",
    unitPrice: 190,
    amounts: [80, 500, 1200, 2500, 6500, 14000],
    idHint: PLAYER_ID,
  },
  {
    brand: "LORDS MOBILE",
    prefix: "LM",
    label: "Lords Mobile",
    unit: "Diamonds",
    unitPrice: 210,
    amounts: [70, 140, 350, 700, 1400, 3500, 7000],
    idHint: PLAYER_ID,
  },
  {
    brand: "DELTA FORCE",
    prefix: "DF",
    label: "Delta Force",
    unit: "Coins",
    unitPrice: 200,
    amounts: [60, 320, 460, 750, 1480, 1980, 3950, 8100],
    idHint: PLAYER_ID,
  },
  {
    brand: "BLOOD STRIKE",
    prefix: "BS",
    label: "Blood Strike",
    unit: "Gold",
    unitPrice: 150,
    amounts: [100, 300, 500, 1000, 2000, 5000],
    idHint: PLAYER_ID,
  },
  {
    brand: "MAGIC CHESS GO GO",
    prefix: "MCGG",
    label: "Magic Chess Go Go",
    unit: "Diamonds",
    unitPrice: 265,
    amounts: [5, 12, 19, 28, 44, 59, 85, 170, 240, 296, 408, 568, 875, 2010, 4830],
    idHint: "Isi User ID dan Zone ID, contoh 123456789(2001).",
  },
  {
    brand: "ZENLESS ZONE ZERO",
    prefix: "ZZZ",
    label: "Zenless Zone Zero",
    unit: "Monochrome",
    unitPrice: 265,
    amounts: [60, 300, 980, 1980, 3280, 6480],
    passes: [
      { code: "ZZZINTERKNOT", name: "Zenless Zone Zero Inter-Knot Membership", price: 65_000 },
    ],
    idHint: "Isi UID dan server.",
  },
  {
    brand: "RAGNAROK ORIGIN",
    prefix: "ROO",
    label: "Ragnarok Origin",
    unit: "Nyan Berry",
    unitPrice: 150,
    amounts: [100, 300, 500, 1000, 2000, 3000, 5000],
    idHint: PLAYER_ID,
  },
];

/** the listed packs plus the bundles sellers build from them (2× to 10× a pack) */
function gameAmounts(base: readonly number[]): number[] {
  const max = Math.max(...base) * 3;
  const out = new Set(base);
  for (const b of base) for (let k = 2; k <= 10; k++) if (b * k <= max) out.add(b * k);
  return [...out].sort((a, b) => a - b);
}

// ---- postpaid ----

const CITIES: [string, string][] = [
  ["SBY", "Surabaya"],
  ["JKT", "Jakarta"],
  ["BDG", "Bandung"],
  ["SMG", "Semarang"],
  ["MLG", "Malang"],
  ["MDN", "Medan"],
  ["MKS", "Makassar"],
  ["BKS", "Bekasi"],
  ["BGR", "Bogor"],
  ["DPK", "Depok"],
  ["TNG", "Tangerang"],
  ["SLO", "Surakarta"],
  ["JOG", "Yogyakarta"],
  ["PLG", "Palembang"],
  ["PKU", "Pekanbaru"],
  ["BJM", "Banjarmasin"],
  ["BPN", "Balikpapan"],
  ["SMD", "Samarinda"],
  ["PTK", "Pontianak"],
  ["MND", "Manado"],
  ["DPS", "Denpasar"],
  ["MTR", "Mataram"],
  ["KPG", "Kupang"],
  ["JYP", "Jayapura"],
  ["AMB", "Ambon"],
  ["PDG", "Padang"],
  ["JMB", "Jambi"],
  ["BKL", "Bengkulu"],
  ["LPG", "Bandar Lampung"],
  ["SRG", "Serang"],
  ["CLG", "Cilegon"],
  ["CRB", "Cirebon"],
  ["TSM", "Tasikmalaya"],
  ["SKB", "Sukabumi"],
  ["KRW", "Karawang"],
  ["TGL", "Tegal"],
  ["PKL", "Pekalongan"],
  ["KDS", "Kudus"],
  ["MGL", "Magelang"],
  ["SDA", "Sidoarjo"],
  ["GRS", "Gresik"],
  ["KDR", "Kediri"],
  ["MJK", "Mojokerto"],
  ["JBR", "Jember"],
  ["BWI", "Banyuwangi"],
  ["PSR", "Pasuruan"],
  ["PBL", "Probolinggo"],
  ["BTM", "Batam"],
  ["PLU", "Palu"],
  ["KDI", "Kendari"],
  ["GTO", "Gorontalo"],
  ["TRK", "Tarakan"],
  ["BLT", "Blitar"],
  ["MDU", "Madiun"],
  ["TTE", "Ternate"],
];

const FINANCE: [string, string][] = [
  ["ADIRA", "Adira Finance"],
  ["FIF", "FIFGROUP"],
  ["BAF", "Bussan Auto Finance"],
  ["WOM", "WOM Finance"],
  ["MAF", "Mandiri Utama Finance"],
  ["MCF", "Mega Central Finance"],
  ["OTO", "OTO Multiartha"],
  ["ACC", "Astra Credit Companies"],
  ["BFI", "BFI Finance"],
  ["CLIPAN", "Clipan Finance"],
  ["MEGAFIN", "Mega Finance"],
  ["MTF", "Mandiri Tunas Finance"],
  ["SMSF", "Sinar Mas Multifinance"],
  ["KREDITPLUS", "KreditPlus"],
  ["HCI", "Home Credit Indonesia"],
  ["SUZUKIFIN", "Suzuki Finance Indonesia"],
];

// ---- assembly ----

export function generateCatalogue(seed = 1, variant: CatalogueVariant = {}): Catalogue {
  const prefix = variant.codePrefix ?? "";
  const alwaysInactive = variant.inactiveCodes ? new Set(variant.inactiveCodes) : ALWAYS_INACTIVE;
  const entries: CatalogueEntry[] = [];
  const index = new Map<string, CatalogueEntry>();

  const add = (
    entry: Omit<CatalogueEntry, "product"> & { product: Omit<WireProduct, "status"> },
  ) => {
    const base = entry.product.code;
    const code = prefix + base;
    if (index.has(code)) throw new Error(`duplicate sandbox product code ${code}`);
    const inactive =
      alwaysInactive.has(base) ||
      (!ALWAYS_ACTIVE.has(base) &&
        !ALWAYS_INACTIVE.has(base) &&
        hashString(`${seed}|inactive|${base}`) / 2 ** 32 < INACTIVE_SHARE);
    entry.product.code = code;
    // filled in place: spreading thousands of records is the slow part of generation
    const full = entry as CatalogueEntry;
    full.product.status = inactive ? "inactive" : "active";
    entries.push(full);
    index.set(code, full);
  };
  const rng = (code: string) => rngFor(seed, "price", code);

  for (const op of OPERATORS) {
    for (const k of PULSA_THOUSANDS) {
      const code = `${op.prefix}${k}`;
      const denomination = k * 1000;
      const r = rng(code);
      // small denominations carry a fixed fee; large ones sell slightly under face value
      const price =
        denomination <= 10_000
          ? denomination + op.fee + Math.floor(r() * 100)
          : denomination * (0.985 + r() * 0.02) + op.fee;
      add({
        family: "pulsa",
        denomination,
        product: {
          code,
          name: `${op.label} ${thousands(denomination)}`,
          category: "Pulsa",
          brand: op.brand,
          type: "prepaid",
          price: round25(price),
          desc: `Pulsa reguler ${op.label} Rp${thousands(denomination)}, masa aktif mengikuti ketentuan operator.`,
        },
      });
    }
    for (const k of PULSA_THOUSANDS.filter((t) => t >= 5 && t <= 500)) {
      // pulsa transfer: sent from a stock number, a little cheaper than reguler
      const code = `${op.prefix}TF${k}`;
      const denomination = k * 1000;
      add({
        family: "pulsa",
        denomination,
        product: {
          code,
          name: `${op.label} Transfer ${thousands(denomination)}`,
          category: "Pulsa",
          brand: op.brand,
          type: "prepaid",
          price: round25(denomination * (0.97 + rng(code)() * 0.02) + 100),
          desc: `Pulsa transfer ${op.label} Rp${thousands(denomination)}; tidak menambah masa aktif.`,
        },
      });
    }
    for (const line of DATA_LINES) {
      for (const [days, [min, max]] of Object.entries(VALIDITY)) {
        const d = Number(days);
        for (const q of QUOTAS) {
          if (q.gb < min || q.gb > max) continue;
          const code = `${op.prefix}${line.key}${q.label}${d}`;
          const base = 2500 + 6000 * q.gb ** 0.75 * (0.55 + 0.45 * Math.sqrt(d / 30));
          add({
            family: "data",
            product: {
              code,
              name: line.name(op.label, q.label, d),
              category: "Data",
              brand: op.brand,
              type: "prepaid",
              price: round25(base * line.factor * op.data * jitter(rng(code), 0.03)),
              desc: line.desc(q.label, d),
            },
          });
        }
      }
    }
  }

  for (const k of [20, 50, 100, 200, 500, 1000]) {
    const code = `PLN${k}`;
    const denomination = k * 1000;
    add({
      family: "pln",
      denomination,
      product: {
        code,
        name: `Token PLN ${thousands(denomination)}`,
        category: "PLN",
        brand: "PLN",
        type: "prepaid",
        price: round25(denomination + 100 + rng(code)() * 150),
        desc: `Token listrik PLN prabayar Rp${thousands(denomination)}. Isi nomor meter atau ID pelanggan (11–12 digit); token dikirim sebagai SN.`,
      },
    });
  }

  for (const w of WALLETS) {
    for (const k of walletThousands()) {
      const code = `${w.prefix}${k}`;
      const denomination = k * 1000;
      add({
        family: "emoney",
        denomination,
        product: {
          code,
          name: `${w.label} ${thousands(denomination)}`,
          category: "E-Money",
          brand: w.brand,
          type: "prepaid",
          price: round25(denomination + w.admin + (rng(code)() - 0.5) * 200),
          desc: `Top up saldo ${w.label} Rp${thousands(denomination)} ke nomor HP yang terdaftar.`,
          ...(w.brand === "LINKAJA" ? { start_cut_off: "23:45", end_cut_off: "00:15" } : {}),
        },
      });
    }
  }
  for (let k = 20; k <= 500; k += 10) {
    const code = `GOPAYDRV${k}`;
    const denomination = k * 1000;
    add({
      family: "emoney",
      denomination,
      product: {
        code,
        name: `GoPay Driver ${thousands(denomination)}`,
        category: "E-Money",
        brand: "GOPAY",
        type: "prepaid",
        price: round25(denomination + 1500 + (rng(code)() - 0.5) * 200),
        desc: `Top up saldo GoPay Driver Rp${thousands(denomination)} ke nomor HP mitra.`,
      },
    });
  }

  for (const g of GAMES) {
    const smallest = g.amounts[0] ?? 1;
    for (const amount of gameAmounts(g.amounts)) {
      const code = `${g.prefix}${amount}`;
      // bigger packs are a little cheaper per unit
      const discount = 1 - Math.min(0.12, 0.02 * Math.log2(amount / smallest));
      add({
        family: "game",
        product: {
          code,
          name: `${g.label} ${thousands(amount)} ${g.unit}`,
          category: "Games",
          brand: g.brand,
          type: "game",
          price: round25(amount * g.unitPrice * discount * jitter(rng(code), 0.02)),
          desc: `Top up ${thousands(amount)} ${g.unit} ${g.label}. ${g.idHint}`,
        },
      });
    }
    for (const pass of g.passes ?? []) {
      add({
        family: "game",
        product: {
          code: pass.code,
          name: pass.name,
          category: "Games",
          brand: g.brand,
          type: "game",
          price: round25(pass.price * jitter(rng(pass.code), 0.02)),
          desc: `${pass.name}. ${g.idHint}`,
        },
      });
    }
  }

  const bill = (
    code: string,
    name: string,
    category: string,
    brand: string,
    admin: number,
    billKind: BillKind,
    desc: string,
    region?: string,
  ) =>
    add({
      family: "bill",
      billKind,
      region,
      product: { code, name, category, brand, type: "pasca", price: admin, desc },
    });

  bill(
    "PLNPOST",
    "PLN Pascabayar",
    "PLN PASCABAYAR",
    "PLN",
    2500,
    "pln",
    "Bayar tagihan listrik PLN pascabayar. Isi ID pelanggan (12 digit). Admin per lembar tagihan.",
  );
  bill(
    "BPJS",
    "BPJS Kesehatan",
    "BPJS KESEHATAN",
    "BPJS",
    2500,
    "bpjs",
    "Bayar iuran BPJS Kesehatan. Isi nomor VA keluarga (16 digit, diawali 88888).",
  );
  for (const [abbr, city] of CITIES) {
    const admin = 2000 + Math.floor(rng(`PDAM${abbr}`)() * 4) * 500;
    bill(
      `PDAM${abbr}`,
      abbr === "JKT" ? "PAM Jaya DKI Jakarta" : `PDAM Kota ${city}`,
      "PDAM",
      "PDAM",
      admin,
      "pdam",
      `Bayar tagihan air PDAM ${city}. Isi nomor pelanggan.`,
      city,
    );
  }
  bill(
    "TELKOM",
    "Telkom Telepon Rumah",
    "TELKOM",
    "TELKOM",
    2500,
    "telkom",
    "Bayar tagihan telepon rumah Telkom. Isi kode area dan nomor telepon.",
  );
  bill(
    "INDIHOME",
    "IndiHome",
    "TELKOM",
    "TELKOM",
    2500,
    "telkom",
    "Bayar tagihan IndiHome. Isi nomor pelanggan IndiHome (12 digit).",
  );
  bill(
    "HALO",
    "Telkomsel Halo",
    "TELKOM",
    "TELKOMSEL",
    2000,
    "mobile",
    "Bayar tagihan Telkomsel Halo (pascabayar). Isi nomor HP.",
  );
  for (const [abbr, city] of CITIES) {
    bill(
      `PBB${abbr}`,
      `PBB Kota ${city}`,
      "PBB",
      "PBB",
      3000,
      "pbb",
      `Bayar Pajak Bumi dan Bangunan wilayah ${city}. Isi NOP (18 digit).`,
      city,
    );
  }
  for (const [code, name] of FINANCE) {
    bill(
      code,
      name,
      "MULTIFINANCE",
      name.toUpperCase(),
      5000,
      "multifinance",
      `Bayar angsuran ${name}. Isi nomor kontrak.`,
    );
  }

  const all = entries.map((e) => e.product);
  const byType = {
    prepaid: all.filter((p) => p.type === "prepaid"),
    game: all.filter((p) => p.type === "game"),
    pasca: all.filter((p) => p.type === "pasca"),
  };
  return { all, byType, get: (code) => index.get(code) };
}
