import { randomUUID } from "node:crypto";
import { expect, test, type Browser, type Page } from "@playwright/test";
import { screenshots } from "./console-helpers";
import { cliVia } from "./owned-project";
import { startOwnInstance, type OwnInstance } from "./own-instance";
import { startOidcProvider, type LoopbackOidcProvider } from "../testing/oidc-provider";

// Single sign-on through a real OpenID provider on loopback (testing/oidc-provider.ts: the
// certified `oidc-provider`, its own login and consent pages filled in Chromium), on an app of the
// spec's own. An OrganizationAdmin configures it in the console; a member signs in through the
// provider and lands in the console; a new address of the domain joins with the default role.
// ID tokens with another `iss`, another `aud` or a past `exp` (re-signed with the provider's own
// key, so only that check can refuse them) are refused with no session; "require SSO" refuses
// the password. docs/adr/0159-organization-sso.md.

test.describe.configure({ mode: "serial" });

let instance: OwnInstance | undefined;
let idp: LoopbackOidcProvider | undefined;
let base: string;
let adminToken: string;
let admin: { email: string; password: string };
let orgId: string;
const run = randomUUID().slice(0, 8);
const domain = `acme-${run}.example`;
const member = { email: `member@${domain}`, password: `pw-${randomUUID()}` };
const newcomer = `newcomer@${domain}`;
const outsider = `outsider-${run}@elsewhere.example`;
const clientSecret = `idp-secret-${randomUUID()}`;

const api = async (method: string, path: string, body?: unknown) => {
  const response = await fetch(`${base}${path}`, {
    method,
    headers: { Authorization: `Bearer ${adminToken}`, ...(body === undefined ? {} : { "Content-Type": "application/json" }) },
    body: body === undefined ? undefined : JSON.stringify(body),
    signal: AbortSignal.timeout(60_000),
  });
  return { status: response.status, text: await response.text() };
};

/** Points the organization's SSO at another client of the provider (the secret kept). */
async function useClient(clientId: string, extra: Record<string, unknown> = {}) {
  const saved = await api("PUT", `/api/organizations/${orgId}/sso`, { issuer: idp!.issuer, clientId, emailDomain: domain, defaultRole: "Editor", requireSso: false, ...extra });
  expect(saved.status, saved.text).toBe(200);
}

async function signInWithPassword(page: Page, user: { email: string; password: string }) {
  await page.goto(`${base}/login`);
  await page.getByLabel("Email").fill(user.email);
  await page.getByLabel("Password").fill(user.password);
  await page.getByRole("button", { name: "Sign in", exact: true }).click();
}

/** The login page's SSO step, then the provider's own login and consent pages. */
async function startSso(page: Page, email: string) {
  await page.goto(`${base}/login`);
  await page.getByRole("button", { name: "Continue with single sign-on" }).click();
  await page.getByLabel("Work e-mail").fill(email);
  await page.getByRole("button", { name: "Go to your identity provider" }).click();
  await page.waitForURL((url) => url.origin === idp!.issuer, { timeout: 60_000 });
  await page.locator("input[name=login]").fill(email);
  await page.locator("input[name=password]").fill("any password: the provider's development login");
  await page.getByRole("button", { name: "Sign-in" }).click();
  await page.getByRole("button", { name: "Continue" }).click();
  await page.waitForURL((url) => url.origin === base, { timeout: 60_000 });
}

/** A fresh browser context per sign-in: no session at the provider or the app carried over. */
async function inFreshContext<T>(browser: Browser, body: (page: Page) => Promise<T>): Promise<T> {
  const context = await browser.newContext();
  try {
    return await body(await context.newPage());
  } finally {
    await context.close();
  }
}

/** Who the page's cookies sign in as: /api/me's address, or its status when there is no session. */
async function signedInAs(page: Page): Promise<string | number> {
  const response = await page.request.get(`${base}/api/me`);
  return response.ok() ? ((await response.json()) as { user: { email: string } }).user.email : response.status();
}

test.beforeAll(async () => {
  test.setTimeout(540_000);
  instance = await startOwnInstance("sso", {});
  base = instance.app.baseUrl;
  adminToken = instance.app.token;
  admin = { email: instance.app.adminEmail, password: instance.app.adminPassword };
  const me = await api("GET", "/api/me");
  orgId = (JSON.parse(me.text) as { organizations: { id: string; role: string | null }[] }).organizations.find((org) => org.role === "OrganizationAdmin")!.id;
  await cliVia(instance.dataDir, "user", "create", "--email", member.email, "--password", member.password);
  await cliVia(instance.dataDir, "member", "add", "--user", member.email, "--org", orgId, "--role", "Viewer");
  // The redirect URI as the console shows it to register at the provider.
  const { callbackUrl } = JSON.parse((await api("GET", `/api/organizations/${orgId}/sso`)).text) as { callbackUrl: string };
  const client = (clientId: string, tamper?: "wrong-issuer" | "wrong-audience" | "expired") => ({ clientId, clientSecret, redirectUris: [callbackUrl], tamper });
  idp = await startOidcProvider({
    users: [{ email: member.email, name: "Member" }, { email: newcomer, name: "New Comer" }, { email: outsider }],
    clients: [client("reelbind"), client("reelbind-wrong-issuer", "wrong-issuer"), client("reelbind-wrong-audience", "wrong-audience"), client("reelbind-expired", "expired")],
  });
});

test.afterAll(async () => {
  await idp?.close();
  await instance?.stop();
});

test("an OrganizationAdmin configures single sign-on in the console; the secret is never shown or answered", async ({ page }) => {
  await signInWithPassword(page, admin);
  await expect(page).toHaveURL(/\/projects/, { timeout: 60_000 });
  await page.goto(`${base}/organizations/${orgId}/sso`);
  await expect(page.getByRole("heading", { name: "Single sign-on", level: 1 })).toBeVisible();
  await expect(page.getByTestId("sso-callback-url")).toHaveText(`${base}/api/auth/callback/sso-${orgId}`);
  await page.getByLabel("Issuer URL").fill(idp!.issuer);
  await page.getByLabel("Client ID").fill("reelbind");
  await page.getByLabel("Client secret").fill(clientSecret);
  await page.getByLabel("E-mail domain (optional)").fill(domain);
  await page.getByLabel("Role of a new member").selectOption("Editor");
  await page.getByRole("button", { name: "Save" }).click();
  await expect(page.getByText("Single sign-on settings saved.")).toBeVisible();
  await expect(page.getByText("Configured", { exact: true })).toBeVisible();
  await expect(page.getByLabel("Client secret")).toHaveValue("");
  await expect(page.getByLabel("Client secret")).toHaveAttribute("placeholder", /set/);
  expect(await page.content()).not.toContain(clientSecret);
  const read = await api("GET", `/api/organizations/${orgId}/sso`);
  expect(read.text).not.toContain(clientSecret);
  expect(JSON.parse(read.text)).toMatchObject({ settings: { issuer: idp!.issuer, clientId: "reelbind", clientSecretSet: true, emailDomain: domain, defaultRole: "Editor" } });
  await screenshots(page, "sso-settings");
});

test("a member signs in through the provider (code + PKCE, state, nonce) and lands in the console", async ({ browser }) => {
  await inFreshContext(browser, async (page) => {
    await page.goto(`${base}/login`);
    await page.getByRole("button", { name: "Continue with single sign-on" }).click();
    await page.getByLabel("Work e-mail").fill(member.email);
    await screenshots(page, "sso-sign-in");
    await startSso(page, member.email);
    await expect(page).toHaveURL(/\/projects/);
    expect(await signedInAs(page)).toBe(member.email);
  });
});

test("a new address of the organization's domain joins just in time with the default role", async ({ browser }) => {
  await inFreshContext(browser, async (page) => {
    await startSso(page, newcomer);
    await expect(page).toHaveURL(/\/projects/);
    expect(await signedInAs(page)).toBe(newcomer);
  });
  const members = JSON.parse((await api("GET", `/api/organizations/${orgId}/members`)).text) as { items: { email: string; role: string; scope: string }[] };
  expect(members.items.find((item) => item.email === newcomer)).toMatchObject({ role: "Editor", scope: "organization" });
});

test("an address outside the domain that is not a member is refused on /login, with no session and no account", async ({ browser }) => {
  await inFreshContext(browser, async (page) => {
    // The lookup finds no organization for the address's own domain: the step says so at once.
    await page.goto(`${base}/login`);
    await page.getByRole("button", { name: "Continue with single sign-on" }).click();
    await page.getByLabel("Work e-mail").fill(outsider);
    await page.getByRole("button", { name: "Go to your identity provider" }).click();
    await expect(page.locator("#sso-error")).toContainText("No organization signs in elsewhere.example addresses");
    // Typed as a member's address, then signed in at the provider as the outsider.
    await page.getByLabel("Work e-mail").fill(member.email);
    await page.getByRole("button", { name: "Go to your identity provider" }).click();
    await page.waitForURL((url) => url.origin === idp!.issuer, { timeout: 60_000 });
    await page.locator("input[name=login]").fill(outsider);
    await page.locator("input[name=password]").fill("x");
    await page.getByRole("button", { name: "Sign-in" }).click();
    await page.getByRole("button", { name: "Continue" }).click();
    await expect(page).toHaveURL(/\/login\?(.*&)?error=SsoNotMember/, { timeout: 60_000 });
    await expect(page.locator("#sso-error")).toContainText("not a member of this organization");
    expect(await signedInAs(page)).toBe(401);
  });
  const members = (await api("GET", `/api/organizations/${orgId}/members`)).text;
  expect(members).not.toContain(outsider);
});

// Each refused by its own check: the server's log names it (openid-client's message), so a
// signature broken by the re-signing could not pass for the check under test.
for (const [clientId, what, check] of [
  ["reelbind-wrong-issuer", "an ID token with another iss", "unexpected iss value"],
  ["reelbind-wrong-audience", "an ID token for another client (aud)", "aud mismatch, expected reelbind-wrong-audience"],
  ["reelbind-expired", "an expired ID token", "JWT expired"],
] as const) {
  test(`${what} is refused with no session`, async ({ browser }) => {
    await useClient(clientId);
    try {
      await inFreshContext(browser, async (page) => {
        await startSso(page, member.email);
        await expect(page).toHaveURL(/\/login\?(.*&)?error=OAuthCallback/);
        await expect(page.locator("#sso-error")).toContainText("could not be verified");
        expect(await signedInAs(page)).toBe(401);
      });
      await expect.poll(() => instance!.app.output(), { timeout: 30_000 }).toContain(check);
    } finally {
      await useClient("reelbind");
    }
  });
}

test("an issuer whose discovery document names another issuer is refused before the provider is asked", async ({ browser }) => {
  // The same provider under another name: its document says http://127.0.0.1:…, not http://localhost:….
  await useClient("reelbind", { issuer: idp!.issuer.replace("127.0.0.1", "localhost") });
  try {
    await inFreshContext(browser, async (page) => {
      await page.goto(`${base}/login`);
      await page.getByRole("button", { name: "Continue with single sign-on" }).click();
      await page.getByLabel("Work e-mail").fill(member.email);
      await page.getByRole("button", { name: "Go to your identity provider" }).click();
      await expect(page).toHaveURL(/\/login\?(.*&)?error=SsoUnavailable/, { timeout: 60_000 });
      await expect(page.locator("#sso-error")).toContainText("not available");
      expect(await signedInAs(page)).toBe(401);
    });
  } finally {
    await useClient("reelbind");
  }
});

test("require SSO refuses a member's password (it says to use SSO); an OrganizationAdmin's password still works", async ({ browser }) => {
  await useClient("reelbind", { requireSso: true });
  try {
    await inFreshContext(browser, async (page) => {
      await signInWithPassword(page, member);
      await expect(page.locator("#sign-in-error")).toContainText("requires single sign-on");
      expect(await signedInAs(page)).toBe(401);
      // The way it says: single sign-on works.
      await startSso(page, member.email);
      expect(await signedInAs(page)).toBe(member.email);
    });
    await inFreshContext(browser, async (page) => {
      await signInWithPassword(page, admin);
      await expect(page).toHaveURL(/\/projects/, { timeout: 60_000 });
    });
  } finally {
    await useClient("reelbind");
  }
});

test("a Viewer signed in through SSO cannot read or change the settings (403)", async ({ browser }) => {
  await inFreshContext(browser, async (page) => {
    await startSso(page, member.email);
    const read = await page.request.get(`${base}/api/organizations/${orgId}/sso`);
    expect(read.status()).toBe(403);
    const change = await page.request.put(`${base}/api/organizations/${orgId}/sso`, {
      headers: { Origin: base },
      data: { issuer: "https://evil.example", clientId: "evil", clientSecret: "evil" },
    });
    expect(change.status()).toBe(403);
    await page.goto(`${base}/organizations/${orgId}/sso`);
    await expect(page.getByText("Only an OrganizationAdmin of this organization")).toBeVisible();
  });
  expect(JSON.parse((await api("GET", `/api/organizations/${orgId}/sso`)).text)).toMatchObject({ settings: { clientId: "reelbind" } });
});
