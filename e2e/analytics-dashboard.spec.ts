import { randomUUID } from "node:crypto";
import { readFileSync } from "node:fs";
import { expect, test, type Page } from "@playwright/test";
import { expectAccessible, screenshots, signIn } from "./console-helpers";
import { desktopChrome, lightsUpload, recordAnalytics, setUpShare } from "./embed-helpers";
import { cli, createUserWithPassword, type OwnUser } from "./sign-in-helpers";

// The analytics dashboard against the built app: a share is really played on its landing page
// (the player and the SDK in Chromium, the events through the real ingest), then a Viewer of
// the project reads it in the console.

test.describe.configure({ mode: "serial", timeout: 180_000 });

let project: Awaited<ReturnType<typeof setUpShare>>;
let viewer: OwnUser;
let templateId: string;


/** CSP violations the page reports (the console runs under a nonce policy). */
async function watchCsp(page: Page) {
  await page.addInitScript(() => {
    const violations: string[] = [];
    (window as unknown as { cspViolations: string[] }).cspViolations = violations;
    document.addEventListener("securitypolicyviolation", (event) => violations.push(`${event.violatedDirective} ${event.blockedURI}`));
  });
  return () => page.evaluate(() => (window as unknown as { cspViolations: string[] }).cspViolations);
}

test.beforeAll(async ({ request }) => {
  project = await setUpShare(request, "Analytics dashboard", lightsUpload, { ctaLabel: "Book a call", ctaUrl: "https://example.com/book" });
  const templates = await request.get(`/api/Projects/${project.projectId}/templates`, { headers: { Authorization: `Bearer ${project.token}` } });
  templateId = ((await templates.json()) as { items: { id: string }[] }).items[0]!.id;
  const run = randomUUID();
  viewer = { id: "", email: `analytics-viewer-${run}@example.com`, password: `pw-${run}` };
  viewer.id = (await cli<{ id: string }>("user", "create", "--email", viewer.email, "--password", viewer.password)).id;
  await cli("member", "add", "--user", viewer.email, "--project", project.projectId, "--role", "Viewer");
});

test("a share played on its landing page shows on the dashboard: KPI tiles, funnel, series, heatmap; filters live in the URL; CSV export", async ({ page, browser, request }) => {
  // A viewer plays the share to the end on its landing page, as a desktop Chrome (headless
  // Chromium's own user agent is recognised as a bot).
  const viewerContext = await browser.newContext({ userAgent: desktopChrome });
  const viewerPage = await viewerContext.newPage();
  const analytics = await recordAnalytics(viewerPage);
  await viewerPage.goto(project.share.url);
  await expect.poll(() => analytics.types()).toContain("video.completed");
  await expect.poll(() => analytics.statuses.length).toBeGreaterThan(0);
  expect(analytics.statuses.every((status) => status === 202)).toBe(true);
  await viewerContext.close();
  // And one event the ingest refuses, sent with the share's own ingest token: the quarantine keeps it.
  const manifest = (await (await request.get(`/api/embed/manifest?share=${project.share.slug}`)).json()) as { ingest: { url: string; token: string } };
  const progressed = analytics.events.find((event) => event.event_type === "video.progressed")!;
  const refused = await request.post(`${manifest.ingest.url}/analytics/v1/events`, {
    headers: { Authorization: `Bearer ${manifest.ingest.token}` },
    data: { sent_at: new Date().toISOString(), events: [{ ...progressed, event_id: randomUUID(), payload: { position_ms: 1_000, percent: 150 } }] },
  });
  expect(refused.status()).toBe(422);
  // Stored: the API counts the play (the ingest answers after its group commits).
  const auth = { Authorization: `Bearer ${project.token}` };
  await expect
    .poll(async () => ((await (await request.get(`/api/Projects/${project.projectId}/analytics`, { headers: auth })).json()) as { summary: { plays: number } }).summary.plays)
    .toBe(1);

  const cspViolations = await watchCsp(page);
  await signIn(page, viewer);
  await page.goto(`/projects/${project.projectId}/shares`);
  await page.getByRole("navigation", { name: "Project sections" }).getByRole("link", { name: "Analytics" }).click();
  await expect(page).toHaveURL(new RegExp(`/projects/${project.projectId}/analytics$`));
  await expect(page.getByRole("heading", { name: "Analytics" })).toBeVisible();
  // The report is complete (its tail covers the play) and says when its newest event came.
  await expect(page.getByTestId("analytics-freshness")).toHaveText(/^Up to date: last event received /);

  // The tiles: one session, one play, completed; the previous period had nothing.
  await expect(page.getByTestId("kpi-sessions")).toContainText("1");
  await expect(page.getByTestId("kpi-plays")).toContainText(/^Plays1▲ new vs previous period$/);
  await expect(page.getByTestId("kpi-playRate")).toContainText("100 %");
  await expect(page.getByTestId("kpi-completionRate")).toContainText("100 %");
  await expect(page.getByTestId("kpi-averageWatchPercent")).toContainText("100 %");
  await expect(page.getByTestId("kpi-errors")).toContainText("0");
  // The funnel: the play reached every quartile.
  for (const percent of [25, 50, 75, 100]) await expect(page.getByTestId(`funnel-${percent}`)).toContainText(/1\s*100 %/);
  await expect(page.getByTestId("time-series").locator(".recharts-line")).toHaveCount(4);
  await expect(page.getByTestId("breakdown-Device")).toContainText("desktop");
  await expect(page.getByTestId("breakdown-Browser")).toContainText("Chrome");
  // The share's channel travels in its ingest token to every event.
  await expect(page.getByTestId("breakdown-Channel")).toContainText("DEV");
  // The heatmap of the share's template: every second watched by the one play.
  const heatmap = page.getByTestId("heatmap");
  await expect(heatmap.getByLabel("Template")).toHaveValue(templateId);
  await expect(heatmap).toContainText("1 play reported what it watched of 0:05.");
  await expect(heatmap.getByTestId("heat-strip").locator("span")).toHaveCount(5);
  await expect(heatmap.locator(".recharts-area")).toHaveCount(1);
  await expect(page.getByTestId("breakdown-OS")).toContainText("Linux");
  await expect(page.getByTestId("chapters")).toContainText("No chapter was entered in this period.");
  // The refused event: its reason and count, and the envelope as a sample.
  const quarantine = page.getByTestId("quarantine");
  await expect(quarantine.getByRole("row", { name: /payload\/percent: must be one of 25, 50, 75\s+1/ })).toBeVisible();
  await quarantine.getByText("Newest refused events (1)").click();
  await expect(quarantine).toContainText('"percent": 150');
  await expectAccessible(page);
  await page.screenshot({ path: "/tmp/analytics-dashboard-desktop.png", fullPage: true });
  await screenshots(page, "analytics");

  // Filters go to the URL: a reload (or a colleague opening the link) shows the same view.
  await page.getByRole("button", { name: "Today" }).click();
  await expect(page).toHaveURL(/\?range=today$/);
  await expect(page.getByTestId("kpi-plays")).toContainText("Plays1");
  await page.getByLabel("Channel", { exact: true }).selectOption("PROD");
  await expect(page).toHaveURL(/\?range=today&channel=PROD$/);
  await expect(page.getByText("No views in this period")).toBeVisible();
  await page.reload();
  await expect(page.getByRole("button", { name: "Today" })).toHaveAttribute("aria-pressed", "true");
  await expect(page.getByLabel("Channel", { exact: true })).toHaveValue("PROD");
  await expect(page.getByText("No views in this period")).toBeVisible();
  await page.goBack();
  await expect(page).toHaveURL(/\?range=today$/);
  await expect(page.getByTestId("kpi-plays")).toContainText("Plays1");
  // Custom dates: today alone (UTC), both ends included.
  const today = new Date().toISOString().slice(0, 10);
  await page.getByLabel("From").fill(today);
  await page.getByLabel("To (included)").fill(today);
  await page.getByRole("button", { name: "Apply dates" }).click();
  await expect(page).toHaveURL(new RegExp(`\\?range=custom&from=${today}&to=${today}$`));
  await expect(page.getByTestId("analytics-window")).toContainText("00:00 UTC –");
  await expect(page.getByTestId("kpi-plays")).toContainText("Plays1");
  await expect(page.getByTestId("time-series")).toContainText("Per hour (UTC)");

  // CSV of the current view, made in the browser.
  const [download] = await Promise.all([page.waitForEvent("download"), page.getByRole("button", { name: "Export CSV" }).click()]);
  expect(download.suggestedFilename()).toMatch(/^analytics-\d{4}-\d{2}-\d{2}-\d{4}-\d{2}-\d{2}\.csv$/);
  const csv = readFileSync((await download.path())!, "utf8").split("\r\n");
  expect(csv[0]).toBe("section,key,metric,value");
  expect(csv).toEqual(expect.arrayContaining([`window,from,,${today}T00:00:00.000Z`, "summary,,plays,1", "summary,,completionRate,1", "funnel,100%,plays,1", "by deviceType,desktop,plays,1"]));
  expect(csv.filter((line) => line.startsWith("series,"))).not.toHaveLength(0);

  expect(await cspViolations()).toEqual([]);
});

/** The text of every script the page has loaded so far. */
async function loadedScripts(page: Page): Promise<string[]> {
  const urls = await page.evaluate(() => performance.getEntriesByType("resource").filter((entry) => (entry as PerformanceResourceTiming).initiatorType === "script").map((entry) => entry.name));
  return Promise.all(urls.map(async (url) => (await page.request.get(url)).text()));
}

test("a project without events shows the empty state, and loads no chart code", async ({ page }) => {
  const empty = await createUserWithPassword("analytics-empty", "Viewer");
  const cspViolations = await watchCsp(page);
  await signIn(page, empty);
  await page.goto(`/projects/${empty.projectId}/analytics`);
  await expect(page.getByText("No views in this period")).toBeVisible();
  await expect(page.getByTestId("kpi-plays")).toHaveCount(0);
  await expect(page.getByTestId("quarantine")).toContainText("No event was refused in this period.");
  // recharts (half of the page's JavaScript) loads only with the charts (docs/benchmarks.md, "Console pages").
  await page.waitForLoadState("networkidle");
  const scripts = await loadedScripts(page);
  expect(scripts.length).toBeGreaterThan(0);
  expect(scripts.filter((script) => script.includes("recharts-wrapper"))).toEqual([]);
  await expectAccessible(page);
  await page.screenshot({ path: "/tmp/analytics-dashboard-empty.png", fullPage: true });
  expect(await cspViolations()).toEqual([]);
});
