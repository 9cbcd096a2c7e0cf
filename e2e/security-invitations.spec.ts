import { randomUUID } from "node:crypto";
import { expect, test, type APIRequestContext, type Browser } from "@playwright/test";
import { expectAccessible, signIn } from "./console-helpers";
import { cli } from "./owned-project";

// Issue 30, finding 6: an OrganizationAdmin added an existing user of another organization
// without their consent, and the answer told which addresses had an account (a one-time password
// for new ones, null for existing ones). Adding a member is now an invitation: the same answer
// for both, nothing granted until the person accepts at the accept URL (signing in, or choosing a
// password for a new address), revocable, listed as pending in the console.

type Invitation = { id: string; email: string; role: string; scope: string; projectId: string | null; status: string; createdAt: string; expiresAt: string; acceptUrl: string };
type Account = { id: string; email: string; password: string; token: string };

test.describe.configure({ mode: "serial" });

const run = randomUUID().slice(0, 8);
let orgId: string;
let projectId: string;
let admin: Account;
/** An Editor of another organization's project: an existing user, a stranger to the admin's organization. */
let outsider: Account & { projectId: string };

async function createAccount(label: string): Promise<Account> {
  const email = `${label}-${run}-${randomUUID().slice(0, 8)}@example.com`;
  const password = `pw-${randomUUID()}`;
  const user = await cli<{ id: string }>("user", "create", "--email", email, "--password", password);
  const { token } = await cli<{ token: string }>("token", "create", "--user", email);
  return { id: user.id, email, password, token };
}

test.beforeAll(async () => {
  const [org, otherOrg] = await Promise.all([cli<{ id: string }>("org", "create", "--name", `Invitations ${run}`), cli<{ id: string }>("org", "create", "--name", `Elsewhere ${run}`)]);
  orgId = org.id;
  const [project, otherProject] = await Promise.all([
    cli<{ id: string }>("project", "create", "--org", orgId, "--name", `Invited project ${run}`),
    cli<{ id: string }>("project", "create", "--org", otherOrg.id, "--name", `Outsider project ${run}`),
  ]);
  projectId = project.id;
  [admin, outsider] = await Promise.all([
    createAccount("invitations-admin"),
    createAccount("invitations-outsider").then((account) => ({ ...account, projectId: otherProject.id })),
  ]);
  await cli("member", "add", "--user", admin.email, "--org", orgId, "--role", "OrganizationAdmin");
  await cli("member", "add", "--user", outsider.email, "--project", outsider.projectId, "--role", "Editor");
});

const bearer = (token: string) => ({ Authorization: `Bearer ${token}` });

async function invite(request: APIRequestContext, email: string, role = "Viewer") {
  return request.post(`/api/organizations/${orgId}/members`, { headers: bearer(admin.token), data: { email, role, projectId } });
}

async function inviteOk(request: APIRequestContext, email: string, role = "Viewer"): Promise<Invitation> {
  const response = await invite(request, email, role);
  expect(response.status(), await response.text()).toBe(201);
  return (await response.json()) as Invitation;
}

async function expectSignsIn(browser: Browser, user: { email: string; password: string }) {
  const context = await browser.newContext();
  await signIn(await context.newPage(), user);
  await context.close();
}

test("POST …/members – an existing user's address and a new one: the same status and answer but for email, ids, the URL's token and times", async ({ request }) => {
  const [existing, fresh] = await Promise.all([invite(request, outsider.email), invite(request, `new-${run}-${randomUUID()}@example.com`)]);
  expect([existing.status(), fresh.status()]).toEqual([201, 201]);
  const [a, b] = (await Promise.all([existing.json(), fresh.json()])) as Record<string, unknown>[];
  expect(Object.keys(a!).sort()).toEqual(Object.keys(b!).sort());
  const comparable = (answer: Record<string, unknown>) =>
    JSON.stringify(answer, (key, value: unknown) =>
      ["id", "email", "createdAt", "expiresAt"].includes(key) ? "…" : key === "acceptUrl" ? String(value).replace(/[^/]+$/, "…") : value,
    );
  expect(comparable(a!)).toBe(comparable(b!));
  expect(a).toMatchObject({ status: "pending", role: "Viewer", scope: "project" });
  expect(JSON.stringify([a, b])).not.toMatch(/password/i);
});

test("an invited existing user gets nothing of the organization until they accept; their own organization is untouched", async ({ request }) => {
  await inviteOk(request, outsider.email);
  const auth = bearer(outsider.token);
  expect((await request.get(`/api/Projects/${projectId}/templates`, { headers: auth })).status()).toBe(404);
  const me = (await (await request.get("/api/me", { headers: auth })).json()) as { organizations: { id: string }[]; projects: { id: string }[] };
  expect(me.organizations.map((org) => org.id)).not.toContain(orgId);
  expect(me.projects.map((project) => project.id)).toEqual([outsider.projectId]);
  expect((await request.get(`/api/Projects/${outsider.projectId}/templates`, { headers: auth })).status()).toBe(200);
});

test("the accept URL of an address that has an account cannot set its password: 409, and the password stays", async ({ browser, request }) => {
  const invitation = await inviteOk(request, outsider.email, "Editor");
  const refused = await request.post("/api/invitations/create-account", { data: { token: invitation.acceptUrl.split("/").pop(), password: "attacker's choice" } });
  expect(refused.status()).toBe(409);
  await expectSignsIn(browser, outsider);
});

test("an existing user accepts in Chromium: opens the accept URL, signs in, accepts; then the project is theirs", async ({ browser, request }) => {
  const invitation = await inviteOk(request, outsider.email);
  const context = await browser.newContext();
  const page = await context.newPage();
  await page.goto(invitation.acceptUrl);
  await expect(page.getByRole("heading", { name: `Join Invitations ${run} on Reelbind` })).toBeVisible();
  await expectAccessible(page);
  await page.getByRole("link", { name: "Sign in to accept" }).click();
  await page.getByLabel("Email").fill(outsider.email);
  await page.getByLabel("Password").fill(outsider.password);
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page).toHaveURL(/\/invitations\//);
  await page.getByRole("button", { name: "Accept invitation" }).click();
  await expect(page).toHaveURL(/\/projects$/);
  await expect(page.getByRole("link", { name: new RegExp(`Invited project ${run}`) })).toContainText("Viewer");
  await expect(page.getByRole("link", { name: new RegExp(`Outsider project ${run}`) })).toContainText("Editor");
  await context.close();
  expect((await request.get(`/api/Projects/${projectId}/templates`, { headers: bearer(outsider.token) })).status()).toBe(200);
  // Used: the URL answers that it was accepted, and accepts nothing more.
  const again = await request.post("/api/invitations/create-account", { data: { token: invitation.acceptUrl.split("/").pop(), password: "another password" } });
  expect(again.status()).toBe(410);
});

test("a new address accepts in Chromium by choosing a password, and is signed in with the project", async ({ browser, request }) => {
  const email = `newcomer-${run}@example.com`;
  const invitation = await inviteOk(request, email, "Editor");
  const context = await browser.newContext();
  const page = await context.newPage();
  await page.goto(invitation.acceptUrl);
  await page.getByLabel("Password", { exact: true }).fill("a long new password");
  await page.getByLabel("Password again").fill("a long new password");
  await page.getByRole("button", { name: "Create account and accept" }).click();
  await expect(page).toHaveURL(/\/projects$/);
  await expect(page.getByRole("link", { name: new RegExp(`Invited project ${run}`) })).toContainText("Editor");
  await context.close();
  await expectSignsIn(browser, { email, password: "a long new password" });
});

test("the console's members page lists a pending invitation with its accept link shown once; revoking it makes the link say so", async ({ page, browser }) => {
  await signIn(page, admin);
  await page.goto(`/organizations/${orgId}/members`);
  const email = `console-${run}@example.com`;
  await page.getByRole("button", { name: "Invite member" }).click();
  const dialog = page.getByRole("dialog");
  await dialog.getByLabel("Email").fill(email);
  await dialog.getByLabel("On").selectOption({ label: `Project: Invited project ${run}` });
  await dialog.getByRole("button", { name: "Invite" }).click();
  const acceptUrl = (await dialog.getByTestId("accept-url").textContent())!;
  expect(acceptUrl).toMatch(/\/invitations\/rbi_/);
  await dialog.getByRole("button", { name: "I have copied it" }).click();
  const pending = page.getByRole("list", { name: "Pending invitations" }).getByRole("listitem").filter({ hasText: email });
  await expect(pending).toContainText("Pending");
  await expect(page.getByRole("list", { name: "Members" })).not.toContainText(email);
  await expectAccessible(page);

  await pending.getByRole("button", { name: "Revoke" }).click();
  await page.getByRole("dialog").getByRole("button", { name: "Revoke invitation" }).click();
  await expect(page.getByRole("status")).toContainText(`The invitation of ${email} was revoked.`);
  await expect(pending).toHaveCount(0);

  const context = await browser.newContext();
  const invitee = await context.newPage();
  await invitee.goto(acceptUrl);
  await expect(invitee.getByText("This invitation was revoked.")).toBeVisible();
  await expect(invitee.getByRole("button", { name: "Create account and accept" })).toHaveCount(0);
  await context.close();
});
