import { expect, test } from "@playwright/test";
import { env } from "./owned-project";
import { createUserWithPassword, expectSignInFormRefused, ownAddress, signInOverHttp } from "./sign-in-helpers";

// Bounds, not expectations: each CLI call (180 s) and request (30 s) is bounded too; the machine may be loaded.
test.describe.configure({ timeout: 300_000 });

// Finding 2: sign-in had no limit. Each test uses accounts and a client address (X-Forwarded-For,
// the default CLIENT_IP_HEADER) of its own, so nothing here locks out the demo admin.
// The limits (lib/auth/sign-in-throttle.ts): 10 failures per account, 50 per address, per 15 min.

const accountLimit = 10;
const addressLimit = 50;

function expectTooManyRequests(result: Awaited<ReturnType<typeof signInOverHttp>>) {
  expect(result.status).toBe(429);
  expect(result.headers.get("content-type")).toContain("application/problem+json");
  expect(JSON.parse(result.body)).toMatchObject({ status: 429, code: "too_many_requests" });
  const retryAfter = Number(result.headers.get("retry-after"));
  expect(retryAfter).toBeGreaterThan(0);
  expect(retryAfter).toBeLessThanOrEqual(15 * 60);
  expect(result.sessionCookie).toBeNull();
}

test("POST /api/auth/callback/credentials – the 11th attempt on an account is 429 with Retry-After even with the right password; another account is unaffected", async () => {
  const [victim, bystander] = await Promise.all([createUserWithPassword("throttle-victim"), createUserWithPassword("throttle-bystander")]);
  const address = ownAddress();
  for (let i = 0; i < accountLimit; i++) {
    // Spread over addresses: the account's limit holds whichever address the guesses come from.
    const result = await signInOverHttp({ email: victim.email, password: "wrong-password", address: `${address}-${i}` });
    expect(result.status, `attempt ${i + 1}`).toBe(401);
  }
  expectTooManyRequests(await signInOverHttp({ email: victim.email, password: victim.password, address }));

  const other = await signInOverHttp({ email: bystander.email, password: bystander.password, address });
  expect(other.status).toBe(200);
  expect(other.sessionCookie).not.toBeNull();
});

test("POST /api/auth/callback/credentials – an unknown email is limited like a known one", async () => {
  const email = `nobody-${ownAddress()}@example.com`;
  const address = ownAddress();
  for (let i = 0; i < accountLimit; i++) {
    expect((await signInOverHttp({ email, password: "x", address })).status).toBe(401);
  }
  expectTooManyRequests(await signInOverHttp({ email, password: "x", address }));
});

test("POST /api/auth/callback/credentials – a successful sign-in resets the account's count", async () => {
  const user = await createUserWithPassword("throttle-reset");
  const address = ownAddress();
  for (let i = 0; i < accountLimit - 1; i++) expect((await signInOverHttp({ email: user.email, password: "wrong", address })).status).toBe(401);
  expect((await signInOverHttp({ email: user.email, password: user.password, address })).status).toBe(200);
  for (let i = 0; i < accountLimit; i++) {
    expect((await signInOverHttp({ email: user.email, password: "wrong", address })).status, `attempt ${i + 1} after the reset`).toBe(401);
  }
  expectTooManyRequests(await signInOverHttp({ email: user.email, password: user.password, address }));
});

test("POST /api/auth/callback/credentials – the 51st failure from one address is 429 for any account; other addresses are unaffected", async () => {
  const user = await createUserWithPassword("throttle-address");
  const address = ownAddress();
  // Five at a time: the failures are independent, and scrypt runs on the server's thread pool.
  for (let batch = 0; batch < addressLimit / 5; batch++) {
    const results = await Promise.all(
      Array.from({ length: 5 }, () => signInOverHttp({ email: `guess-${ownAddress()}@example.com`, password: "x", address })),
    );
    expect(results.map((r) => r.status)).toEqual([401, 401, 401, 401, 401]);
  }
  expectTooManyRequests(await signInOverHttp({ email: user.email, password: user.password, address }));
  expect((await signInOverHttp({ email: user.email, password: user.password, address: ownAddress() })).status).toBe(200);
});

test("POST /api/auth/callback/credentials – malformed bodies are 4xx, never 500", async () => {
  const base = env("E2E_BASE_URL");
  const address = ownAddress();
  const cases = [
    { name: "JSON that does not parse", contentType: "application/json", body: "{", status: 400 },
    { name: "JSON without a CSRF token", contentType: "application/json", body: '{"email":"a@b.c","password":"x"}', status: 302 },
  ];
  for (const c of cases) {
    const response = await fetch(`${base}/api/auth/callback/credentials`, {
      method: "POST",
      redirect: "manual",
      headers: { "Content-Type": c.contentType, "X-Forwarded-For": address },
      body: c.body,
      signal: AbortSignal.timeout(30_000),
    });
    expect(response.status, c.name).toBe(c.status);
    if (c.status === 400) expect(response.headers.get("content-type"), c.name).toContain("application/problem+json");
  }
});

test("GET /login – the form says so when the account's attempts are used up", async ({ browser }) => {
  const user = await createUserWithPassword("throttle-form");
  const address = ownAddress();
  for (let i = 0; i < accountLimit; i++) expect((await signInOverHttp({ email: user.email, password: "wrong", address })).status).toBe(401);

  expect((await expectSignInFormRefused(browser, user, address)).status).toBe(429);
});
