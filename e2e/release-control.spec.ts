import { expect, test, type Browser } from "@playwright/test";
import { expectAccessible, screenshots, signIn } from "./console-helpers";
import { desktopChrome, lightsUpload, recordAnalytics, setUpShare } from "./embed-helpers";
import { cli, type OwnUser } from "./sign-in-helpers";
import { randomUUID } from "node:crypto";

// Release control in the browser (issue 36, docs/adr/0150-release-control.md), on a project of
// its own: a candidate pinned to STAGING; a 50/50 A/B test of two versions on the DEV share
// started from the share's page; two viewers, each given one variant (and keeping it), play; the
// analytics page compares them; the candidate is promoted (Production), then rolled back.

test.describe.configure({ mode: "serial", timeout: 240_000 });

type Template = { id: string; name: string; version: string; status: string };

let project: Awaited<ReturnType<typeof setUpShare>>;
let manager: OwnUser;
let first: Template;
let candidate: Template;

test.beforeAll(async ({ request }) => {
  project = await setUpShare(request, "Release control", lightsUpload);
  const auth = { Authorization: `Bearer ${project.token}` };
  const upload = await request.post(`/api/Projects/${project.projectId}/templates/upload`, { headers: auth, multipart: { ...lightsUpload, version: "1.1" } as never });
  expect(upload.status(), await upload.text()).toBe(201);
  candidate = (await upload.json()) as Template;
  first = ((await (await request.get(`/api/Projects/${project.projectId}/templates`, { headers: auth })).json()) as { items: Template[] }).items.find((t) => t.version === "1.0")!;
  expect((await request.post(`/api/Projects/${project.projectId}/templates/${first.id}/deploy`, { headers: auth })).status()).toBe(200);
  const run = randomUUID();
  manager = { id: "", email: `release-pm-${run}@example.com`, password: `pw-${run}` };
  manager.id = (await cli<{ id: string }>("user", "create", "--email", manager.email, "--password", manager.password)).id;
  await cli("member", "add", "--user", manager.email, "--project", project.projectId, "--role", "ProjectManager");
});

/** A new viewer (a browser context of their own) on the DEV landing page: the template their page plays, after it played. */
async function viewOnce(browser: Browser): Promise<{ templateId: string; again: string }> {
  const context = await browser.newContext({ userAgent: desktopChrome });
  const page = await context.newPage();
  const analytics = await recordAnalytics(page);
  await page.goto(project.share.url);
  const player = page.frameLocator('[data-testid="player-slot"] iframe');
  await player.getByRole("button", { name: "Play" }).first().click();
  await expect(player.locator("#reelbind-player")).toHaveAttribute("data-state", /playing|ended/);
  await expect.poll(() => analytics.types()).toEqual(expect.arrayContaining(["video.played"]));
  await expect.poll(() => analytics.statuses.length).toBeGreaterThan(0);
  // The manifest this viewer's cookie gets, twice: the same variant.
  const manifest = async () => ((await (await context.request.get(`/api/embed/manifest?share=${project.share.slug}`)).json()) as { template: { id: string } }).template.id;
  const result = { templateId: await manifest(), again: await manifest() };
  await context.close();
  return result;
}

test("pin a candidate to STAGING; a 50/50 test on DEV; both variants played and compared; promote; roll back", async ({ page, browser }) => {
  await signIn(page, manager);
  await page.goto(`/projects/${project.projectId}/shares`);
  const staging = page.getByRole("listitem", { name: "STAGING share" });
  await staging.getByLabel("Template for STAGING").selectOption({ label: "Lights 1.1" });
  await expect(staging.getByTestId("served-template")).toHaveText("Plays: Lights 1.1 (pinned to this channel)");

  // The test, from the DEV share's page: 1.0 (the control) and 1.1, half each.
  await page.goto(`/projects/${project.projectId}/shares/DEV`);
  const form = page.getByRole("form", { name: "Variants of the test" });
  await form.getByLabel("Variant A (control)").selectOption({ label: "Lights 1.0 (Production)" });
  await form.getByLabel("Variant B").selectOption({ label: "Lights 1.1 (Testing)" });
  await form.getByRole("button", { name: "Start the test" }).click();
  await expect(page.getByTestId("running-test")).toHaveText("Running: Lights 1.0 50 % · Lights 1.1 50 %");
  await screenshots(page, "share-ab-test");
  await expectAccessible(page);

  // Viewers until each variant has been played once; each keeps theirs.
  const played = new Set<string>();
  for (let viewer = 0; viewer < 24 && played.size < 2; viewer++) {
    const { templateId, again } = await viewOnce(browser);
    expect(again).toBe(templateId);
    played.add(templateId);
  }
  expect(played).toEqual(new Set([first.id, candidate.id]));

  // Compared on the analytics page (few plays: not enough data for a verdict).
  await page.goto(`/projects/${project.projectId}/analytics?channel=DEV`);
  const section = page.getByRole("region", { name: "A/B test on the DEV share" });
  await expect(section.getByTestId("variant-A")).toContainText("Lights 1.0");
  await expect(section.getByTestId("variant-B")).toContainText("Lights 1.1");
  await expect(section.getByTestId("variants-verdict")).toContainText("Not enough data");
  // Each variant's play counted (the section refreshes while events are still being rolled up).
  for (const label of ["A", "B"]) await expect(section.getByTestId(`variant-${label}`).locator('td[data-label="Plays"]')).not.toHaveText("0");
  await screenshots(page, "ab-compared");

  // Promote 1.1: it becomes Production, the test ends.
  await section.getByRole("button", { name: "Promote B (Lights 1.1)" }).click();
  const dialog = page.getByRole("dialog");
  await expect(dialog).toContainText("Lights 1.1 becomes Production");
  await dialog.getByRole("button", { name: "Promote" }).click();
  await expect(page.getByRole("status").filter({ hasText: "Lights 1.1 won: the test has ended." })).toBeVisible();
  await expect(section).toHaveCount(0);
  await page.goto(`/projects/${project.projectId}/templates/${candidate.id}`);
  await expect(page.getByText("Production", { exact: true })).toBeVisible();

  // Roll back to 1.0 in one click (and a confirmation naming both).
  await page.goto(`/projects/${project.projectId}/templates/${first.id}`);
  await page.getByRole("button", { name: "Roll back to this version" }).click();
  await expect(dialog).toContainText("The PROD share will play Lights 1.0 again, at once. Lights 1.1, in Production now, becomes Previous.");
  await dialog.getByRole("button", { name: "Roll back" }).click();
  await expect(page.getByRole("status").filter({ hasText: "Rolled back: Lights 1.0 is in Production again." })).toBeVisible();
});
