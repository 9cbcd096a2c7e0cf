import { defineConfig } from "@playwright/test";
import base from "./playwright.config";

// npm run test:reliability – the fault, load, abuse and scale-out suite (issue 15). The same
// built app and Chromium as the browser tests; specs that need processes or a database of
// their own start them, the others share the app global-setup starts.
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
