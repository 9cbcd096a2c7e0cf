import { expect, test } from "@playwright/test";
import { startAddressTrustingApp, type AddressTrustingApp } from "./own-instance";
import { createUserWithPassword as createUserOn, expectSignInFormRefused, ownAddress, signInOverHttp as signInOn, type SignInApp } from "./sign-in-helpers";

// Bounds, not expectations: each CLI call (180 s) and request (30 s) is bounded too; the machine may be loaded.
test.describe.configure({ timeout: 300_000 });

// Finding 2 of the first review: sign-in had no limit; finding 7 of the second (issue 30): anyone
// could lock any account. Each test uses accounts and client addresses of its own, on an app
// that takes the test's X-Forwarded-For as its address (own-instance.ts: an instance trusting
// loopback, unless the suite's app does), so nothing here locks out anyone else.
// The limits (lib/auth/sign-in-throttle.ts, docs/security.md "Lock-out policy"), per 15 min: 10
// failures per account, past which only the addresses that failed at it are refused; 10 per
// address at one account; 50 per address.

const accountLimit = 10;
const addressLimit = 50;

let trusting: AddressTrustingApp | undefined;
let app: SignInApp;

test.beforeAll(async () => {
  test.setTimeout(300_000);
  trusting = await startAddressTrustingApp("sign-in-throttle");
  app = trusting;
});

test.afterAll(async () => {
  test.setTimeout(60_000);
  await trusting?.stop();
});

const createUserWithPassword = (label: string) => createUserOn(label, undefined, app);
const signInOverHttp = (input: Omit<Parameters<typeof signInOn>[0], "app">) => signInOn({ ...input, app });

function expectTooManyRequests(result: Awaited<ReturnType<typeof signInOverHttp>>) {
  expect(result.status).toBe(429);
  expect(result.headers.get("content-type")).toContain("application/problem+json");
  expect(JSON.parse(result.body)).toMatchObject({ status: 429, code: "too_many_requests" });
  const retryAfter = Number(result.headers.get("retry-after"));
  expect(retryAfter).toBeGreaterThan(0);
  expect(retryAfter).toBeLessThanOrEqual(15 * 60);
  expect(result.sessionCookie).toBeNull();
}

test("POST /api/auth/callback/credentials – the account's limit spent from many addresses → 429 with Retry-After from each of them, even with the right password; another account is unaffected", async () => {
  const [victim, bystander] = await Promise.all([createUserWithPassword("throttle-victim"), createUserWithPassword("throttle-bystander")]);
  const address = ownAddress();
  for (let i = 0; i < accountLimit; i++) {
    // Spread over addresses: the account's limit holds whichever address the guesses come from.
    const result = await signInOverHttp({ email: victim.email, password: "wrong-password", address: `${address}-${i}` });
    expect(result.status, `attempt ${i + 1}`).toBe(401);
  }
  expectTooManyRequests(await signInOverHttp({ email: victim.email, password: victim.password, address: `${address}-0` }));
  expectTooManyRequests(await signInOverHttp({ email: victim.email, password: victim.password, address: `${address}-${accountLimit - 1}` }));

  const other = await signInOverHttp({ email: bystander.email, password: bystander.password, address: `${address}-0` });
  expect(other.status).toBe(200);
  expect(other.sessionCookie).not.toBeNull();
});

test("POST /api/auth/callback/credentials – an attacker's address has locked the account → the owner's right password from an address that has not failed → 200; the attacker's address stays refused", async () => {
  const owner = await createUserWithPassword("throttle-owner");
  const attacker = ownAddress();
  for (let i = 0; i < accountLimit; i++) {
    expect((await signInOverHttp({ email: owner.email, password: `guess-${i}`, address: attacker })).status, `guess ${i + 1}`).toBe(401);
  }
  // Locked for the attacker's address, the right password included.
  expectTooManyRequests(await signInOverHttp({ email: owner.email, password: owner.password, address: attacker }));

  const signedIn = await signInOverHttp({ email: owner.email, password: owner.password, address: ownAddress() });
  expect(signedIn.status).toBe(200);
  expect(signedIn.sessionCookie).not.toBeNull();

  expectTooManyRequests(await signInOverHttp({ email: owner.email, password: owner.password, address: attacker }));
  expectTooManyRequests(await signInOverHttp({ email: owner.email, password: "another-guess", address: attacker }));
});

test("POST /api/auth/callback/credentials – past the account's limit, an address that has not failed gets one attempt: a wrong password → 401, then it is refused too", async () => {
  const user = await createUserWithPassword("throttle-clean");
  const attacker = ownAddress();
  for (let i = 0; i < accountLimit; i++) expect((await signInOverHttp({ email: user.email, password: "wrong", address: attacker })).status).toBe(401);
  const second = ownAddress();
  expect((await signInOverHttp({ email: user.email, password: "also-wrong", address: second })).status).toBe(401);
  expectTooManyRequests(await signInOverHttp({ email: user.email, password: user.password, address: second }));
  // A third address still has its attempt.
  expect((await signInOverHttp({ email: user.email, password: user.password, address: ownAddress() })).status).toBe(200);
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
  const base = app.baseUrl;
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

  expect((await expectSignInFormRefused(browser, user, address, app)).status).toBe(429);
});
