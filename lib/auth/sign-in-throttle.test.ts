import { randomUUID } from "node:crypto";
import { beforeAll, describe, expect, it } from "vitest";
import { getDb } from "@/lib/db";
import { forgiveSignInAttempt, signInEmailOf, signInLimits, spendSignInAttempt } from "./sign-in-throttle";

// RateLimiterDrizzle against the real database of this run (PGlite, or PostgreSQL with DATABASE_URL).

// Opening the database (and migrating it) belongs to the hook's time budget, not the first test's.
beforeAll(() => getDb());

const fresh = () => ({ email: `throttle-${randomUUID()}@example.com`, address: `10.${randomUUID()}` });

describe("spendSignInAttempt", () => {
  it("the account's limit spent → TooManyRequestsError with Retry-After ≤ the window; another account is unaffected", async () => {
    const db = await getDb();
    const attempt = fresh();
    for (let i = 0; i < signInLimits.account.points; i++) await spendSignInAttempt(db, { ...attempt, address: `a-${i}-${attempt.address}` });
    const refusal = await spendSignInAttempt(db, attempt).catch((error: unknown) => error);
    expect(refusal).toMatchObject({ status: 429, code: "too_many_requests" });
    const retryAfter = Number((refusal as { headers: Record<string, string> }).headers["Retry-After"]);
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(signInLimits.account.duration);
    await expect(spendSignInAttempt(db, { ...fresh(), address: attempt.address })).resolves.toBeUndefined();
  });

  it("concurrent attempts never let more than the limit through", async () => {
    const db = await getDb();
    const attempt = fresh();
    const results = await Promise.allSettled(
      Array.from({ length: signInLimits.account.points + 5 }, (_, i) => spendSignInAttempt(db, { ...attempt, address: `c-${i}-${attempt.address}` })),
    );
    expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(signInLimits.account.points);
  });

  it("the address's limit spent across many emails → TooManyRequestsError", async () => {
    const db = await getDb();
    const { address } = fresh();
    for (let i = 0; i < signInLimits.address.points; i++) await spendSignInAttempt(db, { ...fresh(), address });
    await expect(spendSignInAttempt(db, { ...fresh(), address })).rejects.toMatchObject({ status: 429 });
  });

  it("forgiveSignInAttempt → the account starts afresh (email compared case-insensitively)", async () => {
    const db = await getDb();
    const attempt = fresh();
    for (let i = 0; i < signInLimits.account.points; i++) await spendSignInAttempt(db, { ...attempt, address: `f-${i}-${attempt.address}` });
    await forgiveSignInAttempt(db, { ...attempt, email: attempt.email.toUpperCase() });
    await expect(spendSignInAttempt(db, attempt)).resolves.toBeUndefined();
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
    await expect(signInEmailOf(post("application/json", "{"))).rejects.toMatchObject({ status: 400 });
  });

  it("leaves the body for next-auth to read", async () => {
    const req = post("application/x-www-form-urlencoded", "email=a%40b.c");
    await signInEmailOf(req);
    expect(await req.text()).toBe("email=a%40b.c");
  });
});
