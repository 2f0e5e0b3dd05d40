/** time as the app sees it; tests hand in a ManualClock to step through 5-minute windows. */
export interface Clock {
  /** milliseconds since the epoch */
  now(): number;
}

export const systemClock: Clock = { now: () => Date.now() };

/** a clock that starts at real time (or a given instant) and moves only when told. */
export class ManualClock implements Clock {
  #offset = 0;
  #frozenAt: number | undefined;

  constructor(options: { start?: number; frozen?: boolean } = {}) {
    if (options.start !== undefined) this.#offset = options.start - Date.now();
    if (options.frozen) this.#frozenAt = Date.now() + this.#offset;
  }

  now(): number {
    return this.#frozenAt ?? Date.now() + this.#offset;
  }

  /** moves time forward (or back, with a negative value) */
  advance(ms: number): void {
    if (this.#frozenAt !== undefined) this.#frozenAt += ms;
    else this.#offset += ms;
  }

  set(ms: number): void {
    if (this.#frozenAt !== undefined) this.#frozenAt = ms;
    else this.#offset = ms - Date.now();
  }
}
