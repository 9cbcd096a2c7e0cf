import path from "node:path";
import type { RateLimiterDrizzle, RateLimiterRes } from "rate-limiter-flexible";
import { BadRequestError, TooManyRequestsError } from "@/lib/errors";
import type { Db } from "@/lib/db";
import { rateLimits } from "@/lib/db/schema";
import { sha256Hex } from "./secrets";

/**
 * Failed sign-ins allowed in a window (docs/security.md, "Lock-out policy"). An attempt is
 * spent before the password is checked (so concurrent guesses cannot overshoot a limit), given
 * back when it is refused unchecked or succeeds: in effect the limits count failures.
 * - address: from one client address, whatever the accounts;
 * - pair: from one address at one account;
 * - account: at one account from anywhere. Past it the account is locked for the addresses that
 *   failed at it; an address that has not gets its attempt checked, and a wrong one makes it
 *   one that has. A guesser's addresses lock themselves out, not the account's owner;
 * - accountCeiling: at one account in an hour, whoever tries: OWASP ASVS 2.2.1's bound (at most
 *   100 an hour) on a guesser with many addresses. Only such a guesser can reach it, and then it
 *   locks everyone out for the rest of the hour.
 */
export const signInLimits = {
  address: { points: 50, duration: 15 * 60 },
  pair: { points: 10, duration: 15 * 60 },
  account: { points: 10, duration: 15 * 60 },
  accountCeiling: { points: 100, duration: 60 * 60 },
} as const;

export type SignInAttempt = { email: string; address: string };

/**
 * rate-limiter-flexible loaded by Node itself, not through the bundler: RateLimiterDrizzle finds
 * drizzle-orm with a computed import(), which Next's bundler replaces by a throw ("expression is
 * too dynamic"). (Listing the package in next.config.ts serverExternalPackages does the same.)
 */
export function loadRateLimiterFlexible(): typeof import("rate-limiter-flexible") {
  const { createRequire } = process.getBuiltinModule("node:module");
  return createRequire(path.join(process.cwd(), "package.json"))("rate-limiter-flexible");
}

type Limit = keyof typeof signInLimits;
type Limiters = Record<Limit, RateLimiterDrizzle>;

/** Key prefixes in rate_limits (those of the account and the address predate the others). */
const keyPrefixes: Record<Limit, string> = {
  address: "sign-in-address",
  pair: "sign-in-pair",
  account: "sign-in-account",
  accountCeiling: "sign-in-account-hour",
};

// One set per connection: the limiters hold the database they count in.
const limitersByDb = new WeakMap<Db, Limiters>();

function limitersFor(db: Db): Limiters {
  let limiters = limitersByDb.get(db);
  if (!limiters) {
    const { RateLimiterDrizzle } = loadRateLimiterFlexible();
    const make = (limit: Limit) => new RateLimiterDrizzle({ storeClient: db, schema: rateLimits, keyPrefix: keyPrefixes[limit], ...signInLimits[limit] });
    limiters = { address: make("address"), pair: make("pair"), account: make("account"), accountCeiling: make("accountCeiling") };
    limitersByDb.set(db, limiters);
  }
  return limiters;
}

// Accounts are keyed by a hash of the normalized email, pairs by a hash of that and the address:
// the table never holds addresses of people.
const accountKey = (email: string) => sha256Hex(email.trim().toLowerCase());
const keysOf = ({ email, address }: SignInAttempt): Record<Limit, string> => {
  const account = accountKey(email);
  return { address, pair: sha256Hex(`${account}\n${address}`), account, accountCeiling: account };
};

/** rate-limiter-flexible rejects with its result object when the limit is reached, with an Error when the store fails. */
export function isLimitReached(reason: unknown): reason is RateLimiterRes {
  return typeof reason === "object" && reason !== null && !(reason instanceof Error) && typeof (reason as RateLimiterRes).msBeforeNext === "number";
}

/** The limiters' answers to one attempt, each taken whether or not its limit was reached. */
type Spent = Partial<Record<Limit, RateLimiterRes>>;

/** Spends one attempt of each of `limits`; rethrows a store failure after giving back what was taken. */
async function spend(limiters: Limiters, keys: Record<Limit, string>, limits: Limit[], spent: Spent): Promise<void> {
  const results = await Promise.allSettled(limits.map((limit) => limiters[limit].consume(keys[limit])));
  let failure: unknown;
  results.forEach((result, i) => {
    if (result.status === "fulfilled") spent[limits[i]!] = result.value;
    else if (isLimitReached(result.reason)) spent[limits[i]!] = result.reason;
    else failure ??= result.reason;
  });
  if (failure) {
    await giveBack(limiters, keys, spent);
    throw failure;
  }
}

async function giveBack(limiters: Limiters, keys: Record<Limit, string>, spent: Spent): Promise<void> {
  await Promise.all((Object.keys(spent) as Limit[]).map((limit) => limiters[limit].reward(keys[limit], 1)));
}

const isOver = (spent: Spent, limit: Limit) => (spent[limit]?.consumedPoints ?? 0) > signInLimits[limit].points;

async function refuse(limiters: Limiters, keys: Record<Limit, string>, spent: Spent, waitMs: number): Promise<never> {
  await giveBack(limiters, keys, spent);
  throw new TooManyRequestsError("Too many sign-in attempts. Try again later.", Math.max(1, Math.ceil(waitMs / 1000)));
}

/**
 * Spends one attempt of the address, the pair, the account and its hourly ceiling; refuses with
 * TooManyRequestsError (Retry-After: when the attempt could be let through) and gives them back
 * when the attempt may not be checked. The address's own limits come first, so that a refused
 * guesser never counts against the account.
 */
export async function spendSignInAttempt(db: Db, attempt: SignInAttempt): Promise<void> {
  const limiters = limitersFor(db);
  const keys = keysOf(attempt);
  const spent: Spent = {};
  await spend(limiters, keys, ["address", "pair"], spent);
  const own = (["address", "pair"] as const).filter((limit) => isOver(spent, limit));
  if (own.length > 0) await refuse(limiters, keys, spent, Math.max(...own.map((limit) => spent[limit]!.msBeforeNext)));

  await spend(limiters, keys, ["account", "accountCeiling"], spent);
  if (isOver(spent, "accountCeiling")) await refuse(limiters, keys, spent, spent.accountCeiling!.msBeforeNext);
  // Past the account's limit, only an address with no failure at it (this is its first attempt) is checked.
  if (isOver(spent, "account") && spent.pair!.consumedPoints > 1) {
    await refuse(limiters, keys, spent, Math.min(spent.account!.msBeforeNext, spent.pair!.msBeforeNext));
  }
}

/**
 * After a successful sign-in: the account and the pair start afresh, the address and the
 * account's hourly ceiling get the attempt back. The pairs of other addresses keep their
 * failures: a guesser's address stays refused past its pair's limit.
 */
export async function forgiveSignInAttempt(db: Db, attempt: SignInAttempt): Promise<void> {
  const limiters = limitersFor(db);
  const keys = keysOf(attempt);
  await Promise.all([
    limiters.account.delete(keys.account),
    limiters.pair.delete(keys.pair),
    limiters.address.reward(keys.address, 1),
    limiters.accountCeiling.reward(keys.accountCeiling, 1),
  ]);
}

/**
 * The fields of a credentials sign-in request, read from a copy of its body (next-auth reads the
 * original). next-auth takes form or JSON bodies; a JSON body that does not parse is a 400 here
 * rather than next-auth's 500.
 */
export async function signInFieldsOf(req: Request): Promise<Record<string, unknown>> {
  const contentType = req.headers.get("content-type") ?? "";
  const text = await req.clone().text();
  if (contentType.includes("application/json")) {
    try {
      const parsed = JSON.parse(text) as unknown;
      return parsed && typeof parsed === "object" ? (parsed as Record<string, unknown>) : {};
    } catch {
      throw new BadRequestError("The request body is not valid JSON.");
    }
  }
  if (contentType.includes("application/x-www-form-urlencoded")) return Object.fromEntries(new URLSearchParams(text));
  return {};
}

/** The email of a credentials sign-in request ("" when it has none). */
export async function signInEmailOf(req: Request): Promise<string> {
  const { email } = await signInFieldsOf(req);
  return typeof email === "string" ? email : "";
}
