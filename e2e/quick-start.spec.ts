import { randomUUID } from "node:crypto";
import { expect, test } from "@playwright/test";
import { demoShareUrl, env, runCli } from "./owned-project";

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
  const email = `pm-${randomUUID()}@example.com`;
  await runCli("user", "create", "--email", email);
  await runCli("member", "add", "--user", email, "--project", env("E2E_PROJECT_ID"), "--role", "ProjectManager");
  const { token } = await runCli<{ token: string }>("token", "create", "--user", email);
  expect(token).toMatch(/^rbk_/);

  const url = `/api/credentials?projectId=${env("E2E_PROJECT_ID")}`;
  expect((await request.get(url, { headers: { Authorization: `Bearer ${token}` } })).status()).toBe(200);
  expect((await request.get(url, { headers: { Authorization: `Bearer ${token}x` } })).status()).toBe(401);
});

test("icons – the sign-in page and a share's landing page name the app's icons, and each answers with an image", async ({ page, request }) => {
  const wrong: string[] = [];
  page.on("response", (response) => {
    if (response.status() >= 400) wrong.push(`${response.status()} ${response.url()}`);
  });
  for (const url of ["/login", await demoShareUrl(request)]) {
    await page.goto(url);
    const icons = await page.locator('link[rel="icon"], link[rel="apple-touch-icon"], link[rel="manifest"]').evaluateAll((links) => links.map((link) => (link as HTMLLinkElement).href));
    expect(icons.length, url).toBeGreaterThanOrEqual(3);
    for (const icon of icons) expect((await request.get(icon)).status(), icon).toBe(200);
  }
  const favicon = await request.get("/favicon.ico");
  expect(favicon.headers()["content-type"]).toBe("image/x-icon");
  expect((await favicon.body()).subarray(0, 4)).toEqual(Buffer.from([0, 0, 1, 0]));
  const manifest = (await (await request.get("/manifest.webmanifest")).json()) as { icons: { src: string }[] };
  for (const { src } of manifest.icons) expect((await request.get(src)).headers()["content-type"]).toBe("image/png");
  expect(wrong).toEqual([]);
});
