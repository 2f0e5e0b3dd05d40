// whether a product can be bought right now. A product is closed inside its daily cut-off
// window (start_cut_off–end_cut_off, WIB, which may wrap past midnight: the supplier does
// not process it then) and while kios has paused it (the supplier refused it as inactive,
// or it kept failing). Closed products are shown with the time they open again.

const WIB_OFFSET_MS = 7 * 3600_000;
const DAY_MS = 24 * 3600_000;

export interface Closure {
  reason: "cut_off" | "paused";
  /** when it opens again (Unix ms) */
  until: number;
}

export interface ProductHours {
  startCutOff: string | null;
  endCutOff: string | null;
  pausedUntil: Date | null;
}

const HHMM = /^([01]\d|2[0-3]):([0-5]\d)$/;

/** minutes since midnight WIB of "HH:MM", or undefined for anything else */
function minutesOf(hhmm: string | null): number | undefined {
  const m = hhmm ? HHMM.exec(hhmm.trim()) : null;
  return m ? Number(m[1]) * 60 + Number(m[2]) : undefined;
}

/** when (Unix ms) a cut-off window open at `now` ends, or undefined when it is not open */
function cutOffEnd(start: number, end: number, now: number): number | undefined {
  const sinceMidnight = (now + WIB_OFFSET_MS) % DAY_MS;
  const minute = Math.floor(sinceMidnight / 60_000);
  const inside = start <= end ? minute >= start && minute < end : minute >= start || minute < end;
  if (!inside || start === end) return undefined;
  const midnight = now - sinceMidnight;
  const endToday = midnight + end * 60_000;
  return endToday > now ? endToday : endToday + DAY_MS;
}

export function closureOf(p: ProductHours, now: number): Closure | undefined {
  const start = minutesOf(p.startCutOff);
  const end = minutesOf(p.endCutOff);
  const cutOff = start !== undefined && end !== undefined ? cutOffEnd(start, end, now) : undefined;
  const paused =
    p.pausedUntil && p.pausedUntil.getTime() > now ? p.pausedUntil.getTime() : undefined;
  if (cutOff === undefined && paused === undefined) return undefined;
  // closed for both reasons: it opens when the later one ends
  if (paused !== undefined && (cutOff === undefined || paused >= cutOff)) {
    return { reason: "paused", until: paused };
  }
  return { reason: "cut_off", until: cutOff! };
}
