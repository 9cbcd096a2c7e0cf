// npm run bench:console – how long each console page takes to load, in headless Chromium on
// loopback against the product as the quick start runs it (the built app, PGlite, demo data):
//   • first visit: each page's first request after a server start, in a fresh browser context
//     (cold HTTP cache), pages in the order a user meets them; BENCH_CONSOLE_STARTS starts (3),
//     each with the demo data, a campaign of three recipients and one view of the PROD share;
//   • warm: the same page again in a context that has loaded it (BENCH_CONSOLE_SAMPLES, 7);
//   • the baseline, in the same run and the same way: the sign-in page (no session, no data).
// "Loaded" is from the navigation's start to the end of its load event: the page's HTML, its
// styles and every script fetched and run (the page hydrated). Where the time goes: the server's part
// (time to first byte) and the JavaScript the page fetched (compressed bytes, cold visits).
// Goal (issue 32): every page ≤ 1 s warm and ≤ 1.5 s on a first visit. Prints a table and JSON.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { chromium, type Browser, type BrowserContext } from "@playwright/test";
import { startApp, type StartedApp } from "@/testing/start-app";
import { benchSecrets } from "./processes";

const starts = Number(process.env.BENCH_CONSOLE_STARTS ?? 3);
const samples = Number(process.env.BENCH_CONSOLE_SAMPLES ?? 7);

type Load = { loadedMs: number; serverMs: number; scriptKb: number; slowest: { name: string; ms: number } };
type Stats = { p50: number; max: number };
type ConsolePage = { name: string; path: string };

function stats(values: number[]): Stats {
  const sorted = [...values].sort((a, b) => a - b);
  return { p50: Math.round(sorted[Math.floor(sorted.length / 2)]!), max: Math.round(sorted.at(-1)!) };
}

/** A banner line's id in parentheses, e.g. "Organization: Demo org (uuid)". */
function bannerId(app: StartedApp, label: string): string {
  const match = new RegExp(`^\\s+${label}:.*\\(([^()]*, )?([0-9a-f-]{36})\\)$`, "m").exec(app.output());
  if (!match) throw new Error(`The banner has no ${label} id:\n${app.output()}`);
  return match[2]!;
}

async function api<T>(app: StartedApp, method: string, route: string, body?: unknown): Promise<T> {
  const response = await fetch(`${app.baseUrl}/api/${route}`, {
    method,
    headers: { Authorization: `Bearer ${app.token}`, ...(body ? { "Content-Type": "application/json" } : {}) },
    body: body ? JSON.stringify(body) : undefined,
    signal: AbortSignal.timeout(60_000),
  });
  if (!response.ok) throw new Error(`${method} ${route}: ${response.status} ${await response.text()}`);
  return (await response.json()) as T;
}

/** A headless Chromium's own user agent is counted as a bot: a viewer's desktop Chrome. */
const desktopChrome = "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36";

/** Plays the demo's PROD share to the end on its landing page, so the Analytics page has charts to draw. */
async function watchDemoShare(browser: Browser, app: StartedApp): Promise<void> {
  const context = await browser.newContext({ userAgent: desktopChrome });
  try {
    await (await context.newPage()).goto(app.shareUrl);
    const completed = async () => (await api<{ summary: { completedPlays: number } }>(app, "GET", `Projects/${app.projectId}/analytics`)).summary.completedPlays > 0;
    for (const deadline = Date.now() + 120_000; !(await completed()); await new Promise((resolve) => setTimeout(resolve, 250))) {
      if (Date.now() > deadline) throw new Error("The demo share's play was not counted within 120 s");
    }
  } finally {
    await context.close();
  }
}

/** The console's pages for the demo project, with a campaign of three recipients made through the API. */
async function consolePages(app: StartedApp): Promise<ConsolePage[]> {
  const project = `/projects/${app.projectId}`;
  const campaign = await api<{ id: string }>(app, "POST", `Projects/${app.projectId}/campaigns`, { name: "Bench", channel: "PROD" });
  await api(app, "POST", `Projects/${app.projectId}/campaigns/${campaign.id}/recipients`, {
    recipients: ["Ana", "Ben", "Chloé"].map((name, index) => ({ id: `r${index}`, name })),
  });
  return [
    { name: "Projects", path: "/projects" },
    { name: "Project overview", path: project },
    { name: "Shares", path: `${project}/shares` },
    { name: "Share (PROD)", path: `${project}/shares/PROD` },
    { name: "Templates", path: `${project}/templates` },
    { name: "Template", path: `${project}/templates/${bannerId(app, "Template")}` },
    { name: "Upload a template", path: `${project}/templates/upload` },
    { name: "Analytics", path: `${project}/analytics` },
    { name: "Campaigns", path: `${project}/campaigns` },
    { name: "Campaign", path: `${project}/campaigns/${campaign.id}` },
    { name: "API credentials", path: `${project}/credentials` },
    { name: "Webhooks", path: `${project}/webhooks` },
    { name: "Audit log", path: `${project}/audit` },
    { name: "Members", path: `/organizations/${bannerId(app, "Organization")}/members` },
    { name: "Access tokens", path: "/account/tokens" },
  ];
}

/** The session cookie of the demo admin, signed in as the form does it (CSRF token, credentials callback). */
async function sessionCookie(app: StartedApp): Promise<{ name: string; value: string }> {
  const csrf = await fetch(`${app.baseUrl}/api/auth/csrf`, { signal: AbortSignal.timeout(60_000) });
  const { csrfToken } = (await csrf.json()) as { csrfToken: string };
  const response = await fetch(`${app.baseUrl}/api/auth/callback/credentials`, {
    method: "POST",
    redirect: "manual",
    headers: { cookie: csrf.headers.getSetCookie().map((c) => c.split(";")[0]).join("; "), "Content-Type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({ email: app.adminEmail, password: app.adminPassword, csrfToken, callbackUrl: "/projects", json: "true" }),
    signal: AbortSignal.timeout(60_000),
  });
  const cookie = response.headers.getSetCookie().map((c) => c.split(";")[0]!).find((c) => /session-token=./.test(c));
  if (!cookie) throw new Error(`Sign-in failed: ${response.status}`);
  const [name, value] = [cookie.slice(0, cookie.indexOf("=")), cookie.slice(cookie.indexOf("=") + 1)];
  return { name, value };
}

/** A fresh browser context, signed in when given the session cookie. */
async function browserContext(browser: Browser, app: StartedApp, cookie: { name: string; value: string } | null): Promise<BrowserContext> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  if (cookie) await context.addCookies([{ ...cookie, url: app.baseUrl }]);
  return context;
}

/** Loads `url` in `context` and reads the navigation's timings. */
async function load(context: BrowserContext, url: string): Promise<Load> {
  const page = await context.newPage();
  try {
    const response = await page.goto(url, { waitUntil: "load", timeout: 120_000 });
    if (!response?.ok()) throw new Error(`${url}: ${response?.status()}`);
    // The heading is in the server's HTML: its absence means an error page, not a slow one.
    await page.locator("main h1").first().waitFor({ timeout: 120_000 });
    await page.waitForFunction(() => (performance.getEntriesByType("navigation")[0] as PerformanceNavigationTiming).loadEventEnd > 0, null, { timeout: 120_000 });
    return await page.evaluate(() => {
      const navigation = performance.getEntriesByType("navigation")[0] as PerformanceNavigationTiming;
      const scripts = (performance.getEntriesByType("resource") as PerformanceResourceTiming[]).filter((entry) => entry.initiatorType === "script");
      // Prefetches of linked pages and the favicon may end after the load event: not waited for.
      const waitedFor = (performance.getEntriesByType("resource") as PerformanceResourceTiming[]).filter((entry) => entry.responseEnd <= navigation.loadEventStart);
      const slowest = waitedFor.sort((a, b) => b.responseEnd - a.responseEnd)[0];
      return {
        loadedMs: navigation.loadEventEnd,
        slowest: { name: slowest ? new URL(slowest.name).pathname : "", ms: slowest?.responseEnd ?? 0 },
        serverMs: navigation.responseStart - navigation.requestStart,
        scriptKb: scripts.reduce((sum, entry) => sum + entry.transferSize, 0) / 1024,
      };
    });
  } finally {
    await page.close();
  }
}

/** The resource that ended last in the median warm load, and when: what that load waited for. */
function lastResource(loads: Load[]): string {
  const median = [...loads].sort((a, b) => a.loadedMs - b.loadedMs)[Math.floor(loads.length / 2)]!;
  return `${median.slowest.name} (${Math.round(median.slowest.ms)} ms)`;
}

type Row = { name: string; first: Stats; warm: Stats; firstServer: Stats; warmServer: Stats; scriptKb: number; lastResource: string };

async function main() {
  const browser = await chromium.launch({ executablePath: "/usr/bin/chromium" });
  const first = new Map<string, Load[]>();
  const warm = new Map<string, Load[]>();
  const record = (into: Map<string, Load[]>, name: string, value: Load) => into.set(name, [...(into.get(name) ?? []), value]);
  const baseline = "Sign-in page (baseline)";
  try {
    for (let start = 0; start < starts; start++) {
      const dataDir = mkdtempSync(path.join(tmpdir(), "reelbind-bench-console-"));
      const env: NodeJS.ProcessEnv = { ...process.env, ...benchSecrets, DATA_DIR: dataDir, ROLLUP_JOB: "0" };
      delete env.DATABASE_URL;
      const app = await startApp(env, 900_000);
      try {
        // Setting up the demo's campaign, a view and the session goes through the API and the landing page, not the console.
        const pages = await consolePages(app);
        await watchDemoShare(browser, app);
        const cookie = await sessionCookie(app);
        const anonymous = await browserContext(browser, app, null);
        record(first, baseline, await load(anonymous, `${app.baseUrl}/login`));
        for (const { name, path: route } of pages) {
          const context = await browserContext(browser, app, cookie);
          record(first, name, await load(context, app.baseUrl + route));
          for (let sample = 0; sample < Math.ceil(samples / starts); sample++) record(warm, name, await load(context, app.baseUrl + route));
          await context.close();
        }
        for (let sample = 0; sample < Math.ceil(samples / starts); sample++) record(warm, baseline, await load(anonymous, `${app.baseUrl}/login`));
        await anonymous.close();
        process.stdout.write(`start ${start + 1}/${starts} measured\n`);
      } finally {
        await app.stop();
        rmSync(dataDir, { recursive: true, force: true });
      }
    }
  } finally {
    await browser.close();
  }

  const rows: Row[] = [...first.keys()].map((name) => {
    const cold = first.get(name)!;
    const hot = warm.get(name)!;
    return {
      name,
      first: stats(cold.map((l) => l.loadedMs)),
      warm: stats(hot.map((l) => l.loadedMs)),
      firstServer: stats(cold.map((l) => l.serverMs)),
      warmServer: stats(hot.map((l) => l.serverMs)),
      scriptKb: Math.round(stats(cold.map((l) => l.scriptKb)).p50),
      lastResource: lastResource(hot),
    };
  });
  const base = rows.find((row) => row.name === baseline)!;
  console.log(`\n${starts} starts; warm: ${Math.ceil(samples / starts) * starts} loads a page. ms: p50 / max. Server: time to first byte. JS: compressed, first visit.`);
  console.log("| Page | First visit | Warm | Server, first | Server, warm | JS KB | Warm ÷ baseline | Last resource, warm |");
  console.log("|---|---:|---:|---:|---:|---:|---:|---|");
  for (const row of rows) {
    console.log(
      `| ${row.name} | ${row.first.p50} / ${row.first.max} | ${row.warm.p50} / ${row.warm.max} | ${row.firstServer.p50} | ${row.warmServer.p50} | ${row.scriptKb} | ${(row.warm.p50 / base.warm.p50).toFixed(2)} | ${row.lastResource} |`,
    );
  }
  const consoleRows = rows.filter((row) => row !== base);
  const worst = { first: Math.max(...consoleRows.map((row) => row.first.max)), warm: Math.max(...consoleRows.map((row) => row.warm.max)) };
  console.log(`\nSlowest console page: first visit ${worst.first} ms (goal ≤ 1,500), warm ${worst.warm} ms (goal ≤ 1,000).`);
  console.log(JSON.stringify({ starts, samples, rows, worst }));
}

await main();
