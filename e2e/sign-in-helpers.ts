import { randomUUID } from "node:crypto";
import { expect, type Browser } from "@playwright/test";
import { cli, cliVia, env } from "./owned-project";

export { cli };

// Accounts of the sign-in security specs' own, made with the CLI's commands (never the demo
// admin, whom other specs sign in as), and sign-in over HTTP the way the console's form does it.
// On the suite's app, or on an instance of a spec's own (`app`).

export type OwnUser = { id: string; email: string; password: string };

/** The app a sign-in is sent to: its URL, and its DATA_DIR (its admin channel). */
export type SignInApp = { baseUrl: string; dataDir: string };

export const suiteApp = (): SignInApp => ({ baseUrl: env("E2E_BASE_URL"), dataDir: env("E2E_DATA_DIR") });

/** A fresh user with a password; with `role`, a member of a fresh project. */
export async function createUserWithPassword(label: string, role?: "Viewer", app = suiteApp()): Promise<OwnUser & { projectId?: string; orgId?: string }> {
  const run = randomUUID();
  const email = `${label}-${run}@example.com`;
  const password = `pw-${randomUUID()}`;
  const createUser = cliVia<{ id: string }>(app.dataDir, "user", "create", "--email", email, "--password", password);
  if (!role) return { id: (await createUser).id, email, password };
  const [user, org] = await Promise.all([createUser, cli<{ id: string }>("org", "create", "--name", `${label} ${run}`)]);
  const project = await cli<{ id: string }>("project", "create", "--org", org.id, "--name", `${label} e2e`);
  await cli("member", "add", "--user", email, "--project", project.id, "--role", role);
  return { id: user.id, email, password, projectId: project.id, orgId: org.id };
}

/**
 * A client address of the test's own, so that its attempts never count against other specs', for
 * an app that trusts the test client's X-Forwarded-For (own-instance.ts, startAddressTrustingApp).
 */
export const ownAddress = () => `198.51.100.${Math.floor(Math.random() * 250) + 1}-${randomUUID().slice(0, 8)}`;

export type SignInResult = { status: number; headers: Headers; body: string; sessionCookie: string | null };

/**
 * POST /api/auth/callback/credentials as the sign-in form sends it (CSRF token and its cookie
 * from GET /api/auth/csrf, json=true). `sessionCookie` is "name=value" of the session cookie set.
 */
export async function signInOverHttp(input: { email: string; password: string; address?: string; callbackUrl?: string; app?: SignInApp }): Promise<SignInResult> {
  const base = input.app?.baseUrl ?? env("E2E_BASE_URL");
  const addressHeader: Record<string, string> = input.address ? { "X-Forwarded-For": input.address } : {};
  const csrf = await fetch(`${base}/api/auth/csrf`, { headers: addressHeader, signal: AbortSignal.timeout(30_000) });
  const { csrfToken } = (await csrf.json()) as { csrfToken: string };
  const csrfCookie = csrf.headers.getSetCookie().map((c) => c.split(";")[0]).join("; ");
  const response = await fetch(`${base}/api/auth/callback/credentials`, {
    method: "POST",
    redirect: "manual",
    headers: { ...addressHeader, cookie: csrfCookie, "Content-Type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({ email: input.email, password: input.password, csrfToken, callbackUrl: input.callbackUrl ?? "/projects", json: "true" }),
    signal: AbortSignal.timeout(30_000),
  });
  const sessionCookie = response.headers.getSetCookie().map((c) => c.split(";")[0]!).find((c) => /session-token=./.test(c)) ?? null;
  return { status: response.status, headers: response.headers, body: await response.text(), sessionCookie };
}

/**
 * Signs `user` in through the console's form from `address` when that address or the account
 * has used up its attempts: the form must say to wait, and stay on /login. Resolves with the
 * sign-in request's status and Retry-After.
 */
export async function expectSignInFormRefused(browser: Browser, user: { email: string; password: string }, address: string, app = suiteApp()) {
  const context = await browser.newContext({ baseURL: app.baseUrl, extraHTTPHeaders: { "X-Forwarded-For": address } });
  try {
    const page = await context.newPage();
    await page.goto("/login");
    await page.getByLabel("Email").fill(user.email);
    await page.getByLabel("Password").fill(user.password);
    const answered = page.waitForResponse((response) => response.url().includes("/api/auth/callback/credentials"));
    await page.getByRole("button", { name: "Sign in" }).click();
    const answer = await answered;
    await expect(page.locator("#sign-in-error")).toHaveText(/Too many sign-in attempts\. Try again in \d+ (minutes?|seconds)\./);
    await expect(page).toHaveURL(/\/login/);
    return { status: answer.status(), retryAfter: answer.headers()["retry-after"] };
  } finally {
    await context.close();
  }
}
