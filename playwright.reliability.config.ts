import { defineConfig } from "@playwright/test";
import base from "./playwright.config";

/**
 * Specs that count the shared app's rows and blobs or read its log for errors (the property
 * tests, the route matrix): nothing else may write to that app or make it log while they run,
 * so they run one after the other once the others are done.
 */
const alone = /\/(properties|route-matrix)\.spec\.ts$/;

// npm run test:reliability – the fault, load, abuse and scale-out suite (issue 15). The same
// built app and Chromium as the browser tests; specs that need processes or a database of
// their own start them, the others share the app global-setup starts.

// Its specs play many clients from this one machine (sign-in and slug-guessing limits per
// address): its apps trust the loopback hop, so each test's X-Forwarded-For address is its
// address (e2e/own-instance.ts). The browser tests keep the default, and
// e2e/security-client-address.spec.ts tests both.
process.env.E2E_TRUSTED_PROXIES ??= "loopback";

export default defineConfig({
  ...base,
  testDir: "reliability",
  testIgnore: undefined,
  workers: Number(process.env.E2E_WORKERS ?? 2),
  projects: [
    { name: "side-by-side", testIgnore: alone },
    { name: "alone", testMatch: alone, workers: 1, dependencies: ["side-by-side"] },
  ],
  timeout: 600_000,
  reporter: process.env.CI_REPORT_DIR
    ? [["list"], ["json", { outputFile: `${process.env.CI_REPORT_DIR}/reliability-${process.env.CI_REPORT_NAME ?? "pglite"}.json` }]]
    : [["list"]],
});
