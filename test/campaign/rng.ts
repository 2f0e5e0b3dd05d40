import { seededRng } from "@kios/supplier-sandbox";

// the campaign's randomness: one seed gives the same plan (scenarios, endings, kill times).

export interface Random {
  next(): number;
  int(min: number, maxInclusive: number): number;
  pick<T>(items: readonly T[]): T;
  chance(p: number): boolean;
  /** an independent generator, so one part's draws do not shift another's */
  fork(label: number): Random;
}

export function random(seed: number): Random {
  const next = seededRng(seed);
  const r: Random = {
    next,
    int: (min, max) => min + Math.floor(next() * (max - min + 1)),
    pick: (items) => items[Math.floor(next() * items.length)]!,
    chance: (p) => next() < p,
    fork: (label) => random((seed * 7919 + label * 104_729) >>> 0),
  };
  return r;
}
