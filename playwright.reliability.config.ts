import { defineConfig } from "@playwright/test";
import base, { passName } from "./playwright.config";

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
  outputDir: `test-results/reliability-${passName}`,
  testIgnore: undefined,
  workers: Number(process.env.E2E_WORKERS ?? 2),
  // Specs that count their app's rows or read its log (the property tests, the route matrix)
  // start an app of their own (reliability/own-app.ts, useOwnSuiteApp): every spec runs side by side.
  projects: [{ name: "reliability" }],
  timeout: 600_000,
  reporter: process.env.CI_REPORT_DIR
    ? [["list"], ["json", { outputFile: `${process.env.CI_REPORT_DIR}/reliability-${passName}.json` }]]
    : [["list"]],
});
