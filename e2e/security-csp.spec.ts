import { expect, test, type Page } from "@playwright/test";
import { env } from "./owned-project";

// Pages run only the scripts the server put there: script-src is a per-response nonce with
// 'strict-dynamic' and no 'unsafe-inline', so markup injected later (an XSS found some day)
// cannot run script. The player iframe and the demo customer page keep their own policies.

/** The directives of a CSP header, by name. */
function directives(csp: string): Map<string, string[]> {
  const parsed = new Map<string, string[]>();
  for (const directive of csp.split(";")) {
    const [name, ...sources] = directive.trim().split(/\s+/);
    if (name) parsed.set(name.toLowerCase(), sources);
  }
  return parsed;
}

/** The nonce of script-src, asserting the policy is nonce-based and allows no inline script. */
function scriptNonce(csp: string): string {
  const scriptSrc = directives(csp).get("script-src") ?? [];
  expect(scriptSrc, csp).toContain("'strict-dynamic'");
  expect(scriptSrc, csp).not.toContain("'unsafe-inline'");
  const nonces = scriptSrc.filter((source) => /^'nonce-[A-Za-z0-9+/_-]+={0,2}'$/.test(source));
  expect(nonces, csp).toHaveLength(1);
  return nonces[0]!.slice("'nonce-".length, -1);
}

/** Every <script> start tag of a document with its nonce attribute (null when it has none). */
function scriptTagNonces(html: string): (string | null)[] {
  return [...html.matchAll(/<script\b[^>]*>/gi)].map((tag) => /\snonce="([^"]*)"/.exec(tag[0])?.[1] ?? null);
}

const shareUrl = () => env("E2E_SHARE_URL");
const shareSlug = () => new URL(shareUrl()).pathname.split("/").pop()!;

async function signIn(page: Page) {
  await page.goto("/login");
  await page.getByLabel("Email").fill(env("E2E_ADMIN_EMAIL"));
  await page.getByLabel("Password").fill(env("E2E_ADMIN_PASSWORD"));
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page).toHaveURL(/\/projects$/);
}

/**
 * Injects what an XSS would: an inline <script> and an inline event handler. Resolves with the
 * CSP violations the browser reported and whether either ran.
 */
async function injectInlineScripts(page: Page) {
  return page.evaluate(async () => {
    const violations: string[] = [];
    document.addEventListener("securitypolicyviolation", (event) => violations.push(event.violatedDirective));
    const flags = window as unknown as { injectedScriptRan?: boolean; injectedHandlerRan?: boolean };
    const script = document.createElement("script");
    script.textContent = "window.injectedScriptRan = true";
    document.body.append(script);
    const holder = document.createElement("div");
    holder.innerHTML = `<img src="data:," onerror="window.injectedHandlerRan = true">`;
    document.body.append(holder);
    // Violation events are queued as tasks; two are reported, or we give up after a bound.
    for (let waited = 0; violations.length < 2 && waited < 5_000; waited += 50) await new Promise((resolve) => setTimeout(resolve, 50));
    return { violations, scriptRan: flags.injectedScriptRan === true, handlerRan: flags.injectedHandlerRan === true };
  });
}

const pages: { name: string; url: () => string; signedIn: boolean }[] = [
  { name: "GET /login", url: () => "/login", signedIn: false },
  { name: "GET /projects (signed in)", url: () => "/projects", signedIn: true },
  { name: "GET /v/:slug (the landing page)", url: shareUrl, signedIn: false },
];

for (const { name, url, signedIn } of pages) {
  test.describe(name, () => {
    test.beforeEach(async ({ page }) => {
      if (signedIn) await signIn(page);
    });

    test(`${name} – script-src is a fresh nonce with 'strict-dynamic', no 'unsafe-inline'`, async ({ page }) => {
      const first = await page.request.get(url(), { maxRedirects: 0 });
      const second = await page.request.get(url(), { maxRedirects: 0 });
      expect(first.status()).toBe(200);
      expect(second.status()).toBe(200);
      const nonce = scriptNonce(first.headers()["content-security-policy"] ?? "");
      expect(scriptNonce(second.headers()["content-security-policy"] ?? "")).not.toBe(nonce);
    });

    test(`${name} – every <script> of the document carries the response's nonce`, async ({ page }) => {
      const response = await page.request.get(url(), { maxRedirects: 0 });
      const nonce = scriptNonce(response.headers()["content-security-policy"] ?? "");
      const tags = scriptTagNonces(await response.text());
      expect(tags.length).toBeGreaterThan(0);
      expect(tags.every((tagNonce) => tagNonce === nonce), `script nonces ${JSON.stringify(tags)} vs ${nonce}`).toBe(true);
    });

    test(`${name} – keeps the other directives and security headers`, async ({ page }) => {
      const response = await page.request.get(url(), { maxRedirects: 0 });
      const headers = response.headers();
      const policy = directives(headers["content-security-policy"] ?? "");
      expect(policy.get("default-src")).toEqual(["'self'"]);
      expect(policy.get("object-src")).toEqual(["'none'"]);
      expect(policy.get("base-uri")).toEqual(["'self'"]);
      expect(policy.get("form-action")).toEqual(["'self'"]);
      expect(policy.get("frame-ancestors")).toEqual(["'none'"]);
      expect(policy.get("connect-src")?.[0]).toBe("'self'");
      expect(policy.get("img-src")).toContain("'self'");
      expect(policy.get("font-src")).toEqual(["'self'"]);
      expect(headers["x-content-type-options"]).toBe("nosniff");
      expect(headers["referrer-policy"]).toBe("strict-origin-when-cross-origin");
    });

    test(`${name} – in Chromium, an injected inline script and event handler do not run`, async ({ page }) => {
      const violations: string[] = [];
      page.on("console", (message) => {
        if (message.type() === "error" && /Content Security Policy/.test(message.text())) violations.push(message.text());
      });
      await page.goto(url());
      // The page's own scripts ran: Next hydrated it (its flight data was pushed by nonce'd inline scripts).
      await expect.poll(() => page.evaluate(() => Array.isArray((window as unknown as { __next_f?: unknown }).__next_f))).toBe(true);
      expect(violations, "the page's own scripts are allowed").toEqual([]);

      const injected = await injectInlineScripts(page);
      expect(injected.scriptRan).toBe(false);
      expect(injected.handlerRan).toBe(false);
      expect(injected.violations).toEqual(["script-src-elem", "script-src-attr"]);
    });
  });
}

test("GET /login – the sign-in form still works under the nonce policy", async ({ page }) => {
  await signIn(page);
  await expect(page.getByRole("list", { name: "Projects" }).getByText("Demo project")).toBeVisible();
});

// The iframe document and the demo page are framed by, or frame, other sites: their policies are their own.
const ownPolicies: { name: string; url: () => string }[] = [
  { name: "GET /embed/:slug (the player iframe)", url: () => `/embed/${shareSlug()}` },
  { name: "GET /demo/embed (the demo customer page)", url: () => `/demo/embed?share=${shareSlug()}` },
];

for (const { name, url } of ownPolicies) {
  test(`${name} – its own CSP allows no inline script`, async ({ request }) => {
    const response = await request.get(url());
    expect(response.status()).toBe(200);
    const policy = directives(response.headers()["content-security-policy"] ?? "");
    expect(policy.get("script-src")).toBeDefined();
    expect(policy.get("script-src")).not.toContain("'unsafe-inline'");
    expect(policy.get("object-src")).toEqual(["'none'"]);
    // No executable inline script: the player's manifest is a JSON data block.
    const inline = [...(await response.text()).matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/gi)].filter(
      ([, attributes, body]) => !/\ssrc=/.test(attributes!) && !/type="application\/json"/.test(attributes!) && body!.trim() !== "",
    );
    expect(inline).toEqual([]);
  });
}
