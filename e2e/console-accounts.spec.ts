import { randomUUID } from "node:crypto";
import { expect, test } from "@playwright/test";
import { expectAccessible, screenshots, signIn } from "./console-helpers";
import { env } from "./owned-project";
import { cli } from "./sign-in-helpers";

// Organizations, members, personal access tokens and the audit log in the console, as an
// OrganizationAdmin and as the Viewer they invite, against the built app.

type Created = { id: string };

/** What the browser adds to the console's own calls (cookie-authenticated writes must be same-origin). */
const sameOrigin = () => ({ Origin: env("E2E_BASE_URL") });

test.describe.configure({ mode: "serial" });

const run = randomUUID().slice(0, 8);
const admin = { email: `org-admin-${run}@example.com`, password: `pw-${randomUUID()}` };
const viewerPassword = `pw-${randomUUID()}`;
let orgId: string;

test.beforeAll(async () => {
  const [org, user] = await Promise.all([cli<Created>("org", "create", "--name", `Acme ${run}`), cli<Created>("user", "create", "--email", admin.email, "--password", admin.password)]);
  orgId = org.id;
  await cli("member", "add", "--user", user.id, "--org", orgId, "--role", "OrganizationAdmin");
});

test("an OrganizationAdmin creates a project, invites a Viewer who accepts by choosing a password, changes the role; the last admin stays", async ({ page, browser }) => {
  await signIn(page, admin);
  await expect(page.getByRole("heading", { name: `Acme ${run}` })).toBeVisible();
  await expect(page.getByText("No projects yet")).toBeVisible();
  await expectAccessible(page);

  // Create a project: an empty name is refused next to the field, then it is created.
  await page.getByRole("button", { name: "New project" }).click();
  await page.getByRole("dialog").getByRole("button", { name: "Create project" }).click();
  await expect(page.getByRole("dialog").getByText("must not be empty")).toBeVisible();
  await page.getByRole("dialog").getByLabel("Name").fill("Spring campaign");
  await page.getByRole("dialog").getByRole("button", { name: "Create project" }).click();
  await expect(page.getByRole("link", { name: /Spring campaign/ })).toBeVisible();
  await expect(page.getByRole("status")).toContainText("Project Spring campaign created.");
  await screenshots(page, "projects");

  // Invite a new Viewer on that project: a pending invitation and its accept link, shown once.
  await page.getByRole("link", { name: "Members" }).click();
  await expect(page.getByRole("heading", { name: "Members" })).toBeVisible();
  await expectAccessible(page);
  const viewerEmail = `viewer-${run}@example.com`;
  await page.getByRole("button", { name: "Invite member" }).click();
  const dialog = page.getByRole("dialog");
  await dialog.getByLabel("Email").fill(viewerEmail);
  await dialog.getByLabel("Role").selectOption("Viewer");
  await dialog.getByLabel("On").selectOption({ label: "Project: Spring campaign" });
  await dialog.getByRole("button", { name: "Invite" }).click();
  const acceptUrl = (await dialog.getByTestId("accept-url").textContent())!;
  expect(acceptUrl).toMatch(/\/invitations\/rbi_/);
  await screenshots(page, "members-invited");
  await dialog.getByRole("button", { name: "I have copied it" }).click();
  await expect(page.getByTestId("accept-url")).toHaveCount(0);
  await expect(page.getByRole("list", { name: "Pending invitations" })).toContainText(viewerEmail);

  // The Viewer accepts by choosing a password, and lands on the project, without admin controls.
  const viewerContext = await browser.newContext();
  const viewerPage = await viewerContext.newPage();
  await viewerPage.goto(acceptUrl);
  await viewerPage.getByLabel("Password", { exact: true }).fill(viewerPassword);
  await viewerPage.getByLabel("Password again").fill(viewerPassword);
  await viewerPage.getByRole("button", { name: "Create account and accept" }).click();
  await expect(viewerPage).toHaveURL(/\/projects$/);
  await page.reload();
  const viewerRow = page.getByRole("list", { name: "Members" }).getByRole("listitem").filter({ hasText: viewerEmail });
  await expect(viewerRow).toContainText("Project: Spring campaign");
  await expect(page.getByRole("list", { name: "Pending invitations" })).toHaveCount(0);

  // Inviting a member on the same scope again is refused with the server's message.
  await page.getByRole("button", { name: "Invite member" }).click();
  await dialog.getByLabel("Email").fill(viewerEmail);
  await dialog.getByLabel("On").selectOption({ label: "Project: Spring campaign" });
  await dialog.getByRole("button", { name: "Invite" }).click();
  await expect(dialog.getByText(/already a member of that project/)).toBeVisible();
  await dialog.getByRole("button", { name: "Cancel" }).click();

  // The admin is the last one: role and removal are disabled with the reason, and the API refuses too.
  const adminRow = page.getByRole("listitem").filter({ hasText: admin.email });
  await expect(adminRow.getByLabel(`Role of ${admin.email}`)).toBeDisabled();
  await expect(adminRow.getByRole("button", { name: /Remove/ })).toHaveAttribute("title", /last OrganizationAdmin/);
  const members = (await (await page.request.get(`/api/organizations/${orgId}/members`)).json()) as { items: { id: string; email: string }[] };
  const adminMembership = members.items.find((member) => member.email === admin.email)!;
  const refused = await page.request.patch(`/api/organizations/${orgId}/members/${adminMembership.id}`, { data: { role: "Viewer" }, headers: sameOrigin() });
  expect(refused.status()).toBe(409);
  await screenshots(page, "members");

  // The Viewer sees the project, without admin controls.
  await expect(viewerPage.getByRole("link", { name: /Spring campaign/ })).toContainText("Viewer");
  await expect(viewerPage.getByRole("button", { name: "New project" })).toHaveCount(0);
  await expect(viewerPage.getByRole("link", { name: "Members" })).toHaveCount(0);
  expect((await viewerPage.request.get(`/api/organizations/${orgId}/members`)).status()).toBe(403);
  expect((await viewerPage.request.post(`/api/organizations/${orgId}/projects`, { data: { name: "Nope" }, headers: sameOrigin() })).status()).toBe(403);
  await viewerPage.goto(`/organizations/${orgId}/members`);
  await expect(viewerPage.getByText("Only an OrganizationAdmin")).toBeVisible();

  // The admin makes them an Editor; the Viewer's next page shows it.
  await viewerRow.getByLabel(`Role of ${viewerEmail}`).selectOption("Editor");
  await page.getByRole("dialog", { name: `Make ${viewerEmail} Editor?` }).getByRole("button", { name: "Change role" }).click();
  await expect(page.getByRole("status")).toContainText(`${viewerEmail} is now Editor.`);
  await viewerPage.goto("/projects");
  await expect(viewerPage.getByRole("link", { name: /Spring campaign/ })).toContainText("Editor");
  await viewerContext.close();
});

test("a personal access token made in the console calls the API until it is revoked", async ({ page, playwright }) => {
  await signIn(page, admin);
  await page.getByRole("link", { name: admin.email }).click();
  await page.getByRole("navigation", { name: "Account" }).getByRole("link", { name: "Access tokens" }).click();
  await expect(page.getByText("No tokens yet")).toBeVisible();
  await expectAccessible(page);
  await page.getByRole("button", { name: "New token" }).click();
  await page.getByRole("dialog").getByLabel("Name").fill("CI deploys");
  await page.getByRole("dialog").getByRole("button", { name: "Create token" }).click();
  const token = (await page.getByTestId("new-token").textContent())!;
  expect(token).toMatch(/^rbk_/);
  await page.getByRole("button", { name: "I have copied it" }).click();
  await expect(page.getByText(token)).toHaveCount(0);

  await expect(page.getByRole("listitem").filter({ hasText: "CI deploys" })).toContainText("Scopes: All scopes");

  // A read-only token: every scope unticked but read; the list says so, and the API refuses it a write.
  await page.getByRole("button", { name: "New token" }).click();
  await page.getByRole("dialog").getByLabel("Name").fill("Dashboards");
  for (const box of await page.getByRole("dialog").getByRole("checkbox").all()) {
    if ((await box.locator("xpath=..").textContent()) !== "read") await box.uncheck();
  }
  await page.getByRole("dialog").getByRole("button", { name: "Create token" }).click();
  const readOnlyToken = (await page.getByTestId("new-token").textContent())!;
  await page.getByRole("button", { name: "I have copied it" }).click();
  await expect(page.getByRole("listitem").filter({ hasText: "Dashboards" }).getByText(/^Scopes:/)).toHaveText("Scopes: read");

  const api = await playwright.request.newContext({ baseURL: env("E2E_BASE_URL") });
  expect((await api.get("/api/me", { headers: { Authorization: `Bearer ${readOnlyToken}` } })).status()).toBe(200);
  expect((await api.post(`/api/organizations/${orgId}/projects`, { headers: { Authorization: `Bearer ${readOnlyToken}` }, data: { name: "No" } })).status()).toBe(403);
  const me = await api.get("/api/me", { headers: { Authorization: `Bearer ${token}` } });
  expect(me.status()).toBe(200);
  expect(((await me.json()) as { user: { email: string } }).user.email).toBe(admin.email);
  await screenshots(page, "tokens");

  const row = page.getByRole("listitem").filter({ hasText: "CI deploys" });
  await row.getByRole("button", { name: "Revoke" }).click();
  await page.getByRole("dialog").getByRole("button", { name: "Revoke token" }).click();
  await expect(row).toContainText("Revoked"); // at once (optimistic)
  await expect(page.getByRole("status")).toContainText("Token revoked."); // the server's answer
  expect((await api.get("/api/me", { headers: { Authorization: `Bearer ${token}` } })).status()).toBe(401);
  await api.dispose();
});

test("the audit log lists the project's events and filters by action and actor", async ({ page }) => {
  await signIn(page, admin);
  await page.getByRole("link", { name: /Spring campaign/ }).click();
  await page.getByRole("link", { name: "Audit log" }).click();
  await expect(page.getByRole("heading", { name: "Audit log" })).toBeVisible();
  // The entries themselves: an entry's changes are a list of their own inside it.
  const events = page.getByRole("list", { name: "Audit events" }).locator(":scope > li");
  await expect(events.filter({ hasText: "Project created" })).toHaveCount(1);
  await expect(events.filter({ hasText: "Member invited" })).toHaveCount(1);
  await expect(events.filter({ hasText: "Invitation accepted" })).toHaveCount(1);
  await expect(events.filter({ hasText: "Member role changed" })).toHaveCount(1);
  await expectAccessible(page);
  await screenshots(page, "audit");

  await page.getByLabel("Action").selectOption({ label: "Member invited" });
  await expect(events).toHaveCount(1);
  await expect(events.first()).toContainText(admin.email);
  await page.getByLabel("Action").selectOption({ label: "All actions" });
  await page.getByLabel("Actor").selectOption({ label: admin.email });
  await expect(events).toHaveCount(3);
});

test("the account endpoints refuse cross-origin cookie calls, malformed ids and bodies with 4xx", async ({ page }) => {
  await signIn(page, admin);
  const crossOrigin = await page.request.post(`/api/organizations/${orgId}/projects`, { data: { name: "CSRF" }, headers: { Origin: "http://evil.example" } });
  expect(crossOrigin.status()).toBe(403);
  for (const [method, path, data] of [
    ["PATCH", `/api/organizations/${orgId}/members/not-a-uuid`, { role: "Viewer" }],
    ["DELETE", `/api/organizations/not-a-uuid/members/${randomUUID()}`, undefined],
    ["POST", `/api/organizations/${orgId}/members`, { email: "x@example.com" }],
    ["POST", `/api/me/tokens/not-a-uuid/revoke`, undefined],
    ["POST", `/api/me/tokens`, { name: "x", extra: 1 }],
  ] as const) {
    const response = await page.request.fetch(path, { method, data, headers: sameOrigin() });
    expect(response.status(), `${method} ${path}`).toBeGreaterThanOrEqual(400);
    expect(response.status(), `${method} ${path}`).toBeLessThan(500);
  }
  const malformed = await page.request.fetch(`/api/me/tokens`, { method: "POST", headers: { ...sameOrigin(), "Content-Type": "application/json" }, data: Buffer.from("{not json") });
  expect(malformed.status()).toBe(400);
});
