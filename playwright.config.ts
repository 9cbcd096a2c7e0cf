import { defineConfig } from "@playwright/test";

// Browser tests drive Debian's Chromium against the built app, started the way the README's quick start does.
export default defineConfig({
  testDir: "e2e",
  globalSetup: "./e2e/global-setup.ts",
  timeout: 60_000,
  workers: 1,
  // CI retries a failed test once, and its summary lists every retried test as flaky (scripts/ci-summary.mjs).
  retries: process.env.CI ? 1 : 0,
  reporter: process.env.CI_REPORT_DIR
    ? [["list"], ["json", { outputFile: `${process.env.CI_REPORT_DIR}/playwright-${process.env.CI_REPORT_NAME ?? "pglite"}.json` }]]
    : [["list"]],
  use: {
    baseURL: process.env.E2E_BASE_URL,
    launchOptions: {
      executablePath: "/usr/bin/chromium",
      args: ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update", "--disable-sync", "--no-first-run"],
    },
    screenshot: "only-on-failure",
  },
});
