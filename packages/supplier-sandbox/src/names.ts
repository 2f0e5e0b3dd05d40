import { between, pick, type Rng } from "./rng.ts";

// plausible Indonesian names, addresses and vehicles for bills and PLN tokens.

const FIRST = [
  "BUDI",
  "SITI",
  "AGUS",
  "DEWI",
  "EKO",
  "SRI",
  "HENDRA",
  "RINA",
  "JOKO",
  "WATI",
  "ANDI",
  "NUR",
  "YUSUF",
  "LESTARI",
  "RUDI",
  "INDAH",
  "BAMBANG",
  "FITRI",
  "DEDI",
  "AYU",
  "AHMAD",
  "PUTRI",
  "IWAN",
  "RATNA",
  "SLAMET",
  "YULIA",
  "HARYANTO",
  "NOVI",
  "TEGUH",
  "MAYA",
];
const LAST = [
  "SANTOSO",
  "RAHAYU",
  "SETIAWAN",
  "WIJAYA",
  "KURNIAWAN",
  "LESTARI",
  "HIDAYAT",
  "PRATAMA",
  "SAPUTRA",
  "NINGSIH",
  "SUSANTO",
  "HARAHAP",
  "SIREGAR",
  "NASUTION",
  "GUNAWAN",
  "PERMATA",
  "WIBOWO",
  "HALIM",
  "SUTRISNO",
  "MULYADI",
  "FAUZI",
  "PURNOMO",
  "SIMANJUNTAK",
  "PANGESTU",
];
const STREETS = [
  "MAWAR",
  "MELATI",
  "KENANGA",
  "DIPONEGORO",
  "SUDIRMAN",
  "GATOT SUBROTO",
  "AHMAD YANI",
  "PAHLAWAN",
  "MERDEKA",
  "CEMPAKA",
  "ANGGREK",
  "SISINGAMANGARAJA",
  "HASANUDDIN",
  "VETERAN",
];
const VEHICLES = [
  "HONDA BEAT CBS",
  "HONDA VARIO 125",
  "YAMAHA NMAX 155",
  "YAMAHA AEROX 155",
  "HONDA SCOOPY",
  "SUZUKI NEX II",
  "TOYOTA AVANZA 1.3 G",
  "DAIHATSU XENIA 1.3 R",
  "HONDA BRIO SATYA E",
  "MITSUBISHI XPANDER GLS",
  "TOYOTA CALYA G",
  "SUZUKI ERTIGA GL",
];
const PLATE_AREAS = ["B", "D", "L", "N", "H", "AB", "AD", "BK", "DD", "F", "W", "KT"];

export function personName(rng: Rng): string {
  return `${pick(rng, FIRST)} ${pick(rng, LAST)}`;
}

export function address(rng: Rng, city: string): string {
  return `JL. ${pick(rng, STREETS)} NO. ${between(rng, 1, 199)}, ${city.toUpperCase()}`;
}

export function vehicle(rng: Rng): { itemName: string; noRangka: string; noPol: string } {
  const letters = "ABCDEFGHJKLMNPRSTUVWXYZ";
  const letter = () => letters[Math.floor(rng() * letters.length)];
  const digits = (n: number) =>
    Array.from({ length: n }, () => String(Math.floor(rng() * 10))).join("");
  return {
    itemName: pick(rng, VEHICLES),
    noRangka: `MH${letter()}${letter()}${digits(2)}${letter()}${digits(2)}${letter()}${letter()}${digits(6)}`,
    noPol: `${pick(rng, PLATE_AREAS)} ${between(rng, 1000, 9999)} ${letter()}${letter()}`,
  };
}

export const CITY_NAMES = [
  "JAKARTA PUSAT",
  "SURABAYA",
  "BANDUNG",
  "SEMARANG",
  "MEDAN",
  "MAKASSAR",
  "YOGYAKARTA",
  "MALANG",
  "DENPASAR",
  "PALEMBANG",
];
