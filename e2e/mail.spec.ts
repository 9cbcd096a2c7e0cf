import { randomUUID } from "node:crypto";
import { expect, test, type Browser, type BrowserContext, type Page } from "@playwright/test";
import { linkIn, startMailServer, type MailServer } from "../testing/mail-server";
import { expectAccessible, screenshots, signIn } from "./console-helpers";
import { startOwnInstance, type OwnInstance } from "./own-instance";
import { cliVia } from "./owned-project";

// Issue 37, points 2–4: an instance with mail (SMTP_URL pointing at a real SMTP server on
// loopback) invites and resets passwords by mail. The browser follows the links from the mails
// it received. TRUSTED_PROXIES=loopback, so that API calls carrying their own X-Forwarded-For
// are clients of their own for the per-client limit; the browser is 127.0.0.1.

test.describe.configure({ mode: "serial" });

const run = randomUUID().slice(0, 8);
let mail: MailServer;
let instance: OwnInstance;
let orgId: string;
let adminToken: string;
let clients = 0;
/** A client address of its own for an API call (the instance trusts loopback's X-Forwarded-For). */
const newClient = () => ({ "X-Forwarded-For": `198.51.100.${++clients}` });

test.beforeAll(async () => {
  test.setTimeout(300_000);
  mail = await startMailServer();
  instance = await startOwnInstance("mail", { SMTP_URL: mail.url, MAIL_FROM: "Reelbind <video@mail.test>", TRUSTED_PROXIES: "loopback" });
  const org = await cliVia<{ id: string }>(instance.dataDir, "org", "create", "--name", `Mail ${run}`);
  orgId = org.id;
  await cliVia(instance.dataDir, "member", "add", "--user", instance.app.adminEmail, "--org", orgId, "--role", "OrganizationAdmin");
  adminToken = (await cliVia<{ token: string }>(instance.dataDir, "token", "create", "--user", instance.app.adminEmail)).token;
});

test.afterAll(async () => {
  test.setTimeout(60_000);
  await instance?.stop();
  await mail?.stop();
});

const url = (path: string) => `${instance.app.baseUrl}${path}`;

async function newPage(browser: Browser): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({ baseURL: instance.app.baseUrl });
  return { context, page: await context.newPage() };
}

async function adminPage(browser: Browser) {
  const opened = await newPage(browser);
  await signIn(opened.page, { email: instance.app.adminEmail, password: instance.app.adminPassword });
  return opened;
}

async function createUser(label: string): Promise<{ email: string; password: string }> {
  const email = `${label}-${run}-${randomUUID().slice(0, 8)}@example.com`;
  const password = `pw-${randomUUID()}`;
  await cliVia(instance.dataDir, "user", "create", "--email", email, "--password", password);
  await cliVia(instance.dataDir, "member", "add", "--user", email, "--org", orgId, "--role", "Viewer");
  return { email, password };
}

const tokenOf = (link: string) => link.split("/").pop()!;

test("invite in the console → the mail arrives → the invitee follows its link in Chromium, chooses a password and is a member", async ({ browser }) => {
  const { context, page } = await adminPage(browser);
  await page.goto(`/organizations/${orgId}/members`);
  const email = `invitee-${run}@example.com`;
  await page.getByRole("button", { name: "Invite member" }).click();
  const dialog = page.getByRole("dialog");
  await dialog.getByLabel("Email").fill(email);
  await dialog.getByRole("button", { name: "Invite" }).click();
  await expect(dialog.getByTestId("invitation-mailed")).toContainText(`sent to ${email}`);
  await expect(dialog.getByTestId("accept-url")).toHaveCount(0);
  await dialog.getByRole("button", { name: "Done" }).click();

  const message = await mail.next(email, { subject: new RegExp(`invited to Mail ${run}`) });
  expect(message.from).toBe("video@mail.test");
  expect(message.text).toContain(instance.app.adminEmail);
  const link = linkIn(message, "/invitations/");

  const invitee = await newPage(browser);
  await invitee.page.goto(link);
  await expect(invitee.page.getByRole("heading", { name: `Join Mail ${run} on Reelbind` })).toBeVisible();
  await invitee.page.getByLabel("Password", { exact: true }).fill("a long new password");
  await invitee.page.getByLabel("Password again").fill("a long new password");
  await invitee.page.getByRole("button", { name: "Create account and accept" }).click();
  await expect(invitee.page).toHaveURL(/\/projects$/);
  await invitee.context.close();

  await page.reload();
  await expect(page.getByRole("main")).toContainText(email);
  await context.close();
});

test("the members page lists pending invitations with Resend and Revoke; Resend mails a new link and the old one stops working", async ({ browser, request }) => {
  const { context, page } = await adminPage(browser);
  const emails = [`pending-a-${run}@example.com`, `pending-b-${run}@example.com`];
  for (const email of emails) {
    const response = await request.post(url(`/api/organizations/${orgId}/members`), { headers: { Authorization: `Bearer ${adminToken}` }, data: { email, role: "Editor" } });
    expect(response.status()).toBe(201);
    expect(await response.json()).toMatchObject({ delivery: "email" });
    expect(await response.json()).not.toHaveProperty("acceptUrl");
  }
  const firstLink = linkIn(await mail.next(emails[0]!), "/invitations/");
  await mail.next(emails[1]!);

  await page.goto(`/organizations/${orgId}/members`);
  const pending = page.getByRole("list", { name: "Pending invitations" });
  for (const email of emails) await expect(pending).toContainText(email);
  await expectAccessible(page);
  await screenshots(page, "members-pending-invitations");

  await pending.getByRole("button", { name: `Resend the invitation of ${emails[0]}` }).click();
  await page.getByRole("dialog").getByRole("button", { name: "Resend invitation" }).click();
  await expect(page.getByRole("dialog").getByTestId("invitation-mailed")).toBeVisible();
  await page.getByRole("dialog").getByRole("button", { name: "Done" }).click();
  const secondLink = linkIn(await mail.next(emails[0]!), "/invitations/");
  expect(secondLink).not.toBe(firstLink);
  expect((await request.get(firstLink)).status()).toBe(404);
  expect((await request.get(secondLink)).status()).toBe(200);

  await pending.getByRole("button", { name: `Revoke the invitation of ${emails[1]}` }).click();
  await page.getByRole("dialog").getByRole("button", { name: "Revoke invitation" }).click();
  await expect(pending).not.toContainText(emails[1]!);
  await context.close();
});

test("reset by mail: Forgot password? → request → mail → new password; an older signed-in browser is signed out, the old password no longer works", async ({ browser, request }) => {
  const user = await createUser("resetter");
  const older = await newPage(browser);
  await signIn(older.page, user);

  const { context, page } = await newPage(browser);
  await page.goto("/login");
  await page.getByRole("link", { name: "Forgot password?" }).click();
  await expect(page).toHaveURL(/\/forgot-password$/);
  await expectAccessible(page);
  await screenshots(page, "forgot-password");
  await page.getByLabel("Email").fill(user.email);
  await page.getByRole("button", { name: "Send me a reset link" }).click();
  await expect(page.getByTestId("reset-requested")).toContainText("If an account has this address");

  const message = await mail.next(user.email, { subject: /new Reelbind password/ });
  const link = linkIn(message, "/reset-password/");
  await page.goto(link);
  await expect(page.getByRole("heading", { name: "Choose a new password" })).toBeVisible();
  await expect(page.getByRole("main")).toContainText(user.email);
  await expectAccessible(page);
  await screenshots(page, "choose-new-password");
  await page.getByLabel("New password", { exact: true }).fill("a fresh long passphrase");
  await page.getByLabel("New password again").fill("a fresh long passphrase");
  await page.getByRole("button", { name: "Set password and sign in" }).click();
  await expect(page).toHaveURL(/\/projects$/);
  await context.close();

  // The session that was signed in before the reset has ended.
  await older.page.goto("/projects");
  await expect(older.page).toHaveURL(/\/login/);
  await older.context.close();

  const refused = await newPage(browser);
  await refused.page.goto("/login");
  await refused.page.getByLabel("Email").fill(user.email);
  await refused.page.getByLabel("Password").fill(user.password);
  await refused.page.getByRole("button", { name: "Sign in" }).click();
  await expect(refused.page.locator("#sign-in-error")).toBeVisible();
  await refused.context.close();
  const fresh = await newPage(browser);
  await signIn(fresh.page, { email: user.email, password: "a fresh long passphrase" });
  await fresh.context.close();

  // Used: the page says the link no longer works, the API answers 410.
  const again = await newPage(browser);
  await again.page.goto(link);
  await expect(again.page.getByRole("main").getByRole("alert")).toContainText("does not work any more");
  await again.context.close();
  const reused = await request.post(url("/api/password-resets/complete"), { data: { token: tokenOf(link), password: "yet another passphrase" } });
  expect(reused.status()).toBe(410);
});

test("the same answer for an unknown address: status and body alike, and no mail for it", async ({ playwright }) => {
  const api = await playwright.request.newContext({ baseURL: instance.app.baseUrl });
  const known = await createUser("known");
  const unknown = `unknown-${run}@example.com`;
  const [a, b] = await Promise.all([
    api.post("/api/password-resets", { headers: newClient(), data: { email: known.email } }),
    api.post("/api/password-resets", { headers: newClient(), data: { email: unknown } }),
  ]);
  expect([a.status(), b.status()]).toEqual([202, 202]);
  expect(await a.text()).toBe(await b.text());
  expect(Object.keys(a.headers()).sort()).toEqual(Object.keys(b.headers()).sort());
  await mail.next(known.email);
  expect(mail.to(unknown)).toEqual([]);
  await api.dispose();
});

test("limits: a sixth request for one address in an hour → 429 with Retry-After (problem+json), from any client; no sixth mail", async ({ playwright }) => {
  const api = await playwright.request.newContext({ baseURL: instance.app.baseUrl });
  const user = await createUser("limited");
  for (let i = 0; i < 5; i++) expect((await api.post("/api/password-resets", { headers: newClient(), data: { email: user.email } })).status()).toBe(202);
  const refused = await api.post("/api/password-resets", { headers: newClient(), data: { email: user.email } });
  expect(refused.status()).toBe(429);
  expect(Number(refused.headers()["retry-after"])).toBeGreaterThan(0);
  expect(refused.headers()["content-type"]).toMatch(/application\/problem\+json/);
  for (let i = 0; i < 5; i++) await mail.next(user.email);
  expect(mail.to(user.email)).toHaveLength(5);
  await api.dispose();
});

test("limits: one client address, 20 requests an hour whatever the addresses; the 21st → 429", async ({ playwright }) => {
  const api = await playwright.request.newContext({ baseURL: instance.app.baseUrl });
  const client = newClient();
  for (let i = 0; i < 20; i++) expect((await api.post("/api/password-resets", { headers: client, data: { email: `nobody-${i}-${run}@example.com` } })).status()).toBe(202);
  const refused = await api.post("/api/password-resets", { headers: client, data: { email: `nobody-last-${run}@example.com` } });
  expect(refused.status()).toBe(429);
  expect(Number(refused.headers()["retry-after"])).toBeGreaterThan(0);
  await api.dispose();
});

test("no token of a mailed link is in the server's output", async () => {
  expect(mail.messages.length).toBeGreaterThan(0);
  expect(instance.app.output()).not.toMatch(/rb[ir]_[\w-]{43}/);
});

test("a link past PASSWORD_RESET_TTL: the page says it no longer works, the API answers 410 expired", async ({ browser }) => {
  test.setTimeout(300_000);
  // Made before the restart: the restarted process serves HTTP, not the admin channel the CLI uses.
  const user = await createUser("expiring");
  const server = await instance.restart({ PASSWORD_RESET_TTL: "1s" });
  const api = await browser.newContext({ baseURL: server.baseUrl });
  expect((await api.request.post("/api/password-resets", { headers: newClient(), data: { email: user.email } })).status()).toBe(202);
  const link = linkIn(await mail.next(user.email), "/reset-password/");
  const page = await api.newPage();
  // The link expires a second after it was made: wait for the page to say so (capped), no fixed sleep.
  await expect(async () => {
    await page.goto(new URL(new URL(link).pathname, server.baseUrl).href);
    await expect(page.getByRole("main").getByRole("alert")).toContainText("does not work any more", { timeout: 1000 });
  }).toPass({ timeout: 30_000 });
  const expired = await api.request.post("/api/password-resets/complete", { data: { token: tokenOf(link), password: "a fresh long passphrase" } });
  expect(expired.status()).toBe(410);
  expect(((await expired.json()) as { detail: string }).detail).toMatch(/expired/);
  await api.close();
});
