import { expect, test } from "@playwright/test";
import { expectAccessible, screenshots, signIn } from "./console-helpers";
import { cli, createUserWithPassword } from "./sign-in-helpers";
import { codeAt, enrolOnPage, sameOrigin, signInToCodeStep, signOut, submitCode, wrongCode } from "./two-factor-helpers";

// Two-factor with TOTP on the built app (docs/adr/0156-two-factor-totp.md,
// docs/adr/0157-organizations-require-two-factor.md): enrolment from the page's secret, the
// sign-in's code step, replay and recovery codes, and an organization that requires it.

test.describe.configure({ timeout: 300_000 });

test("enrol on /account/security → a password sign-in asks for the code: a wrong one and a replayed one refused, a recovery code works once", async ({ page }) => {
  const user = await createUserWithPassword("two-factor", "Viewer");
  await signIn(page, user);
  await page.goto("/account/security");
  await expect(page.getByRole("heading", { name: "Two-factor authentication" })).toBeVisible();
  await expectAccessible(page);
  const { secret, recoveryCodes } = await enrolOnPage(page, { screenshot: (name) => screenshots(page, name) });
  await signOut(page);

  await signInToCodeStep(page, user);
  await screenshots(page, "sign-in-code");
  await expectAccessible(page);
  await submitCode(page, wrongCode(secret), "refused");
  // The enrolment used this step's code: the next step's is inside the window and not yet used.
  const code = codeAt(secret, Date.now() + 30_000);
  await submitCode(page, code, "in");
  await signOut(page);

  await signInToCodeStep(page, user);
  await submitCode(page, code, "refused");
  await submitCode(page, recoveryCodes[0]!, "in");
  await signOut(page);

  await signInToCodeStep(page, user);
  await submitCode(page, recoveryCodes[0]!, "refused");
  await submitCode(page, recoveryCodes[1]!.toUpperCase(), "in");
  await page.goto("/account/security");
  await expect(page.getByTestId("two-factor-on")).toContainText("8 of 10 recovery codes left");
});

test("an organization requiring two-factor: its member's password sign-in lands on /account/security, and nothing else works with the session until they enrol", async ({ page, browser }) => {
  const member = await createUserWithPassword("two-factor-member", "Viewer");
  const admin = await createUserWithPassword("two-factor-admin");
  await cli("member", "add", "--user", admin.email, "--org", member.orgId!, "--role", "OrganizationAdmin");

  const adminContext = await browser.newContext();
  try {
    const adminPage = await adminContext.newPage();
    await signIn(adminPage, admin);
    await adminPage.goto(`/organizations/${member.orgId}/members`);
    const setting = adminPage.getByRole("checkbox", { name: /Require two-factor authentication/ });
    await expect(setting).not.toBeChecked();
    await setting.check();
    await expect(adminPage.getByText("Two-factor authentication is now required.")).toBeVisible();
    await screenshots(adminPage, "organization-require-two-factor");
    // The admin is a member too, signed in with a password and not enrolled: held back like the others.
    await adminPage.reload();
    await expect(adminPage).toHaveURL(/\/account\/security/);
  } finally {
    await adminContext.close();
  }

  await page.goto("/login");
  await page.getByLabel("Email").fill(member.email);
  await page.getByLabel("Password").fill(member.password);
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page).toHaveURL(/\/account\/security/, { timeout: 60_000 });
  await expect(page.getByTestId("two-factor-required")).toContainText("requires two-factor authentication");
  await page.goto(`/projects/${member.projectId}`);
  await expect(page).toHaveURL(/\/account\/security/);
  const held = await page.request.get("/api/me");
  expect(held.status()).toBe(403);
  expect(await held.json()).toMatchObject({ code: "two_factor_enrolment_required" });
  expect((await page.request.post("/api/me/tokens", { headers: sameOrigin(), data: { name: "around it" } })).status()).toBe(403);

  await enrolOnPage(page);
  expect((await page.request.get("/api/me")).status()).toBe(200);
  await page.goto(`/projects/${member.projectId}`);
  await expect(page).toHaveURL(new RegExp(`/projects/${member.projectId}`));
});
