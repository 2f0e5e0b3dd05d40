// deterministic randomness for the simulators: the same seed replays the same catalogue,
// data and faults, so nothing here touches Math.random.

/** a uniform generator in [0, 1) */
export type Rng = () => number;

/** mulberry32: tiny, fast and good enough for test data */
export function seededRng(seed: number): Rng {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
