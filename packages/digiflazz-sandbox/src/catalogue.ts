// the sandbox's price lists: prepaid (Pulsa, Data, E-Money, PLN and games, in one list as
// Digiflazz keeps them) and postpaid, with the documented fields.

export interface PrepaidItem {
  product_name: string;
  category: string;
  brand: string;
  type: string;
  seller_name: string;
  price: number;
  buyer_sku_code: string;
  buyer_product_status: boolean;
  seller_product_status: boolean;
  unlimited_stock: boolean;
  stock: number;
  multi: boolean;
  start_cut_off: string;
  end_cut_off: string;
  desc: string;
}

export interface PascaItem {
  product_name: string;
  category: string;
  brand: string;
  seller_name: string;
  admin: number;
  commission: number;
  buyer_sku_code: string;
  buyer_product_status: boolean;
  seller_product_status: boolean;
  desc: string;
}

function prepaid(
  sku: string,
  name: string,
  category: string,
  brand: string,
  price: number,
  extra: Partial<PrepaidItem> = {},
): PrepaidItem {
  return {
    product_name: name,
    category,
    brand,
    type: "Umum",
    seller_name: "SANDBOX SELLER",
    price,
    buyer_sku_code: sku,
    buyer_product_status: true,
    seller_product_status: true,
    unlimited_stock: true,
    stock: 0,
    multi: true,
    start_cut_off: "0:0",
    end_cut_off: "0:0",
    desc: name,
    ...extra,
  };
}

/** the documentation's test SKU, and products named as Digiflazz names them */
export function defaultPrepaid(): PrepaidItem[] {
  return [
    prepaid("xld10", "XL 10.000", "Pulsa", "XL", 10_150),
    prepaid("tsel5", "Telkomsel 5.000", "Pulsa", "TELKOMSEL", 5_400),
    prepaid("tsel10", "Telkomsel 10.000", "Pulsa", "TELKOMSEL", 10_300),
    prepaid("tsel25", "Telkomsel 25.000", "Pulsa", "TELKOMSEL", 24_900),
    prepaid("isat10", "Indosat 10.000", "Pulsa", "INDOSAT", 10_600),
    prepaid("isat1000", "Indosat 1.000", "Pulsa", "INDOSAT", 1_600),
    prepaid("tseld1", "Telkomsel Data 1 GB / 30 Hari", "Data", "TELKOMSEL", 12_800),
    prepaid("pln20", "PLN 20.000", "PLN", "PLN", 20_250),
    prepaid("pln50", "PLN 50.000", "PLN", "PLN", 50_250),
    prepaid("gopay20", "GO PAY 20.000", "E-Money", "GO PAY", 20_900),
    prepaid("dana25", "DANA 25.000", "E-Money", "DANA", 25_700),
    prepaid("ml86", "Mobile Legends 86 Diamond", "Games", "MOBILE LEGENDS", 19_900),
    prepaid("ff70", "Free Fire 70 Diamond", "Games", "FREE FIRE", 9_400),
    prepaid("pubg60", "PUBG Mobile 60 UC", "Games", "PUBG MOBILE", 14_500, {
      buyer_product_status: false,
    }),
  ];
}

export function defaultPasca(): PascaItem[] {
  const bill = (sku: string, name: string, brand: string, admin: number): PascaItem => ({
    product_name: name,
    category: "Pascabayar",
    brand,
    seller_name: "SANDBOX SELLER",
    admin,
    commission: 500,
    buyer_sku_code: sku,
    buyer_product_status: true,
    seller_product_status: true,
    desc: "-",
  });
  return [
    bill("pln", "Pln Pascabayar", "PLN PASCABAYAR", 2_750),
    bill("bpjs", "BPJS Kesehatan", "BPJS KESEHATAN", 2_500),
  ];
}
