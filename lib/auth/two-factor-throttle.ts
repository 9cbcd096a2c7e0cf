import type { RateLimiterDrizzle } from "rate-limiter-flexible";
import type { Db } from "@/lib/db";
import { rateLimits } from "@/lib/db/schema";
import { TooManyRequestsError } from "@/lib/errors";
import { isLimitReached, loadRateLimiterFlexible } from "./sign-in-throttle";

/**
 * Second-factor codes a user may get wrong in a window, wherever they are typed: the sign-in's
 * code step, and the password or code that turns two-factor off (docs/adr/0156-two-factor-totp.md).
 * Keyed by the user, not the address: whoever reaches the code step already has the password,
 * and spreading guesses over addresses must not multiply them. Ten in 15 minutes, like a
 * password at one account: three valid codes of a million each time, so ~1 in 33,000 a window.
 */
export const twoFactorLimit = { points: 10, duration: 15 * 60 } as const;

const limiters = new WeakMap<Db, RateLimiterDrizzle>();

function limiterFor(db: Db): RateLimiterDrizzle {
  let limiter = limiters.get(db);
  if (!limiter) {
    const { RateLimiterDrizzle } = loadRateLimiterFlexible();
    limiter = new RateLimiterDrizzle({ storeClient: db, schema: rateLimits, keyPrefix: "two-factor-user", ...twoFactorLimit });
    limiters.set(db, limiter);
  }
  return limiter;
}

/** Spends one attempt of the user's before a code is checked; 429 (with Retry-After) when they are used up. */
export async function spendTwoFactorAttempt(db: Db, userId: string): Promise<void> {
  try {
    await limiterFor(db).consume(userId);
  } catch (reason) {
    if (!isLimitReached(reason)) throw reason;
    throw new TooManyRequestsError("Too many wrong codes. Try again later.", Math.max(1, Math.ceil(reason.msBeforeNext / 1000)));
  }
}

/** A right code: the user's failures are forgotten. */
export async function forgiveTwoFactorAttempts(db: Db, userId: string): Promise<void> {
  await limiterFor(db).delete(userId);
}
