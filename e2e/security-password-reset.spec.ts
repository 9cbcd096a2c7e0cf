import { randomUUID } from "node:crypto";
import { expect, test } from "@playwright/test";
import { expectAccessible, screenshots } from "./console-helpers";
import { cli } from "./owned-project";

// Issue 37: password reset and invitations on the suite's instance, which has no mail (no
// SMTP_URL). Nothing a stranger can reach tells whether an address has an account or hands them
// a reset link: the link goes to the server log only, and the page says to ask an administrator.
// An invitation's accept link is then shown to the inviting admin (delivery "link"). The flows
// with mail are in e2e/mail.spec.ts.

const run = randomUUID().slice(0, 8);

test("without mail, /forgot-password says to ask an administrator and offers no form", async ({ page }) => {
  await page.goto("/login");
  await page.getByRole("link", { name: "Forgot password?" }).click();
  await expect(page.getByTestId("no-mail")).toContainText("Ask an administrator");
  await expect(page.getByRole("textbox")).toHaveCount(0);
  await expectAccessible(page);
  await screenshots(page, "forgot-password-without-mail");
});

test("without mail, POST /api/password-resets for a known and an unknown address: the same 202, no link in either answer", async ({ request }) => {
  const email = `reset-known-${run}@example.com`;
  await cli("user", "create", "--email", email, "--password", `pw-${randomUUID()}`);
  const [known, unknown] = await Promise.all([
    request.post("/api/password-resets", { data: { email } }),
    request.post("/api/password-resets", { data: { email: `reset-unknown-${run}@example.com` } }),
  ]);
  expect([known.status(), unknown.status()]).toEqual([202, 202]);
  const [a, b] = await Promise.all([known.text(), unknown.text()]);
  expect(a).toBe(b);
  expect(a).toMatch(/ask an administrator/);
  expect(a).not.toMatch(/rbr_|reset-password/);
});

test("a reset link that was never made, or is malformed: the page tells nothing about any account; the API answers 404 / 422", async ({ page, request }) => {
  for (const token of [`rbr_${"A".repeat(43)}`, "rbr_short"]) {
    await page.goto(`/reset-password/${token}`);
    await expect(page.getByRole("main").getByRole("alert")).toContainText("does not work any more");
    await expect(page.getByRole("main")).not.toContainText("@");
  }
  expect((await request.post("/api/password-resets/complete", { data: { token: `rbr_${"A".repeat(43)}`, password: "a long enough passphrase" } })).status()).toBe(404);
  expect((await request.post("/api/password-resets/complete", { data: { token: "rbr_short", password: "a long enough passphrase" } })).status()).toBe(422);
  expect((await request.post("/api/password-resets/complete", { data: { token: `rbr_${"A".repeat(43)}`, password: "a long enough passphrase", userId: randomUUID() } })).status()).toBe(422);
});

test("without mail, an invitation's answer carries its accept link (delivery link), and re-sending gives a new one while the old stops working", async ({ request }) => {
  const org = await cli<{ id: string }>("org", "create", "--name", `No mail ${run}`);
  const adminEmail = `nomail-admin-${run}@example.com`;
  await cli("user", "create", "--email", adminEmail, "--password", `pw-${randomUUID()}`);
  await cli("member", "add", "--user", adminEmail, "--org", org.id, "--role", "OrganizationAdmin");
  const { token } = await cli<{ token: string }>("token", "create", "--user", adminEmail);
  const auth = { Authorization: `Bearer ${token}` };
  const invited = await request.post(`/api/organizations/${org.id}/members`, { headers: auth, data: { email: `nomail-invitee-${run}@example.com`, role: "Viewer" } });
  expect(invited.status()).toBe(201);
  const first = (await invited.json()) as { id: string; delivery: string; acceptUrl: string };
  expect(first).toMatchObject({ delivery: "link", acceptUrl: expect.stringMatching(/\/invitations\/rbi_/) as unknown });
  const resent = await request.post(`/api/organizations/${org.id}/invitations/${first.id}/resend`, { headers: auth });
  expect(resent.status()).toBe(200);
  const second = (await resent.json()) as { delivery: string; acceptUrl: string };
  expect(second.delivery).toBe("link");
  expect(second.acceptUrl).not.toBe(first.acceptUrl);
  expect((await request.get(new URL(first.acceptUrl).pathname)).status()).toBe(404);
  expect((await request.get(new URL(second.acceptUrl).pathname)).status()).toBe(200);
  // A Viewer of the organization cannot re-send.
  const viewerEmail = `nomail-viewer-${run}@example.com`;
  await cli("user", "create", "--email", viewerEmail, "--password", `pw-${randomUUID()}`);
  await cli("member", "add", "--user", viewerEmail, "--org", org.id, "--role", "Viewer");
  const viewer = await cli<{ token: string }>("token", "create", "--user", viewerEmail);
  expect((await request.post(`/api/organizations/${org.id}/invitations/${first.id}/resend`, { headers: { Authorization: `Bearer ${viewer.token}` } })).status()).toBe(403);
});
