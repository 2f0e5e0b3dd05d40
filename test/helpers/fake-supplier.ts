import { seededRng } from "@kios/supplier-sandbox";
import type {
  ProductCmd,
  SubmitOutcome,
  Supplier,
  SupplierProduct,
} from "../../src/supplier/types.ts";
import { SupplierError } from "../../src/supplier/types.ts";

export type Catalogue = Record<ProductCmd, SupplierProduct[]>;

/** an in-memory supplier whose product lists tests set and break at will */
export interface FakeSupplier extends Supplier {
  /** the lists products() answers with (copies, so a sync can't alter them) */
  lists: Catalogue;
  /** while set, products(cmd) rejects with this error */
  failures: Partial<Record<ProductCmd, Error>>;
  /** every products() call, in order */
  calls: ProductCmd[];
}

export function createFakeSupplier(catalogue: Partial<Catalogue> = {}): FakeSupplier {
  const notHere = async (): Promise<never> => {
    throw new SupplierError("SERVER_ERROR", "the fake supplier only lists products");
  };
  const fake: FakeSupplier = {
    interface: "signature",
    lists: { prepaid: [], game: [], pasca: [], ...catalogue },
    failures: {},
    calls: [],
    async balance() {
      return { balance: 1_000_000, balanceFormatted: "Rp1.000.000" };
    },
    async products(cmd) {
      fake.calls.push(cmd);
      const failure = fake.failures[cmd];
      if (failure) throw failure;
      return fake.lists[cmd].map((p) => ({ ...p }));
    },
    order: notHere as () => Promise<SubmitOutcome>,
    inquiry: notHere,
    payBill: notHere as () => Promise<SubmitOutcome>,
    status: notHere,
  };
  return fake;
}

const MOBILE_BRANDS = ["TELKOMSEL", "INDOSAT", "XL", "AXIS", "TRI", "SMARTFREN", "BY.U"];
const EWALLETS = ["GOPAY", "OVO", "DANA", "SHOPEEPAY", "LINKAJA"];
const GAMES = [
  "MOBILE LEGENDS",
  "FREE FIRE",
  "PUBG MOBILE",
  "GENSHIN IMPACT",
  "VALORANT",
  "HONOR OF KINGS",
];
const BILLS = [
  "PLN PASCABAYAR",
  "BPJS KESEHATAN",
  "PDAM",
  "TELKOM",
  "PBB",
  "MULTIFINANCE",
] as const;

/**
 * a realistic catalogue of `size` products: ~70 % prepaid (pulsa and data for every operator,
 * PLN tokens, e-wallets), ~20 % game vouchers, ~10 % bills. Codes are unique.
 */
export function generateCatalogue(size: number, seed = 1): Catalogue {
  const rnd = seededRng(seed);
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rnd() * xs.length)]!;
  const catalogue: Catalogue = { prepaid: [], game: [], pasca: [] };
  for (let i = 0; i < size; i++) {
    const roll = rnd();
    const active = rnd() > 0.05;
    if (roll < 0.7) {
      const kind = rnd();
      if (kind < 0.35) {
        const brand = pick(MOBILE_BRANDS);
        const nominal = pick([5, 10, 15, 20, 25, 50, 100, 150, 200]) * 1000;
        catalogue.prepaid.push({
          code: `P${i}`,
          name: `${brand} ${nominal.toLocaleString("id-ID")} #${i}`,
          category: "Pulsa",
          brand,
          type: "prepaid",
          price: nominal + Math.floor(rnd() * 2000) - 200,
          active,
          desc: `Pulsa ${brand} Rp${nominal}`,
        });
      } else if (kind < 0.75) {
        const brand = pick(MOBILE_BRANDS);
        const gb = pick([1, 2, 3, 5, 10, 15, 25, 50]);
        catalogue.prepaid.push({
          code: `D${i}`,
          name: `${brand} Data ${gb}GB 30 Hari #${i}`,
          category: "Data",
          brand,
          type: "prepaid",
          price: 5000 + gb * 3000 + Math.floor(rnd() * 5000),
          active,
          desc: `Kuota ${gb}GB`,
        });
      } else if (kind < 0.85) {
        const nominal = pick([20, 50, 100, 200, 500, 1000]) * 1000;
        catalogue.prepaid.push({
          code: `PLN${i}`,
          name: `PLN ${nominal.toLocaleString("id-ID")} #${i}`,
          category: "PLN",
          brand: "PLN",
          type: "prepaid",
          price: nominal + 1500 + Math.floor(rnd() * 500),
          active,
          desc: "Token listrik",
        });
      } else {
        const brand = pick(EWALLETS);
        const nominal = pick([10, 20, 25, 50, 100, 200]) * 1000;
        catalogue.prepaid.push({
          code: `EM${i}`,
          name: `${brand} ${nominal.toLocaleString("id-ID")} #${i}`,
          category: "E-Money",
          brand,
          type: "prepaid",
          price: nominal + 1000 + Math.floor(rnd() * 500),
          active,
          desc: `Saldo ${brand}`,
        });
      }
    } else if (roll < 0.9) {
      const brand = pick(GAMES);
      const units = pick([5, 12, 28, 50, 86, 172, 257, 344, 514, 706]);
      catalogue.game.push({
        code: `G${i}`,
        name: `${brand} ${units} Diamonds #${i}`,
        category: "Games",
        brand,
        type: "game",
        price: units * 280 + Math.floor(rnd() * 1000),
        active,
        desc: `${units} diamonds`,
      });
    } else {
      const category = pick(BILLS);
      catalogue.pasca.push({
        code: `B${i}`,
        name: `${category} #${i}`,
        category,
        brand: category,
        type: "pasca",
        price: pick([1500, 2000, 2500, 2750, 3000]),
        active,
        desc: "Admin fee",
      });
    }
  }
  return catalogue;
}

/** a product record with sensible defaults */
export function product(
  overrides: Partial<SupplierProduct> & Pick<SupplierProduct, "code">,
): SupplierProduct {
  return {
    name: overrides.code,
    category: "Pulsa",
    brand: "TELKOMSEL",
    type: "prepaid",
    price: 10_000,
    active: true,
    desc: "",
    ...overrides,
  };
}
