import { defineConfig } from "@playwright/test";

/**
 * Specs that change or read the demo project global-setup's app printed (its share's slug, its
 * templates, the demo admin's project), and renders, which starts an app of its own and keeps
 * the CPU busy: one at a time. The other specs own their data (a fresh organization and project
 * each) and run beside them.
 */
const oneAtATime = new RegExp(`/(${[
  "campaign-render-webhooks",
  "campaigns",
  "landing-page",
  "player",
  "quick-start",
  "renders",
  "security-csp",
  "templates",
  "upload-sessions",
].join("|")})\\.spec\\.ts$`);

/**
 * The outage test runs last, on its own: beside another spec, SIGTERM on a busy server reset
 * some of its 50 queued batch connections (scripts/serve.mjs closes its listener 3 s after the
 * signal). It is skipped when an earlier test failed, and the run has failed already.
 */
const alone = /\/outage\.spec\.ts$/;

/**
 * Specs of what happens in the browser: the player, its autoplay and the host-page SDK's bridge
 * (they watch the wire from Chromium and read nothing a database decides), and the console's
 * forms and screens (what they check before sending, how they show the server's answers, dialogs,
 * layout). The PostgreSQL pass of scripts/run-tests.mjs sets E2E_SKIP_BROWSER_ONLY and leaves them
 * to the PGlite one: the server behaviour behind the console's forms is tested on both databases
 * by the API specs here and vitest's `database` project, and the console's pages are rendered
 * from PostgreSQL by the console flow, shares and analytics specs, which run on both.
 */
const browserOnly = new RegExp(`/(${[
  "player",
  "player-autoplay",
  "sdk-bridge",
  "console-accounts",
  "console-data-checks",
  "console-direct-uploads",
  "console-edges",
  "console-templates",
  "console-upload-drop",
  "template-compare",
].join("|")})\\.spec\\.ts$`);
const skipBrowserOnly = process.env.E2E_SKIP_BROWSER_ONLY === "1";

/** Which pass this is (PGlite, PostgreSQL, a quick start on another Node.js): each keeps its own artifacts directory, so that two passes run at once never clear each other's. */
export const passName = process.env.CI_REPORT_NAME ?? (process.env.E2E_DATABASE_URL ? "postgres" : "pglite");

// Browser tests drive Debian's Chromium against the built app, started the way the README's quick start does.
export default defineConfig({
  testDir: "e2e",
  outputDir: `test-results/e2e-${passName}`,
  globalSetup: "./e2e/global-setup.ts",
  // Hang guards, not expectations: a busy machine only makes a test slower.
  timeout: 180_000,
  expect: { timeout: 60_000 },
  workers: Number(process.env.E2E_WORKERS ?? 2),
  // CI retries a failed test once, and its summary lists every retried test as flaky (scripts/ci-summary.mjs).
  retries: process.env.CI ? 1 : 0,
  testIgnore: skipBrowserOnly ? browserOnly : undefined,
  projects: [
    { name: "demo-project", testMatch: oneAtATime, workers: 1 },
    { name: "own-data", testIgnore: [oneAtATime, alone, ...(skipBrowserOnly ? [browserOnly] : [])] },
    { name: "alone", testMatch: alone, dependencies: ["demo-project", "own-data"] },
  ],
  reporter: process.env.CI_REPORT_DIR
    ? [["list"], ["json", { outputFile: `${process.env.CI_REPORT_DIR}/playwright-${passName}.json` }]]
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
