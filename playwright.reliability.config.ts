import { defineConfig } from "@playwright/test";
import base from "./playwright.config";

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
  projects: undefined,
  workers: 1,
  timeout: 600_000,
  reporter: process.env.CI_REPORT_DIR
    ? [["list"], ["json", { outputFile: `${process.env.CI_REPORT_DIR}/reliability-${process.env.CI_REPORT_NAME ?? "pglite"}.json` }]]
    : [["list"]],
});
