import { expect, test, type APIRequestContext, type Page } from "@playwright/test";
import { directives } from "./csp";
import { demoShareUrl, env } from "./owned-project";

// Pages run only the scripts the server put there: script-src is a per-response nonce with
// 'strict-dynamic' and no 'unsafe-inline', so markup injected later (an XSS found some day)
// cannot run script. The player iframe and the demo customer page keep their own policies.

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

const shareSlug = async (request: APIRequestContext) => new URL(await demoShareUrl(request)).pathname.split("/").pop()!;

async function signIn(page: Page) {
  await page.goto("/login");
  await page.getByLabel("Email").fill(env("E2E_ADMIN_EMAIL"));
  await page.getByLabel("Password").fill(env("E2E_ADMIN_PASSWORD"));
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page).toHaveURL(/\/projects$/);
}

/** What an HTML injection (a stored or reflected XSS) would add to the served document. */
const injectedMarkup = `<script>window.injectedScriptRan = true</script><img src="data:," onerror="window.injectedHandlerRan = true">`;

type Injected = { violations: string[]; scriptRan: boolean; handlerRan: boolean };

/**
 * Opens `url` with the markup injected into the document as served (its headers untouched),
 * and reports the CSP violations the browser raised and whether the injected code ran.
 */
async function openWithInjection(page: Page, url: string): Promise<Injected> {
  await page.addInitScript(() => {
    const violations: string[] = [];
    (window as unknown as { cspViolations: string[] }).cspViolations = violations;
    document.addEventListener("securitypolicyviolation", (event) => violations.push(event.violatedDirective));
  });
  await page.route(url, async (route) => {
    if (route.request().resourceType() !== "document") return route.continue();
    const response = await route.fetch({ maxRedirects: 0 });
    const body = (await response.text()).replace("</main>", `${injectedMarkup}</main>`);
    expect(body).toContain(injectedMarkup);
    await route.fulfill({ response, body });
  });
  await page.goto(url);
  type Flags = { cspViolations: string[]; injectedScriptRan?: boolean; injectedHandlerRan?: boolean };
  // Both injections either ran or were reported (violation events are queued as tasks).
  await page.waitForFunction(
    () => {
      const flags = window as unknown as Flags;
      return flags.cspViolations.length >= 2 || (flags.injectedScriptRan === true && flags.injectedHandlerRan === true);
    },
    null,
    { timeout: 60_000 },
  );
  return page.evaluate(() => {
    const flags = window as unknown as Flags;
    return { violations: [...flags.cspViolations], scriptRan: flags.injectedScriptRan === true, handlerRan: flags.injectedHandlerRan === true };
  });
}

const pages: { name: string; url: (request: APIRequestContext) => Promise<string>; signedIn: boolean }[] = [
  { name: "GET /login", url: async () => "/login", signedIn: false },
  { name: "GET /projects (signed in)", url: async () => "/projects", signedIn: true },
  { name: "GET /v/:slug (the landing page)", url: demoShareUrl, signedIn: false },
  { name: "GET /api/docs (the API reference)", url: async () => "/api/docs", signedIn: false },
];

for (const { name, url, signedIn } of pages) {
  test.describe(name, () => {
    test.beforeEach(async ({ page }) => {
      if (signedIn) await signIn(page);
    });

    test(`${name} – script-src is a fresh nonce with 'strict-dynamic', no 'unsafe-inline'`, async ({ page }) => {
      const first = await page.request.get(await url(page.request), { maxRedirects: 0 });
      const second = await page.request.get(await url(page.request), { maxRedirects: 0 });
      expect(first.status()).toBe(200);
      expect(second.status()).toBe(200);
      const nonce = scriptNonce(first.headers()["content-security-policy"] ?? "");
      expect(scriptNonce(second.headers()["content-security-policy"] ?? "")).not.toBe(nonce);
    });

    test(`${name} – every <script> of the document carries the response's nonce`, async ({ page }) => {
      const response = await page.request.get(await url(page.request), { maxRedirects: 0 });
      const nonce = scriptNonce(response.headers()["content-security-policy"] ?? "");
      const tags = scriptTagNonces(await response.text());
      expect(tags.length).toBeGreaterThan(0);
      expect(tags.every((tagNonce) => tagNonce === nonce), `script nonces ${JSON.stringify(tags)} vs ${nonce}`).toBe(true);
    });

    test(`${name} – keeps the other directives and security headers`, async ({ page }) => {
      const response = await page.request.get(await url(page.request), { maxRedirects: 0 });
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
      const injected = await openWithInjection(page, await url(page.request));
      expect(injected.scriptRan).toBe(false);
      expect(injected.handlerRan).toBe(false);
      expect(injected.violations.sort()).toEqual(["script-src-attr", "script-src-elem"]);
      // The page's own scripts ran: Next hydrated it from its flight data, pushed by nonce'd inline scripts.
      expect(await page.evaluate(() => Array.isArray((window as unknown as { __next_f?: unknown }).__next_f))).toBe(true);
    });
  });
}

test("GET /login – the sign-in form still works under the nonce policy", async ({ page }) => {
  await signIn(page);
  await expect(page.getByRole("list", { name: "Projects" }).getByText("Demo project")).toBeVisible();
});

// The iframe document and the demo page are framed by, or frame, other sites: their policies are their own.
const ownPolicies: { name: string; url: (request: APIRequestContext) => Promise<string> }[] = [
  { name: "GET /embed/:slug (the player iframe)", url: async (request) => `/embed/${await shareSlug(request)}` },
  { name: "GET /demo/embed (the demo customer page)", url: async (request) => `/demo/embed?share=${await shareSlug(request)}` },
];

for (const { name, url } of ownPolicies) {
  test(`${name} – its own CSP allows no inline script`, async ({ request }) => {
    const response = await request.get(await url(request));
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
