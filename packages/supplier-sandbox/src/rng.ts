import { createHash } from "node:crypto";
import { type Rng, seededRng } from "@kios/kit";

// deterministic randomness: the catalogue, faults and generated data must be the same on
// every run with the same seed, so nothing here touches Math.random.

export { type Rng, seededRng };

/** a 32-bit FNV-1a hash, for seeding a generator from a string */
export function hashString(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

/** a generator seeded by a string (e.g. a customer number), independent of call order */
export function rngFor(...parts: (string | number)[]): Rng {
  return seededRng(hashString(parts.join("|")));
}

/** n decimal digits derived from a string, the same for the same input */
export function digitsOf(input: string, n: number): string {
  let out = "";
  let round = 0;
  while (out.length < n) {
    const hex = createHash("sha256").update(`${round}:${input}`).digest("hex");
    for (const ch of hex) {
      const d = Number.parseInt(ch, 16);
      // rejection keeps the digits uniform
      if (d < 10) out += String(d);
      if (out.length === n) break;
    }
    round += 1;
  }
  return out;
}

/** n uppercase hex characters derived from a string */
export function hexOf(input: string, n: number): string {
  return createHash("sha256").update(input).digest("hex").slice(0, n).toUpperCase();
}

export function pick<T>(rng: Rng, items: readonly T[]): T {
  const item = items[Math.floor(rng() * items.length)];
  if (item === undefined) throw new Error("pick from an empty list");
  return item;
}

/** an integer in [min, max] */
export function between(rng: Rng, min: number, max: number): number {
  return min + Math.floor(rng() * (max - min + 1));
}
