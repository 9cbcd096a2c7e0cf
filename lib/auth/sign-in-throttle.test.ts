import { randomUUID } from "node:crypto";
import { beforeAll, describe, expect, it } from "vitest";
import type { AppError } from "@/lib/errors";
import { getDb, type Db } from "@/lib/db";
import { forgiveSignInAttempt, signInEmailOf, signInLimits, spendSignInAttempt, type SignInAttempt } from "./sign-in-throttle";

// RateLimiterDrizzle against the real database of this run (PGlite, or PostgreSQL with DATABASE_URL).

// Opening the database (and migrating it) belongs to the hook's time budget, not the first test's.
beforeAll(() => getDb());

const fresh = () => ({ email: `throttle-${randomUUID()}@example.com`, address: `10.${randomUUID()}` });
const freshAddress = () => `10.${randomUUID()}`;

/** The refusal of `attempt`, or null when it was let through to the password check. */
async function refusalOf(db: Db, attempt: SignInAttempt): Promise<{ kind: string; code: string; retryAfter: number } | null> {
  try {
    await spendSignInAttempt(db, attempt);
    return null;
  } catch (error) {
    const refusal = error as AppError;
    return { kind: refusal.kind, code: refusal.code, retryAfter: refusal.hints.retryAfterSeconds ?? Number.NaN };
  }
}

/** `n` failed attempts at `email`, each from a fresh address; the addresses. */
async function failFromManyAddresses(db: Db, email: string, n: number): Promise<string[]> {
  const addresses = Array.from({ length: n }, freshAddress);
  for (const address of addresses) expect(await refusalOf(db, { email, address })).toBeNull();
  return addresses;
}

describe("spendSignInAttempt", () => {
  it("the account's limit spent from many addresses → each of them is refused with Retry-After ≤ the window; another account is unaffected", async () => {
    const db = await getDb();
    const { email } = fresh();
    const addresses = await failFromManyAddresses(db, email, signInLimits.account.points);
    for (const address of [addresses[0]!, addresses.at(-1)!]) {
      const refusal = await refusalOf(db, { email, address });
      expect(refusal).toMatchObject({ kind: "too_many_requests", code: "too_many_requests" });
      expect(refusal!.retryAfter).toBeGreaterThan(0);
      expect(refusal!.retryAfter).toBeLessThanOrEqual(signInLimits.account.duration);
    }
    expect(await refusalOf(db, { ...fresh(), address: addresses[0]! })).toBeNull();
  });

  it("the account's limit spent from one address → that address is refused; an address with no failure at it gets its attempt checked once", async () => {
    const db = await getDb();
    const attacker = fresh();
    for (let i = 0; i < signInLimits.account.points; i++) expect(await refusalOf(db, attacker)).toBeNull();
    expect(await refusalOf(db, attacker)).toMatchObject({ kind: "too_many_requests" });

    const owner = freshAddress();
    expect(await refusalOf(db, { email: attacker.email, address: owner })).toBeNull();
    // That attempt failed (no forgiveSignInAttempt): the owner's address has failed at the account now.
    expect(await refusalOf(db, { email: attacker.email, address: owner })).toMatchObject({ kind: "too_many_requests" });
  });

  it("forgiveSignInAttempt after the right password from a clean address → the account starts afresh; the guesser's address stays refused", async () => {
    const db = await getDb();
    const attacker = fresh();
    for (let i = 0; i < signInLimits.pair.points; i++) expect(await refusalOf(db, attacker)).toBeNull();
    const owner = { email: attacker.email, address: freshAddress() };
    expect(await refusalOf(db, owner)).toBeNull();
    await forgiveSignInAttempt(db, owner);

    expect(await refusalOf(db, attacker)).toMatchObject({ kind: "too_many_requests" });
    expect(await refusalOf(db, owner)).toBeNull();
  });

  it("a guesser's address refused 150 times → none of it counts against the account: the owner's attempt is still checked", async () => {
    const db = await getDb();
    const attacker = fresh();
    for (let i = 0; i < signInLimits.account.points; i++) expect(await refusalOf(db, attacker)).toBeNull();
    for (let i = 0; i < 150; i++) expect(await refusalOf(db, attacker), `refusal ${i + 1}`).toMatchObject({ kind: "too_many_requests" });
    expect(await refusalOf(db, { email: attacker.email, address: freshAddress() })).toBeNull();
  });

  it("a guesser with many addresses → at most the hourly ceiling of failures, then every address is refused", async () => {
    const db = await getDb();
    const { email } = fresh();
    await failFromManyAddresses(db, email, signInLimits.accountCeiling.points);
    const refusal = await refusalOf(db, { email, address: freshAddress() });
    expect(refusal).toMatchObject({ kind: "too_many_requests" });
    expect(refusal!.retryAfter).toBeGreaterThan(signInLimits.account.duration);
    expect(refusal!.retryAfter).toBeLessThanOrEqual(signInLimits.accountCeiling.duration);
  });

  it("concurrent attempts from one address never let more than its limit through", async () => {
    const db = await getDb();
    const attempt = fresh();
    const results = await Promise.all(Array.from({ length: signInLimits.pair.points + 5 }, () => refusalOf(db, attempt)));
    expect(results.filter((refusal) => refusal === null)).toHaveLength(signInLimits.pair.points);
  });

  it("concurrent attempts from fresh addresses past the account's limit → each address's one attempt, up to the ceiling", async () => {
    const db = await getDb();
    const { email } = fresh();
    await failFromManyAddresses(db, email, signInLimits.account.points);
    const addresses = Array.from({ length: 5 }, freshAddress);
    const results = await Promise.all(addresses.flatMap((address) => [refusalOf(db, { email, address }), refusalOf(db, { email, address })]));
    expect(results.filter((refusal) => refusal === null)).toHaveLength(addresses.length);
  });

  it("the address's limit spent across many emails → TooManyRequestsError", async () => {
    const db = await getDb();
    const address = freshAddress();
    for (let i = 0; i < signInLimits.address.points; i++) expect(await refusalOf(db, { ...fresh(), address })).toBeNull();
    expect(await refusalOf(db, { ...fresh(), address })).toMatchObject({ kind: "too_many_requests" });
  });

  it("forgiveSignInAttempt → the account starts afresh (email compared case-insensitively)", async () => {
    const db = await getDb();
    const attempt = fresh();
    for (let i = 0; i < signInLimits.account.points; i++) expect(await refusalOf(db, attempt)).toBeNull();
    await forgiveSignInAttempt(db, { ...attempt, email: attempt.email.toUpperCase() });
    expect(await refusalOf(db, attempt)).toBeNull();
  });
});

describe("signInEmailOf", () => {
  const post = (contentType: string, body: string) => new Request("http://x/api/auth/callback/credentials", { method: "POST", headers: { "content-type": contentType }, body });

  it.each([
    { name: "a form body", req: () => post("application/x-www-form-urlencoded", "email=a%40b.c&password=x"), email: "a@b.c" },
    { name: "a JSON body", req: () => post("application/json", '{"email":"a@b.c"}'), email: "a@b.c" },
    { name: "a JSON body whose email is not a string", req: () => post("application/json", '{"email":["a@b.c"]}'), email: "" },
    { name: "JSON null", req: () => post("application/json", "null"), email: "" },
    { name: "another content type", req: () => post("text/plain", "email=a@b.c"), email: "" },
  ])("$name → $email", async ({ req, email }) => {
    expect(await signInEmailOf(req())).toBe(email);
  });

  it("a JSON body that does not parse → BadRequestError", async () => {
    await expect(signInEmailOf(post("application/json", "{"))).rejects.toMatchObject({ kind: "bad_request" });
  });

  it("leaves the body for next-auth to read", async () => {
    const req = post("application/x-www-form-urlencoded", "email=a%40b.c");
    await signInEmailOf(req);
    expect(await req.text()).toBe("email=a%40b.c");
  });
});
