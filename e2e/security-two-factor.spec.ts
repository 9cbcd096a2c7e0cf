import { expect, test } from "@playwright/test";
import { env } from "./owned-project";
import { createUserWithPassword, ownAddress, signInOverHttp } from "./sign-in-helpers";
import { codeAt, sameOrigin, wrongCode } from "./two-factor-helpers";

// Two-factor's security cases (docs/adr/0156-two-factor-totp.md): the code step is limited per
// user like a password, the password alone never makes a session, and only an OrganizationAdmin
// may require two-factor of an organization.

test.describe.configure({ timeout: 300_000 });

const codeLimit = 10;
const base = () => env("E2E_BASE_URL");

/** Turns two-factor on for the user through the API, with a console session of theirs; the secret. */
async function enrolOverHttp(user: { email: string; password: string }) {
  const { sessionCookie } = await signInOverHttp({ ...user, address: ownAddress() });
  expect(sessionCookie).not.toBeNull();
  const headers = { cookie: sessionCookie!, ...sameOrigin(), "Content-Type": "application/json" };
  const started = await fetch(`${base()}/api/me/two-factor/enrolment`, { method: "POST", headers });
  expect(started.status).toBe(201);
  const { secret } = (await started.json()) as { secret: string };
  const confirmed = await fetch(`${base()}/api/me/two-factor/confirm`, { method: "POST", headers, body: JSON.stringify({ code: codeAt(secret) }) });
  expect(confirmed.status).toBe(200);
  return secret;
}

/** The challenge a right password earns a user with two-factor (no session cookie yet). */
async function challengeOf(user: { email: string; password: string }) {
  const result = await signInOverHttp({ ...user, address: ownAddress() });
  expect(result.sessionCookie).toBeNull();
  const error = new URL(JSON.parse(result.body).url as string).searchParams.get("error")!;
  expect(error).toMatch(/^TwoFactorRequired:/);
  return error.slice("TwoFactorRequired:".length);
}

/** The code step over HTTP, as the form posts it. */
async function postCode(email: string, challenge: string, code: string) {
  const csrf = await fetch(`${base()}/api/auth/csrf`);
  const { csrfToken } = (await csrf.json()) as { csrfToken: string };
  const response = await fetch(`${base()}/api/auth/callback/credentials`, {
    method: "POST",
    redirect: "manual",
    headers: { cookie: csrf.headers.getSetCookie().map((c) => c.split(";")[0]).join("; "), "Content-Type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({ email, challenge, code, csrfToken, callbackUrl: "/projects", json: "true" }),
  });
  const sessionCookie = response.headers.getSetCookie().map((c) => c.split(";")[0]!).find((c) => /session-token=./.test(c)) ?? null;
  return { status: response.status, retryAfter: response.headers.get("retry-after"), body: await response.text(), sessionCookie };
}

test(`POST /api/auth/callback/credentials – the right password of a user with two-factor → no session; ${codeLimit} wrong codes → 429 with Retry-After, even for the right code; a forged challenge → refused`, async () => {
  const user = await createUserWithPassword("two-factor-throttle", "Viewer");
  const secret = await enrolOverHttp(user);
  const challenge = await challengeOf(user);

  const forged = await postCode(user.email, `${challenge.split(".")[0]}.AAAA`, codeAt(secret, Date.now() + 30_000));
  expect(forged.sessionCookie).toBeNull();
  expect(JSON.parse(forged.body).url).toContain("error=TwoFactorChallengeExpired");

  for (let i = 0; i < codeLimit; i++) {
    const refused = await postCode(user.email, challenge, wrongCode(secret));
    expect(refused.status).toBe(401);
    expect(refused.sessionCookie).toBeNull();
  }
  const limited = await postCode(user.email, challenge, codeAt(secret, Date.now() + 30_000));
  expect(limited.status).toBe(429);
  expect(JSON.parse(limited.body)).toMatchObject({ status: 429, code: "too_many_requests" });
  expect(Number(limited.retryAfter)).toBeGreaterThan(0);
  expect(limited.sessionCookie).toBeNull();
});

test("PUT /api/organizations/{orgId}/two-factor – a Viewer's console session → 403, the setting unchanged", async () => {
  const viewer = await createUserWithPassword("two-factor-viewer", "Viewer");
  const { sessionCookie } = await signInOverHttp({ ...viewer, address: ownAddress() });
  const response = await fetch(`${base()}/api/organizations/${viewer.orgId}/two-factor`, {
    method: "PUT",
    headers: { cookie: sessionCookie!, ...sameOrigin(), "Content-Type": "application/json" },
    body: JSON.stringify({ required: true }),
  });
  expect(response.status).toBe(403);
  expect(response.headers.get("content-type")).toContain("application/problem+json");
  // The Viewer's session still works: nothing was required of the organization.
  expect((await fetch(`${base()}/api/me`, { headers: { cookie: sessionCookie! } })).status).toBe(200);
});
