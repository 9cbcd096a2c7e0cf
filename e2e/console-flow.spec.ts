import { randomUUID } from "node:crypto";
import { expect, test, type Page } from "@playwright/test";
import { expectAccessible, screenshots, signIn } from "./console-helpers";
import { fillUploadForm, recordProgress, throttleUploads } from "./console-upload-helpers";
import { recordAnalytics } from "./embed-helpers";
import { env } from "./owned-project";
import { cli } from "./sign-in-helpers";

// The console's whole story in one run, in the browser only: a ProjectManager uploads the
// weather card, previews it with a city, deploys it, sets up the PROD share with a call to
// action, opens the link, plays it and clicks the CTA; the audit log shows each step; rotating
// the link kills the old one; a Viewer sees no edit controls and the API refuses them.

test.describe.configure({ timeout: 300_000 });

const run = randomUUID().slice(0, 8);
const manager = { email: `flow-pm-${run}@example.com`, password: `pw-${randomUUID()}` };
const viewer = { email: `flow-viewer-${run}@example.com`, password: `pw-${randomUUID()}` };
const projectName = `Flow ${run}`;
const sameOrigin = () => ({ Origin: env("E2E_BASE_URL") });
/** A CTA target the test can open without leaving the machine. */
const ctaUrl = () => `${env("E2E_BASE_URL")}/api/health`;
let projectId: string;

test.beforeAll(async () => {
  const [org, pm, view] = await Promise.all([
    cli<{ id: string }>("org", "create", "--name", `Flow org ${run}`),
    cli<{ id: string }>("user", "create", "--email", manager.email, "--password", manager.password),
    cli<{ id: string }>("user", "create", "--email", viewer.email, "--password", viewer.password),
  ]);
  projectId = (await cli<{ id: string }>("project", "create", "--org", org.id, "--name", projectName)).id;
  await Promise.all([
    cli("member", "add", "--user", pm.id, "--project", projectId, "--role", "ProjectManager"),
    cli("member", "add", "--user", view.id, "--project", projectId, "--role", "Viewer"),
  ]);
});

const tab = (page: Page, name: string) => page.getByRole("navigation", { name: "Project sections" }).getByRole("link", { name });

test("a ProjectManager goes from upload to a played, clicked PROD share; the audit log shows it; rotating kills the old link; a Viewer cannot edit", async ({ page, context, browser }) => {
  await context.grantPermissions(["clipboard-read", "clipboard-write"]);
  await signIn(page, manager);
  await page.getByRole("link", { name: projectName }).click();
  await expect(page).toHaveURL(new RegExp(`/projects/${projectId}/shares$`));

  // Upload with the progress bar reaching 100 %.
  await tab(page, "Templates").click();
  await page.getByRole("link", { name: "Upload template" }).first().click();
  await fillUploadForm(page, "Weather card");
  const throttle = await throttleUploads(page, 100 * 1024);
  const progress = await recordProgress(page);
  await page.getByRole("button", { name: "Upload template" }).click();
  await expect(page).toHaveURL(new RegExp(`/projects/${projectId}/templates/[0-9a-f-]{36}$`), { timeout: 60_000 });
  expect((await progress()).at(-1)).toBe(100);
  await throttle.detach();

  // The live preview shows the city typed.
  const player = page.frameLocator('iframe[title^="Live preview of Weather card"]');
  await expect(page.getByText("Playing this template")).toBeVisible();
  await page.getByLabel("City").fill("Reykjavik");
  await expect(player.getByText("Reykjavik", { exact: true })).toBeAttached();

  // Deploy.
  await page.getByRole("button", { name: "Deploy to Production" }).click();
  await page.getByRole("dialog").getByRole("button", { name: "Deploy" }).click();
  await expect(page.getByRole("status").filter({ hasText: "Weather card 1.0 is now in Production." })).toBeVisible();

  // A credential for the share.
  await tab(page, "API credentials").click();
  await page.getByRole("button", { name: "New credential" }).click();
  await page.getByRole("dialog").getByLabel("Name").fill("Website");
  await page.getByRole("dialog").getByRole("button", { name: "Create credential" }).click();
  await expect(page.getByTestId("api-secret")).toHaveText(/^sk_/);
  await page.getByRole("button", { name: "I have copied it" }).click();

  // The PROD share with a call to action.
  await tab(page, "Shares").click();
  const prod = page.getByRole("listitem", { name: "PROD share" });
  await expect(prod).toContainText("Weather card 1.0");
  await prod.getByRole("link", { name: "Set up PROD" }).click();
  await page.getByLabel("Title", { exact: true }).fill("Your weather, Ana");
  await page.getByLabel("Button label").fill("See the forecast");
  await page.getByLabel("Button link").fill(ctaUrl());
  await page.getByLabel("Personalization data (JSON)").fill('{"City": "Lisbon"}');
  await page.getByRole("button", { name: "Create the PROD share" }).click();
  await expect(page.getByRole("status")).toContainText("The PROD share is live.");
  await page.getByRole("button", { name: "Copy link" }).click();
  const url = await page.evaluate(() => navigator.clipboard.readText());
  await expect(page.getByTestId("share-url")).toHaveText(url);

  // The landing page: play, then the CTA opens its link and is recorded.
  const landing = await context.newPage();
  const analytics = await recordAnalytics(landing);
  await landing.goto(url);
  await expect(landing.getByRole("heading", { level: 1 })).toHaveText("Your weather, Ana");
  const video = landing.frameLocator('[data-testid="player-slot"] iframe');
  await expect(video.getByText("Lisbon", { exact: true })).toBeAttached();
  await video.getByRole("button", { name: "Play" }).first().click();
  await expect(video.locator("#reelbind-player")).toHaveAttribute("data-state", "playing");
  const [popup] = await Promise.all([context.waitForEvent("page"), video.getByRole("link", { name: "See the forecast" }).click()]);
  await popup.waitForLoadState();
  expect(popup.url()).toBe(ctaUrl());
  await popup.close();
  await expect.poll(() => analytics.types()).toEqual(expect.arrayContaining(["video.played", "cta.clicked"]));
  expect(analytics.statuses.every((status) => status === 202)).toBe(true);

  // The audit log, back in the console.
  await tab(page, "Audit log").click();
  const events = page.getByRole("list", { name: "Audit events" }).getByRole("listitem");
  for (const action of ["Template uploaded", "Template deployed", "API credential created", "Share created"]) {
    await expect(events.filter({ hasText: action }), action).toHaveCount(1);
  }
  await expect(events.first()).toContainText(manager.email);

  // Rotating the link kills the old one.
  await tab(page, "Shares").click();
  await prod.getByRole("link", { name: "Edit" }).click();
  await page.getByRole("button", { name: "Rotate link" }).click();
  await expect(page.getByRole("dialog")).toContainText("stops working at once");
  await page.getByRole("dialog").getByRole("button", { name: "Rotate link" }).click();
  await expect(page.getByTestId("share-url")).not.toHaveText(url);
  const newUrl = (await page.getByTestId("share-url").textContent())!;
  expect((await landing.goto(url))?.status()).toBe(404);
  await expect(landing.getByRole("heading", { level: 1 })).toHaveText("This video is not available");
  expect((await landing.goto(newUrl))?.status()).toBe(200);
  await tab(page, "Audit log").click();
  await expect(events.filter({ hasText: "Share link rotated" })).toHaveCount(1);
  await expectAccessible(page);
  await screenshots(page, "flow-audit");

  // A Viewer of the same project sees the share, no edit controls; the API refuses them.
  const viewerContext = await browser.newContext({ baseURL: env("E2E_BASE_URL") });
  const viewerPage = await viewerContext.newPage();
  await signIn(viewerPage, viewer);
  await viewerPage.goto(`/projects/${projectId}/shares/PROD`);
  await expect(viewerPage.getByText("You can view this share but not change it.")).toBeVisible();
  await expect(viewerPage.getByRole("button", { name: "Save changes" })).toHaveCount(0);
  await expect(viewerPage.getByRole("button", { name: /Rotate link/ })).toBeDisabled();
  await viewerPage.goto(`/projects/${projectId}/templates`);
  await expect(viewerPage.getByRole("link", { name: "Upload template" })).toHaveCount(0);
  const refused = await viewerPage.request.post(`/api/Projects/${projectId}/public-video-shares/PROD/rotate-slug`, { headers: sameOrigin() });
  expect(refused.status()).toBe(403);
  expect((await viewerPage.request.get(newUrl)).status()).toBe(200);
  await viewerContext.close();
});
