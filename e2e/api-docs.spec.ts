import { mkdirSync } from "node:fs";
import { expect, test } from "@playwright/test";
import { screenshotDir } from "./console-helpers";
import { directives } from "./csp";

// GET /api/docs – the API reference: GET /api/openapi.json rendered by Scalar's viewer, public
// like the document, every byte of it from this server, under the pages' nonce policy as it is
// (docs/adr/0140-api-reference-page-and-allow.md).

/** A policy's directives with the nonce left out, to compare two pages' policies. */
const withoutNonce = (csp: string) => [...directives(csp)].map(([name, sources]) => [name, sources.filter((source) => !source.startsWith("'nonce-"))]);

test("GET /api/docs – anonymous, under the same CSP as the other pages", async ({ request }) => {
  const [docs, login] = await Promise.all([request.get("/api/docs", { maxRedirects: 0 }), request.get("/login", { maxRedirects: 0 })]);
  expect(docs.status()).toBe(200);
  expect(docs.headers()["content-type"]).toMatch(/^text\/html/);
  expect(withoutNonce(docs.headers()["content-security-policy"] ?? "")).toEqual(withoutNonce(login.headers()["content-security-policy"] ?? ""));
  expect(docs.headers()["referrer-policy"]).toBe("strict-origin-when-cross-origin");
});

test("GET /api/docs – the viewer renders the document's operations, with no CSP violation and no request to another host", async ({ page, baseURL }) => {
  const app = new URL(baseURL!).origin;
  const elsewhere: string[] = [];
  page.on("request", (request) => {
    const url = new URL(request.url());
    if (url.protocol.startsWith("http") && url.origin !== app) elsewhere.push(request.url());
  });
  const consoleErrors: string[] = [];
  page.on("console", (message) => {
    if (message.type() === "error") consoleErrors.push(message.text());
  });
  await page.addInitScript(() => {
    const violations: string[] = [];
    (window as unknown as { cspViolations: string[] }).cspViolations = violations;
    document.addEventListener("securitypolicyviolation", (event) => violations.push(`${event.violatedDirective} ${event.blockedURI}`));
  });
  await page.setViewportSize({ width: 1280, height: 800 });

  const openApiDocument = page.waitForResponse((response) => new URL(response.url()).pathname === "/api/openapi.json");
  expect((await page.goto("/api/docs"))?.status()).toBe(200);
  expect((await openApiDocument).status()).toBe(200);
  // An operation of the route table, picked in the viewer's sidebar under its tag (a group the
  // viewer opens on a click): its summary, then its method and path.
  const summary = "List the project's public video shares (at most one per channel)";
  await page.getByRole("button", { name: "Open Group - Shares" }).click();
  await page.getByRole("link", { name: summary }).click();
  await expect(page.getByRole("heading", { name: summary })).toBeVisible();
  // The tag's list of operations links it by method and path.
  await expect(page.getByRole("link", { name: "get /api/Projects/{projectId}/public-video-shares", exact: true })).toBeVisible();

  mkdirSync(screenshotDir, { recursive: true });
  await page.screenshot({ path: `${screenshotDir}/api-docs-desktop.png` });
  expect(await page.evaluate(() => (window as unknown as { cspViolations: string[] }).cspViolations)).toEqual([]);
  expect(consoleErrors).toEqual([]);
  expect(elsewhere).toEqual([]);
});
