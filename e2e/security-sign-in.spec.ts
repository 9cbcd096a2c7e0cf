import { expect, test } from "@playwright/test";
import { env } from "./owned-project";
import { createUserWithPassword, signInOverHttp, type OwnUser } from "./sign-in-helpers";

// Bounds, not expectations: each CLI call (180 s) and request (30 s) is bounded too; the machine may be loaded.
test.describe.configure({ timeout: 300_000 });

// Finding 1: a callbackUrl that starts with "/" but that the URL parser reads as another host
// (a backslash or a tab after the slash) sent the signed-in user away. Only same-origin
// targets are kept; everything else goes to the default /projects.

let user: OwnUser;

test.beforeAll(async () => {
  user = await createUserWithPassword("sign-in-redirect");
});

const base = () => new URL(env("E2E_BASE_URL"));

const targets: { name: string; callbackUrl: () => string; expected: string }[] = [
  { name: "a same-origin path with a query", callbackUrl: () => "/projects?from=callback", expected: "/projects?from=callback" },
  { name: "an absolute URL of this origin", callbackUrl: () => `${base().origin}/projects?from=absolute`, expected: "/projects?from=absolute" },
  { name: "a relative path", callbackUrl: () => "projects?from=relative", expected: "/projects?from=relative" },
  { name: "slash backslash host", callbackUrl: () => "/\\evil.example/x", expected: "/projects" },
  { name: "slash tab slash host", callbackUrl: () => "/\t/evil.example/x", expected: "/projects" },
  // The parser drops the tab: what is left is a path on this host, harmless to keep.
  { name: "slash tab host", callbackUrl: () => "/\tevil.example/x", expected: "/evil.example/x" },
  { name: "protocol-relative", callbackUrl: () => "//evil.example/x", expected: "/projects" },
  { name: "another origin", callbackUrl: () => "https://evil.example/x", expected: "/projects" },
  { name: "this host on another port", callbackUrl: () => `${base().protocol}//${base().hostname}:1/x`, expected: "/projects" },
  { name: "javascript:", callbackUrl: () => "javascript:alert(document.domain)", expected: "/projects" },
];

for (const target of targets) {
  test(`GET /login?callbackUrl=… then sign in through the form – ${target.name} → ${target.expected}`, async ({ page }) => {
    // Should the browser be sent away, the foreign host answers here instead of the network.
    await page.route((url) => url.hostname === "evil.example", (route) => route.fulfill({ status: 200, contentType: "text/html", body: "<h1>evil</h1>" }));
    await page.goto(`/login?callbackUrl=${encodeURIComponent(target.callbackUrl())}`);
    await page.getByLabel("Email").fill(user.email);
    await page.getByLabel("Password").fill(user.password);
    await page.getByRole("button", { name: "Sign in" }).click();
    await page.waitForURL((url) => url.origin !== base().origin || url.pathname !== "/login", { timeout: 120_000 });
    const landed = new URL(page.url());
    expect(landed.origin).toBe(base().origin);
    expect(`${landed.pathname}${landed.search}`).toBe(target.expected);
    await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
  });
}

test("POST /api/auth/callback/credentials – next-auth's redirect callback answers only same-origin URLs", async () => {
  for (const target of targets) {
    const result = await signInOverHttp({ email: user.email, password: user.password, callbackUrl: target.callbackUrl() });
    expect(result.status, target.name).toBe(200);
    const url = new URL((JSON.parse(result.body) as { url: string }).url);
    expect(url.origin, target.name).toBe(base().origin);
    expect(`${url.pathname}${url.search}`, target.name).toBe(target.expected);
  }
});
