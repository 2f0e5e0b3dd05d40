// a token bucket per api_id, on real (monotonic) time so a frozen test clock cannot starve it.

export interface RateLimiter {
  /** false when the caller is over the limit */
  take(apiId: string): boolean;
}

export function createRateLimiter(
  perSecond: number,
  now: () => number = () => performance.now(),
): RateLimiter {
  const buckets = new Map<string, { tokens: number; at: number }>();
  return {
    take(apiId) {
      const t = now();
      const bucket = buckets.get(apiId) ?? { tokens: perSecond, at: t };
      bucket.tokens = Math.min(perSecond, bucket.tokens + ((t - bucket.at) / 1000) * perSecond);
      bucket.at = t;
      buckets.set(apiId, bucket);
      if (bucket.tokens < 1) return false;
      bucket.tokens -= 1;
      return true;
    },
  };
}
