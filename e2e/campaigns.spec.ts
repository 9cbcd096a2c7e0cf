import { createHash, randomUUID } from "node:crypto";
import { expect, test } from "@playwright/test";
import { expectAccessible, screenshots, signIn } from "./console-helpers";
import { desktopChrome, recordAnalytics } from "./embed-helpers";
import { env } from "./owned-project";

// Campaigns in the browser, against the built app: the demo project's admin creates a campaign
// on the PROD share, uploads a CSV of three recipients (a BOM, `;` delimiters, a quoted field
// holding a `;`), gets three personal URLs, each playing its own name; one recipient's play
// shows on the campaign page (their row's reach and the funnel). The same CSV again adds
// nobody; a CSV with an unclosed quote is refused with its line; a token of nobody is the
// share's 404 page.

test.describe.configure({ timeout: 240_000 });

const run = randomUUID().slice(0, 6);
const recipients = [
  { id: `c-${run}-1`, name: "Zoe; Ann", email: "zoe@example.com" },
  { id: `c-${run}-2`, name: "Bruno", email: "" },
  { id: `c-${run}-3`, name: "Carla", email: "carla@example.com" },
];
const csv = `\ufeffid;firstName;email\r\n${recipients.map((r) => `${r.id};${r.name.includes(";") ? `"${r.name}"` : r.name};${r.email}`).join("\r\n")}\r\n`;
const csvFile = (content: string, name = "recipients.csv") => ({ name, mimeType: "text/csv", buffer: Buffer.from(content, "utf8") });
const bearer = () => ({ Authorization: `Bearer ${env("E2E_API_TOKEN")}` });

/** Headless Chromium says so in its User-Agent, and enrichment counts it as a bot (left out of reach): a viewer's browser. */

type RecipientJson = { id: string; externalId: string; url: string; reach: { opened: boolean } };

test("CSV of 3 recipients → 3 URLs, each playing its own name; a play shows on the campaign page; the same CSV adds nobody; a malformed one is refused with its line", async ({ page, request, browser }) => {
  const projectId = env("E2E_PROJECT_ID");
  await signIn(page, { email: env("E2E_ADMIN_EMAIL"), password: env("E2E_ADMIN_PASSWORD") });

  await page.goto(`/projects/${projectId}/campaigns`);
  await expect(page.getByRole("navigation", { name: "Project sections" }).getByRole("link", { name: "Campaigns" })).toHaveAttribute("aria-current", "page");
  const form = page.getByRole("form", { name: "New campaign" });
  await screenshots(page, "campaigns-list");
  await expectAccessible(page);
  await form.getByLabel("Campaign name").fill(`Spring renewals ${run}`);
  await form.getByLabel("Share").selectOption("PROD");
  await form.getByRole("button", { name: "Create campaign" }).click();
  await expect(page.getByRole("heading", { level: 1, name: `Spring renewals ${run}` })).toBeVisible();
  const campaignId = new URL(page.url()).pathname.split("/").at(-1)!;

  await page.getByLabel("CSV file").setInputFiles(csvFile(csv));
  // The check: every column matched by its name, three new recipients.
  const check = page.getByRole("form", { name: "Check the columns and import" });
  await expect(check).toContainText("The file has 3 rows: 3 new recipients, 0 to update, 0 unchanged, 0 refused.");
  await check.getByRole("button", { name: "Import recipients.csv" }).click();
  await expect(page.getByRole("status").filter({ hasText: "Added 3 recipients, updated 0, 0 unchanged; 0 rows refused." })).toBeVisible();
  const urls = page.getByTestId("recipient-url");
  await expect(urls).toHaveCount(3);

  const listed = await request.get(`/api/Projects/${projectId}/campaigns/${campaignId}/recipients`, { headers: bearer() });
  expect(listed.status()).toBe(200);
  const items = ((await listed.json()) as { items: RecipientJson[] }).items;
  expect(items.map((item) => item.externalId)).toEqual(recipients.map((r) => r.id));
  expect(new Set(items.map((item) => item.url)).size).toBe(3);
  expect(await urls.evaluateAll((links) => links.map((link) => link.getAttribute("href")))).toEqual(items.map((item) => item.url));
  await screenshots(page, "campaign-imported");
  await expectAccessible(page);

  // Each URL plays its own recipient's name, over the share's own data (whose firstName is Ana).
  for (const [index, recipient] of recipients.entries()) {
    const viewer = await browser.newPage();
    const response = await viewer.goto(items[index]!.url);
    expect(response?.status()).toBe(200);
    await expect(viewer.locator('meta[name="robots"]')).toHaveAttribute("content", "noindex, nofollow");
    const player = viewer.frameLocator('[data-testid="player-slot"] iframe');
    await expect(player.locator("#reelbind-player")).toHaveAttribute("data-state", /playing|ended/);
    await expect(player.getByText(recipient.name, { exact: true })).toBeVisible();
    await expect(player.getByText("Ana", { exact: true })).toHaveCount(0);
    await viewer.close();
  }

  // A token of nobody, or a recipient's token under another share's slug: the share's 404 page.
  const shareUrl = items[0]!.url.slice(0, items[0]!.url.lastIndexOf("/"));
  const unknown = await page.goto(`${shareUrl}/${"A".repeat(43)}`);
  expect(unknown?.status()).toBe(404);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("This video is not available");

  // Carla plays her video: her events carry her viewer_hash, and the campaign page shows her reach.
  const carla = items[2]!;
  const viewerContext = await browser.newContext({ userAgent: desktopChrome });
  const viewer = await viewerContext.newPage();
  const analytics = await recordAnalytics(viewer);
  await viewer.goto(carla.url);
  const player = viewer.frameLocator('[data-testid="player-slot"] iframe');
  await expect(player.locator("#reelbind-player")).toHaveAttribute("data-state", "ended");
  await expect.poll(() => analytics.types()).toEqual(expect.arrayContaining(["session.started", "video.played", "video.completed"]));
  const expectedHash = createHash("sha256").update(`${projectId}:${carla.id}`).digest("hex");
  expect(new Set(analytics.events.map((event) => event.viewer_hash))).toEqual(new Set([expectedHash]));
  await expect.poll(() => analytics.statuses.length).toBeGreaterThan(0);
  await viewerContext.close();

  await page.goto(`/projects/${projectId}/campaigns/${campaignId}`);
  const carlaRow = page.getByTestId("recipient-row").filter({ hasText: carla.externalId });
  await expect
    .poll(
      async () => {
        await page.reload();
        await expect(carlaRow).toBeVisible();
        return (await carlaRow.locator('td[data-label="Reach"]').innerText()).replace(/\s+/g, " ").trim();
      },
      { timeout: 60_000, intervals: [1000, 2000, 3000] },
    )
    .toBe("Watched 100% Completed");
  const funnel = page.getByTestId("campaign-funnel");
  await expect(funnel).toContainText("Recipients3 (100%)");
  await expect(funnel).toContainText("Opened1 (33.3%)");
  await expect(funnel).toContainText("Completed1 (33.3%)");
  for (const row of await page.getByTestId("recipient-row").filter({ hasNotText: carla.externalId }).all()) {
    await expect(row.locator('td[data-label="Reach"]')).toHaveText("Not opened");
  }
  await screenshots(page, "campaign-reach");

  // The same CSV again: nothing added.
  await page.getByLabel("CSV file").setInputFiles(csvFile(csv, "again.csv"));
  await expect(check).toContainText("The file has 3 rows: 0 new recipients, 0 to update, 3 unchanged, 0 refused.");
  await check.getByRole("button", { name: "Import again.csv" }).click();
  await expect(page.getByRole("status").filter({ hasText: "This file was imported before with this mapping: nothing changed." })).toBeVisible();
  await expect(page.getByTestId("recipient-url")).toHaveCount(3);

  // An unclosed quote: refused with its line, by the console's check and by the API.
  await page.getByLabel("CSV file").setInputFiles(csvFile('id;firstName\r\nx-1;Dana\r\nx-2;"Eve\r\nx-3;Finn\r\n', "broken.csv"));
  await expect(page.getByRole("alert").filter({ hasText: "The CSV cannot be read at line 3: a quoted field opens here and is never closed." })).toBeVisible();
  const refused = await request.post(`/api/Projects/${projectId}/campaigns/${campaignId}/recipients`, {
    headers: { ...bearer(), "Content-Type": "text/csv" },
    data: 'id,firstName\nx-1,Dana\n"x-2,Eve\n',
  });
  expect(refused.status()).toBe(422);
  expect(refused.headers()["content-type"]).toBe("application/problem+json");
  expect(((await refused.json()) as { errors: unknown[] }).errors).toEqual([{ path: "line 3", message: "a quoted field opens here and is never closed" }]);
  await page.reload();
  await expect(page.getByTestId("recipient-url")).toHaveCount(3);

  // The export lists the three with their URLs (then a column per template field).
  const exported = await request.get(`/api/Projects/${projectId}/campaigns/${campaignId}/export`, { headers: bearer() });
  expect(exported.headers()["content-type"]).toBe("text/csv; charset=utf-8");
  const [header, ...lines] = (await exported.text()).trimEnd().split("\r\n");
  expect(header).toMatch(/^recipient_id,email,url,.*firstName/);
  expect(lines.map((line) => line.split(",").slice(0, 3).join(","))).toEqual(recipients.map((r, i) => `${r.id},${r.email},${items[i]!.url}`));
});
