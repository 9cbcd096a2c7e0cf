import type { RateLimiterDrizzle, RateLimiterRes } from "rate-limiter-flexible";
import type { Db } from "@/lib/db";
import { rateLimits } from "@/lib/db/schema";
import { TooManyRequestsError } from "@/lib/errors";
import { loadRateLimiterFlexible } from "./sign-in-throttle";

// Limits on what sends mail (invitations, their resends, password resets), counted in the
// rate_limits table like sign-in attempts so that every app process shares them. Each attempt
// spends a point whatever its outcome: these limits bound how much mail one party can make the
// instance send, not failures.

/** Per key and window (seconds). */
export const actionLimits = {
  /** Invitations made or re-sent by one admin in one organization. */
  invitation: { points: 100, duration: 60 * 60 },
  /** Reset requests for one address, from anywhere. */
  passwordResetAccount: { points: 5, duration: 60 * 60 },
  /** Reset requests from one client address, whatever the addresses asked for. */
  passwordResetAddress: { points: 20, duration: 60 * 60 },
} as const;

export type ActionLimit = keyof typeof actionLimits;

const keyPrefixes: Record<ActionLimit, string> = {
  invitation: "invite-actor",
  passwordResetAccount: "reset-account",
  passwordResetAddress: "reset-address",
};

const limitersByDb = new WeakMap<Db, Map<ActionLimit, RateLimiterDrizzle>>();

function limiterFor(db: Db, limit: ActionLimit): RateLimiterDrizzle {
  let limiters = limitersByDb.get(db);
  if (!limiters) limitersByDb.set(db, (limiters = new Map()));
  let limiter = limiters.get(limit);
  if (!limiter) {
    const { RateLimiterDrizzle } = loadRateLimiterFlexible();
    limiter = new RateLimiterDrizzle({ storeClient: db, schema: rateLimits, keyPrefix: keyPrefixes[limit], ...actionLimits[limit] });
    limiters.set(limit, limiter);
  }
  return limiter;
}

const isLimitReached = (reason: unknown): reason is RateLimiterRes =>
  typeof reason === "object" && reason !== null && !(reason instanceof Error) && typeof (reason as RateLimiterRes).msBeforeNext === "number";

/**
 * Spends one point of each limit at its key (keys are hashed by the caller: no addresses of
 * people in the table); past any of them, TooManyRequestsError with Retry-After for the longest
 * wait. Call it outside a transaction: the limiter writes with `db` itself.
 */
export async function spendActionLimits(db: Db, spends: { limit: ActionLimit; key: string }[], message: string): Promise<void> {
  const results = await Promise.allSettled(spends.map(({ limit, key }) => limiterFor(db, limit).consume(key)));
  let waitMs = 0;
  for (const result of results) {
    if (result.status === "fulfilled") continue;
    if (!isLimitReached(result.reason)) throw result.reason;
    waitMs = Math.max(waitMs, result.reason.msBeforeNext);
  }
  if (waitMs > 0) throw new TooManyRequestsError(message, Math.max(1, Math.ceil(waitMs / 1000)));
}
