import { randomUUID } from "node:crypto";
import { expect, test, type Browser } from "@playwright/test";
import { expectAccessible, screenshots, signIn } from "./console-helpers";
import { cli } from "./sign-in-helpers";

// The account page (issue 37, points 1 and 7) on the built app: a deep link survives sign-in,
// the name and the password change in the browser, and sessions elsewhere can be signed out.

type Created = { id: string };

const run = randomUUID().slice(0, 8);
let orgId: string;
let projectId: string;

test.beforeAll(async () => {
  orgId = (await cli<Created>("org", "create", "--name", `Account ${run}`)).id;
  projectId = (await cli<Created>("project", "create", "--org", orgId, "--name", `Account ${run}`)).id;
});

/** A member of the organization of its own: each test counts its own sessions. */
async function newMember() {
  const user = { email: `account-${randomUUID()}@example.com`, password: `pw-${randomUUID()}` };
  const created = await cli<Created>("user", "create", "--email", user.email, "--password", user.password);
  await cli("member", "add", "--user", created.id, "--org", orgId, "--role", "OrganizationAdmin");
  return user;
}

/** A second browser signed in as `account`, as another device would be. */
async function elsewhere(browser: Browser, account: { email: string; password: string }) {
  const context = await browser.newContext();
  const page = await context.newPage();
  await signIn(page, account);
  return { context, page };
}

test("a deep link opened while signed out comes back after sign-in; an outside one does not", async ({ page }) => {
  const user = await newMember();
  const deepLink = `/projects/${projectId}/shares/PROD?from=mail`;
  await page.goto(deepLink);
  await expect(page).toHaveURL(/\/login\?callbackUrl=/);
  await page.getByLabel("Email").fill(user.email);
  await page.getByLabel("Password").fill(user.password);
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page).toHaveURL((url) => `${url.pathname}${url.search}` === deepLink);
  await expect(page.getByRole("heading", { name: /PROD/ }).first()).toBeVisible();

  // The open-redirect guard stays: a callbackUrl of another origin signs in to /projects.
  await page.context().clearCookies();
  await page.goto(`/login?callbackUrl=${encodeURIComponent("https://evil.example/phish")}`);
  await page.getByLabel("Email").fill(user.email);
  await page.getByLabel("Password").fill(user.password);
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page).toHaveURL((url) => url.pathname === "/projects" && url.host !== "evil.example");
});

test("the account page changes the name and the password; the other browser is signed out, this one stays", async ({ page, browser }) => {
  const user = await newMember();
  const other = await elsewhere(browser, user);
  await signIn(page, user);
  await page.getByRole("link", { name: user.email }).click();
  await expect(page.getByRole("heading", { name: "Your account" })).toBeVisible();
  await expectAccessible(page);

  await page.getByLabel("Name", { exact: true }).fill("Ana Rivera");
  await page.getByRole("button", { name: "Save name" }).click();
  await expect(page.getByRole("status")).toContainText("Name saved.");

  const sessions = page.getByRole("list", { name: "Signed-in sessions" });
  await expect(sessions.getByRole("listitem")).toHaveCount(2);
  await expect(sessions.getByRole("listitem").filter({ hasText: "This browser" })).toContainText(/Chrome/);
  await screenshots(page, "account");

  // A wrong current password, a weak new one and a mismatch are each refused next to their field.
  await page.getByLabel("Current password").fill("not my password");
  await page.getByLabel("New password", { exact: true }).fill("a fresh phrase of unrelated words");
  await page.getByLabel("New password again").fill("a fresh phrase of unrelated words");
  await page.getByRole("button", { name: "Change password" }).click();
  await expect(page.getByText("is not your current password")).toBeVisible();
  await page.getByLabel("Current password").fill(user.password);
  await page.getByLabel("New password", { exact: true }).fill("password123");
  await page.getByLabel("New password again").fill("password123");
  await page.getByRole("button", { name: "Change password" }).click();
  await expect(page.getByText(/too easy to guess/)).toBeVisible();
  await page.getByLabel("New password", { exact: true }).fill("a fresh phrase of unrelated words");
  await page.getByLabel("New password again").fill("a fresh phrase of unrelated wordz");
  await page.getByRole("button", { name: "Change password" }).click();
  await expect(page.getByText("does not match the new password")).toBeVisible();

  await page.getByLabel("New password again").fill("a fresh phrase of unrelated words");
  await page.getByRole("button", { name: "Change password" }).click();
  await expect(page.getByRole("status")).toContainText("Password changed. 1 other session was signed out.");
  await expect(sessions.getByRole("listitem")).toHaveCount(1);
  user.password = "a fresh phrase of unrelated words";

  // The other browser's next page asks it to sign in; this one goes on.
  await other.page.goto("/account");
  await expect(other.page).toHaveURL(/\/login\?callbackUrl=%2Faccount/);
  await page.reload();
  await expect(page.getByLabel("Name", { exact: true })).toHaveValue("Ana Rivera");
  await other.context.close();
});

test("a session elsewhere is signed out from the list, then all others at once", async ({ page, browser }) => {
  const user = await newMember();
  const [first, second] = [await elsewhere(browser, user), await elsewhere(browser, user)];
  await signIn(page, user);
  await page.goto("/account");
  const sessions = page.getByRole("list", { name: "Signed-in sessions" });
  await expect(sessions.getByRole("listitem")).toHaveCount(3);

  await sessions.getByRole("listitem").filter({ hasNotText: "This browser" }).first().getByRole("button", { name: "Sign out" }).click();
  await expect(sessions.getByRole("listitem")).toHaveCount(2);
  await page.getByRole("button", { name: "Sign out all other sessions" }).click();
  await expect(page.getByRole("status")).toContainText("1 other session signed out.");
  await expect(sessions.getByRole("listitem")).toHaveCount(1);
  await expect(page.getByRole("button", { name: "Sign out all other sessions" })).toBeDisabled();

  for (const other of [first, second]) {
    await other.page.goto("/projects");
    await expect(other.page).toHaveURL(/\/login/);
    await other.context.close();
  }
});

test("the access tokens keep their address under the account", async ({ page }) => {
  const user = await newMember();
  await signIn(page, user);
  await page.goto("/account");
  await page.getByRole("navigation", { name: "Account" }).getByRole("link", { name: "Access tokens" }).click();
  await expect(page).toHaveURL(/\/account\/tokens$/);
  await expect(page.getByRole("heading", { name: "Personal access tokens" })).toBeVisible();
});
