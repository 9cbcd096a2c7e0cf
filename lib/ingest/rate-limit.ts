import { eventBatchLimits } from "./validate-events";

// Token buckets per key (an ingest token, a project, a client address), in this process's
// memory: with several ingest processes each keeps its own buckets, so the effective limit is
// that many times higher.

export type RateLimitOptions = {
  /** Sustained rate: tokens added back per second. */
  ratePerSecond: number;
  /** Bucket size: what a key that has been quiet may spend at once. */
  burst: number;
  /** Keys remembered; the least recently used beyond this are forgotten (and come back full). */
  maxKeys: number;
};

/** retryAfterSeconds: whole seconds until the bucket holds the cost, at least 1 (for Retry-After). */
export type RateLimitDecision = { allowed: true } | { allowed: false; retryAfterSeconds: number };

export type RateLimiter = {
  /** Whether `key`'s bucket holds `cost` tokens now, spending none. */
  check(key: string, cost: number, now?: number): RateLimitDecision;
  /**
   * Spends `cost` tokens of `key`'s bucket, or none when it holds fewer. `now` is in
   * milliseconds on a clock that only moves forward (performance.now() unless given).
   */
  take(key: string, cost: number, now?: number): RateLimitDecision;
};

/**
 * Ingest defaults, per ingest token and counted in events (a batch of 500 costs 500): a busy
 * page sends a few events per second per viewer, so 2,000 a second is a thousand viewers'
 * worth per token; the burst absorbs twenty full batches after a pause or a retry storm.
 */
export const ingestRateLimit = {
  ratePerSecond: 2_000,
  burst: 10_000,
  /** A few hundred bytes a key with its Map entry: a few MB at most. */
  maxKeys: 10_000,
} as const satisfies RateLimitOptions;

/**
 * The per-project and per-address limits (INGEST_PROJECT_RATE, INGEST_ADDRESS_RATE): bursts of
 * five seconds' worth, and never less than one full batch, so a bucket can always pay for one.
 */
export function sharedIngestRateLimit(ratePerSecond: number): RateLimitOptions {
  return { ratePerSecond, burst: Math.max(5 * ratePerSecond, eventBatchLimits.maxEvents), maxKeys: 10_000 };
}

type Bucket = { tokens: number; updatedAt: number };

export function createRateLimiter({ ratePerSecond, burst, maxKeys }: RateLimitOptions): RateLimiter {
  if (!(Number.isFinite(ratePerSecond) && ratePerSecond > 0)) throw new RangeError("ratePerSecond must be a positive number");
  if (!(Number.isFinite(burst) && burst >= 1)) throw new RangeError("burst must be at least 1");
  if (!(Number.isInteger(maxKeys) && maxKeys >= 1)) throw new RangeError("maxKeys must be a positive integer");
  // Map keeps insertion order: re-inserting on every take keeps the least recently used first.
  const buckets = new Map<string, Bucket>();

  /** The key's bucket refilled up to `now`, most recently used from here on. */
  function refill(key: string, now: number): Bucket {
    let bucket = buckets.get(key);
    if (bucket) {
      buckets.delete(key);
      const elapsed = Math.max(0, now - bucket.updatedAt);
      bucket.tokens = Math.min(burst, bucket.tokens + (elapsed * ratePerSecond) / 1000);
      bucket.updatedAt = Math.max(now, bucket.updatedAt);
    } else {
      bucket = { tokens: burst, updatedAt: now };
    }
    buckets.set(key, bucket);
    if (buckets.size > maxKeys) buckets.delete(buckets.keys().next().value!);
    return bucket;
  }

  function decide(key: string, cost: number, now: number, spend: boolean): RateLimitDecision {
    if (!(Number.isFinite(cost) && cost >= 0)) throw new RangeError("cost must be a number of at least 0");
    const bucket = refill(key, now);
    // A cost above the burst could never be paid; it waits for a full bucket and empties it.
    const needed = Math.min(cost, burst);
    if (bucket.tokens >= needed) {
      if (spend) bucket.tokens -= needed;
      return { allowed: true };
    }
    return { allowed: false, retryAfterSeconds: Math.ceil((needed - bucket.tokens) / ratePerSecond) };
  }

  return {
    check: (key, cost, now = performance.now()) => decide(key, cost, now, false),
    take: (key, cost, now = performance.now()) => decide(key, cost, now, true),
  };
}

/** One limit a request counts against: which limiter, under which key, and what a refusal says. */
export type RateLimitCharge<Name extends string = string> = { name: Name; limiter: RateLimiter; key: string };

/**
 * Spends `cost` from every charge's bucket, or from none: the first charge that cannot pay
 * refuses the whole request, so a batch refused by one limit costs nothing under the others.
 */
export function takeFromEach<Name extends string>(
  charges: readonly RateLimitCharge<Name>[],
  cost: number,
  now = performance.now(),
): { allowed: true } | { allowed: false; limit: Name; retryAfterSeconds: number } {
  for (const { name, limiter, key } of charges) {
    const decision = limiter.check(key, cost, now);
    if (!decision.allowed) return { allowed: false, limit: name, retryAfterSeconds: decision.retryAfterSeconds };
  }
  for (const { limiter, key } of charges) limiter.take(key, cost, now);
  return { allowed: true };
}
