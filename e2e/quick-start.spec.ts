import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { expect, test } from "@playwright/test";
import { cliEnv, env } from "./owned-project";

test("quick start – signing in with the printed credentials shows the project list", async ({ page }) => {
  await page.goto("/");
  await expect(page).toHaveURL(/\/login/);
  await page.getByLabel("Email").fill(env("E2E_ADMIN_EMAIL"));
  await page.getByLabel("Password").fill(env("E2E_ADMIN_PASSWORD"));
  await page.getByRole("button", { name: "Sign in" }).click();

  await expect(page).toHaveURL(/\/projects$/);
  const projects = page.getByRole("list", { name: "Projects" });
  await expect(projects.getByText("Demo project")).toBeVisible();
  await expect(projects.getByText("OrganizationAdmin")).toBeVisible();
  await expect(page.getByText(env("E2E_ADMIN_EMAIL"))).toBeVisible();

  await page.getByRole("button", { name: "Sign out" }).click();
  await expect(page).toHaveURL(/\/login/);
  await page.goto("/projects");
  await expect(page).toHaveURL(/\/login/);
});

test("login – a wrong password is refused with a message", async ({ page }) => {
  await page.goto("/login");
  await page.getByLabel("Email").fill(env("E2E_ADMIN_EMAIL"));
  await page.getByLabel("Password").fill("not-the-password");
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page.getByRole("alert").filter({ hasText: "incorrect" })).toHaveText("Email or password is incorrect.");
  await expect(page).toHaveURL(/\/login/);
});

test("pages – carry a Content-Security-Policy", async ({ request }) => {
  const response = await request.get("/login");
  expect(response.status()).toBe(200);
  const csp = response.headers()["content-security-policy"] ?? "";
  expect(csp).toContain("default-src 'self'");
  expect(csp).toContain("frame-ancestors 'none'");
  expect(csp).toContain("object-src 'none'");
});

test("API – the printed token lists the demo project's credentials", async ({ request }) => {
  const response = await request.get(`/api/credentials?projectId=${env("E2E_PROJECT_ID")}`, {
    headers: { Authorization: `Bearer ${env("E2E_API_TOKEN")}` },
  });
  expect(response.status()).toBe(200);
  const body = (await response.json()) as { items: { apiKey: string }[] };
  expect(body.items[0]?.apiKey).toMatch(/^pk_/);
});

test("CLI – `reelbind token create` while the server runs gives a working Bearer token", async ({ request }) => {
  const run = (...args: string[]) =>
    promisify(execFile)(process.execPath, ["bin/reelbind.mjs", ...args], {
      env: cliEnv(),
      timeout: 60_000,
    });
  const email = `pm-${Date.now()}@example.com`;
  await run("user", "create", "--email", email);
  await run("member", "add", "--user", email, "--project", env("E2E_PROJECT_ID"), "--role", "ProjectManager");
  const { stdout } = await run("token", "create", "--user", email);
  const { token } = JSON.parse(stdout) as { token: string };
  expect(token).toMatch(/^rbk_/);

  const url = `/api/credentials?projectId=${env("E2E_PROJECT_ID")}`;
  expect((await request.get(url, { headers: { Authorization: `Bearer ${token}` } })).status()).toBe(200);
  expect((await request.get(url, { headers: { Authorization: `Bearer ${token}x` } })).status()).toBe(401);
});
