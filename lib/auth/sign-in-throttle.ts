import path from "node:path";
import type { RateLimiterDrizzle, RateLimiterRes } from "rate-limiter-flexible";
import { BadRequestError, TooManyRequestsError } from "@/lib/api/errors";
import type { Db } from "@/lib/db";
import { rateLimits } from "@/lib/db/schema";
import { sha256Hex } from "./secrets";

/**
 * Sign-in attempts allowed per account and per client address in a window. An attempt is
 * spent before the password is checked (so concurrent guesses cannot overshoot the limit) and
 * given back when it succeeds: in effect the limits count failures.
 */
export const signInLimits = {
  account: { points: 10, duration: 15 * 60 },
  address: { points: 50, duration: 15 * 60 },
} as const;

export type SignInAttempt = { email: string; address: string };

/**
 * rate-limiter-flexible loaded by Node itself, not through the bundler: RateLimiterDrizzle finds
 * drizzle-orm with a computed import(), which Next's bundler replaces by a throw ("expression is
 * too dynamic"). (Listing the package in next.config.ts serverExternalPackages does the same.)
 */
function loadRateLimiterFlexible(): typeof import("rate-limiter-flexible") {
  const { createRequire } = process.getBuiltinModule("node:module");
  return createRequire(path.join(process.cwd(), "package.json"))("rate-limiter-flexible");
}

type Limiters = { account: RateLimiterDrizzle; address: RateLimiterDrizzle };

// One pair per connection: the limiters hold the database they count in.
const limitersByDb = new WeakMap<Db, Limiters>();

function limitersFor(db: Db): Limiters {
  let limiters = limitersByDb.get(db);
  if (!limiters) {
    const { RateLimiterDrizzle } = loadRateLimiterFlexible();
    const make = (keyPrefix: string, limit: { points: number; duration: number }) =>
      new RateLimiterDrizzle({ storeClient: db, schema: rateLimits, keyPrefix, ...limit });
    limiters = { account: make("sign-in-account", signInLimits.account), address: make("sign-in-address", signInLimits.address) };
    limitersByDb.set(db, limiters);
  }
  return limiters;
}

// Accounts are keyed by a hash of the normalized email: the table never holds addresses of people.
const accountKey = (email: string) => sha256Hex(email.trim().toLowerCase());

/** rate-limiter-flexible rejects with its result object when the limit is reached, with an Error when the store fails. */
function isLimitReached(reason: unknown): reason is RateLimiterRes {
  return typeof reason === "object" && reason !== null && !(reason instanceof Error) && typeof (reason as RateLimiterRes).msBeforeNext === "number";
}

/** Spends one attempt of the account and of the address; TooManyRequestsError when either is used up. */
export async function spendSignInAttempt(db: Db, { email, address }: SignInAttempt): Promise<void> {
  const limiters = limitersFor(db);
  const results = await Promise.allSettled([limiters.account.consume(accountKey(email)), limiters.address.consume(address)]);
  const failure = results.find((r) => r.status === "rejected" && !isLimitReached(r.reason));
  if (failure) throw (failure as PromiseRejectedResult).reason;
  const waits = results.flatMap((r) => (r.status === "rejected" ? [(r.reason as RateLimiterRes).msBeforeNext] : []));
  if (waits.length > 0) {
    throw new TooManyRequestsError("Too many sign-in attempts. Try again later.", Math.max(1, Math.ceil(Math.max(...waits) / 1000)));
  }
}

/** After a successful sign-in: the account starts afresh and the address gets its attempt back. */
export async function forgiveSignInAttempt(db: Db, { email, address }: SignInAttempt): Promise<void> {
  const limiters = limitersFor(db);
  await Promise.all([limiters.account.delete(accountKey(email)), limiters.address.reward(address, 1)]);
}

/**
 * The email of a credentials sign-in request, read from a copy of its body (next-auth reads the
 * original). next-auth takes form or JSON bodies; a JSON body that does not parse is a 400 here
 * rather than next-auth's 500.
 */
export async function signInEmailOf(req: Request): Promise<string> {
  const contentType = req.headers.get("content-type") ?? "";
  const text = await req.clone().text();
  let email: unknown;
  if (contentType.includes("application/json")) {
    try {
      email = (JSON.parse(text) as { email?: unknown } | null)?.email;
    } catch {
      throw new BadRequestError("The request body is not valid JSON.");
    }
  } else if (contentType.includes("application/x-www-form-urlencoded")) {
    email = new URLSearchParams(text).get("email");
  }
  return typeof email === "string" ? email : "";
}
