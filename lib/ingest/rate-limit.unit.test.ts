import { describe, expect, it } from "vitest";
import { createRateLimiter, ingestRateLimit, sharedIngestRateLimit, takeFromEach, type RateLimitOptions } from "./rate-limit";
import { eventBatchLimits } from "./validate-events";

// 10 tokens a second, 100 at once; times are milliseconds passed as `now`.
const limiter = (options: Partial<RateLimitOptions> = {}) => createRateLimiter({ ratePerSecond: 10, burst: 100, maxKeys: 10, ...options });

describe("createRateLimiter", () => {
  it("take – allows the burst at once, then refuses with the seconds until enough tokens", () => {
    const { take } = limiter();
    expect(take("a", 60, 0)).toEqual({ allowed: true });
    expect(take("a", 40, 0)).toEqual({ allowed: true });
    expect(take("a", 1, 0)).toEqual({ allowed: false, retryAfterSeconds: 1 });
    expect(take("a", 50, 0)).toEqual({ allowed: false, retryAfterSeconds: 5 });
    expect(take("a", 55, 0)).toEqual({ allowed: false, retryAfterSeconds: 6 });
  });

  it("take – counts a batch by its events: a refused batch spends nothing", () => {
    const { take } = limiter();
    expect(take("a", 60, 0)).toEqual({ allowed: true });
    expect(take("a", 60, 0)).toEqual({ allowed: false, retryAfterSeconds: 2 });
    expect(take("a", 40, 0)).toEqual({ allowed: true });
  });

  it("take – succeeds once Retry-After has passed, not before", () => {
    const { take } = limiter();
    take("a", 100, 0);
    const refused = take("a", 50, 0);
    expect(refused).toEqual({ allowed: false, retryAfterSeconds: 5 });
    expect(take("a", 50, 4_999)).toEqual({ allowed: false, retryAfterSeconds: 1 });
    expect(take("a", 50, 5_000)).toEqual({ allowed: true });
    expect(take("a", 1, 5_000)).toEqual({ allowed: false, retryAfterSeconds: 1 });
  });

  it("take – refills at the sustained rate up to the burst, no further", () => {
    const { take } = limiter();
    take("a", 100, 0);
    expect(take("a", 10, 1_000)).toEqual({ allowed: true });
    expect(take("a", 1, 1_000)).toEqual({ allowed: false, retryAfterSeconds: 1 });
    expect(take("a", 100, 3_600_000)).toEqual({ allowed: true });
    expect(take("a", 1, 3_600_000)).toEqual({ allowed: false, retryAfterSeconds: 1 });
  });

  it("take – a clock that goes back adds no tokens", () => {
    const { take } = limiter();
    take("a", 100, 10_000);
    expect(take("a", 1, 0)).toEqual({ allowed: false, retryAfterSeconds: 1 });
    expect(take("a", 10, 10_999)).toEqual({ allowed: false, retryAfterSeconds: 1 });
    expect(take("a", 10, 11_000)).toEqual({ allowed: true });
  });

  it("take – keeps keys independent", () => {
    const { take } = limiter();
    take("a", 100, 0);
    expect(take("a", 1, 0).allowed).toBe(false);
    expect(take("b", 100, 0)).toEqual({ allowed: true });
  });

  it("take – forgets the least recently used key beyond maxKeys, which comes back full", () => {
    const { take } = limiter({ maxKeys: 2 });
    take("a", 100, 0);
    take("b", 100, 0);
    expect(take("a", 1, 0).allowed).toBe(false); // a is now more recent than b
    take("c", 100, 0);
    expect(take("a", 1, 0).allowed).toBe(false);
    expect(take("b", 100, 0)).toEqual({ allowed: true });
  });

  it("take – a cost above the burst waits for a full bucket and empties it", () => {
    const { take } = limiter();
    take("a", 50, 0);
    expect(take("a", 250, 0)).toEqual({ allowed: false, retryAfterSeconds: 5 });
    expect(take("a", 250, 5_000)).toEqual({ allowed: true });
    expect(take("a", 1, 5_000).allowed).toBe(false);
  });

  it("take – a cost of 0 is always allowed", () => {
    const { take } = limiter();
    take("a", 100, 0);
    expect(take("a", 0, 0)).toEqual({ allowed: true });
  });

  it("take – defaults to the monotonic clock", () => {
    const { take } = limiter();
    expect(take("a", 100)).toEqual({ allowed: true });
    expect(take("a", 100)).toEqual({ allowed: false, retryAfterSeconds: expect.any(Number) });
  });

  it.each<[string, Partial<RateLimitOptions>]>([
    ["ratePerSecond 0", { ratePerSecond: 0 }],
    ["ratePerSecond NaN", { ratePerSecond: Number.NaN }],
    ["burst 0", { burst: 0 }],
    ["burst Infinity", { burst: Number.POSITIVE_INFINITY }],
    ["maxKeys 0", { maxKeys: 0 }],
    ["maxKeys 1.5", { maxKeys: 1.5 }],
  ])("createRateLimiter – rejects %s", (_case, options) => {
    expect(() => limiter(options)).toThrow(RangeError);
  });

  it.each([-1, Number.NaN, Number.POSITIVE_INFINITY])("take – rejects a cost of %s", (cost) => {
    expect(() => limiter().take("a", cost, 0)).toThrow(RangeError);
  });

  it("ingestRateLimit – a full batch always fits the burst; Retry-After after the burst is 1 s", () => {
    expect(ingestRateLimit).toEqual({ ratePerSecond: 2_000, burst: 10_000, maxKeys: 10_000 });
    expect(ingestRateLimit.burst).toBeGreaterThanOrEqual(eventBatchLimits.maxEvents);
    const { take } = createRateLimiter(ingestRateLimit);
    for (let i = 0; i < ingestRateLimit.burst / eventBatchLimits.maxEvents; i++) {
      expect(take("token", eventBatchLimits.maxEvents, 0)).toEqual({ allowed: true });
    }
    expect(take("token", eventBatchLimits.maxEvents, 0)).toEqual({ allowed: false, retryAfterSeconds: 1 });
    expect(take("token", eventBatchLimits.maxEvents, 250)).toEqual({ allowed: true });
  });
});

describe("check", () => {
  it("check – answers as take would, spending nothing", () => {
    const { check, take } = limiter();
    expect(check("a", 100, 0)).toEqual({ allowed: true });
    expect(check("a", 100, 0)).toEqual({ allowed: true });
    take("a", 100, 0);
    expect(check("a", 10, 0)).toEqual({ allowed: false, retryAfterSeconds: 1 });
    expect(check("a", 10, 1_000)).toEqual({ allowed: true });
    expect(take("a", 10, 1_000)).toEqual({ allowed: true });
  });
});

describe("takeFromEach", () => {
  const three = () => {
    const token = limiter();
    const project = limiter({ burst: 50 });
    const address = limiter({ burst: 30 });
    return (cost: number, keys: { token?: string; project?: string; address?: string } = {}, now = 0) =>
      takeFromEach(
        [
          { name: "token", limiter: token, key: keys.token ?? "t" },
          { name: "project", limiter: project, key: keys.project ?? "p" },
          { name: "address", limiter: address, key: keys.address ?? "x" },
        ] as const,
        cost,
        now,
      );
  };

  it.each([
    { name: "every bucket can pay", first: 20, then: 10, expected: { allowed: true } },
    { name: "the address bucket cannot", first: 20, then: 11, expected: { allowed: false, limit: "address", retryAfterSeconds: 1 } },
    { name: "neither the project's nor the address's (the project is named)", first: 25, then: 30, expected: { allowed: false, limit: "project", retryAfterSeconds: 1 } },
  ])("takeFromEach – $name → $expected.allowed", ({ first, then, expected }) => {
    const take = three();
    expect(take(first)).toEqual({ allowed: true });
    expect(take(then)).toEqual(expected);
  });

  it("takeFromEach – a refusal by one bucket spends nothing from the others", () => {
    const take = three();
    expect(take(30, { address: "x1" })).toEqual({ allowed: true });
    expect(take(30, { address: "x2" })).toEqual({ allowed: false, limit: "project", retryAfterSeconds: 1 });
    // x2 and the token kept what the refused request would have cost.
    expect(take(30, { project: "q", address: "x2" })).toEqual({ allowed: true });
    expect(take(40, { token: "t", project: "r", address: "x3" })).toEqual({ allowed: true });
  });

  it("takeFromEach – fresh tokens do not reset the project's or the address's bucket", () => {
    const take = three();
    expect(take(30, { token: "t1" })).toEqual({ allowed: true });
    expect(take(1, { token: "t2" })).toEqual({ allowed: false, limit: "address", retryAfterSeconds: 1 });
    expect(take(20, { token: "t3", address: "y" })).toEqual({ allowed: true });
    expect(take(1, { token: "t4", address: "z" })).toEqual({ allowed: false, limit: "project", retryAfterSeconds: 1 });
  });
});

describe("sharedIngestRateLimit", () => {
  it.each([
    { rate: 10_000, burst: 50_000 },
    { rate: 5_000, burst: 25_000 },
    { rate: 100, burst: eventBatchLimits.maxEvents },
    { rate: 0.001, burst: eventBatchLimits.maxEvents },
  ])("sharedIngestRateLimit($rate) → burst $burst: five seconds' worth, at least one full batch", ({ rate, burst }) => {
    expect(sharedIngestRateLimit(rate)).toEqual({ ratePerSecond: rate, burst, maxKeys: 10_000 });
  });
});
