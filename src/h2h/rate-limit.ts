// each key's requests per minute (docs/h2h.md#limits): a token bucket per key in this
// process's memory. With several web processes each counts its own share, so a key's
// limit is per process; the owner sets it with that in mind.

export interface RateLimiter {
  /** 0 when the request may go; else how long (ms) until it could */
  take(keyId: number, perMinute: number, nowMs: number): number;
}

export function createRateLimiter(): RateLimiter {
  const buckets = new Map<number, { tokens: number; at: number }>();
  return {
    take(keyId, perMinute, nowMs) {
      if (perMinute <= 0) return 0;
      const rate = perMinute / 60_000;
      const bucket = buckets.get(keyId) ?? { tokens: perMinute, at: nowMs };
      bucket.tokens = Math.min(perMinute, bucket.tokens + (nowMs - bucket.at) * rate);
      bucket.at = nowMs;
      buckets.set(keyId, bucket);
      if (bucket.tokens >= 1) {
        bucket.tokens -= 1;
        return 0;
      }
      return Math.ceil((1 - bucket.tokens) / rate);
    },
  };
}
