import { randomUUID } from "node:crypto";
import { expect, test } from "@playwright/test";
import { expectAccessible, screenshots, signIn } from "./console-helpers";
import { env } from "./owned-project";

// The campaign's e-mail thumbnails in the console (issue 35), on the demo project's PROD share:
// generated from the campaign page with their progress, each recipient's HTML copied for an
// e-mail; a recipient edited afterwards has an outdated thumbnail, which the next generation
// renders again (and only theirs); the export then has the thumbnail columns.

test.describe.configure({ timeout: 240_000 });

const run = randomUUID().slice(0, 6);
const bearer = () => ({ Authorization: `Bearer ${env("E2E_API_TOKEN")}` });

test("thumbnails generated with progress, HTML copied, an edited recipient's thumbnail outdated and rendered again, the export's thumbnail columns", async ({ page, request, context }) => {
  const projectId = env("E2E_PROJECT_ID");
  const api = `/api/Projects/${projectId}/campaigns`;
  const created = await request.post(api, { headers: bearer(), data: { name: `Thumbnails ${run}`, channel: "PROD" } });
  expect(created.status()).toBe(201);
  const campaignId = ((await created.json()) as { id: string }).id;
  const imported = await request.post(`${api}/${campaignId}/recipients`, {
    headers: { ...bearer(), "Content-Type": "text/csv" },
    data: `id,firstName,email\nthumb-${run}-1,Ana,ana-${run}@example.com\nthumb-${run}-2,Bruno,bruno-${run}@example.com\n`,
  });
  expect(imported.status()).toBe(201);

  await context.grantPermissions(["clipboard-read", "clipboard-write"]);
  await signIn(page, { email: env("E2E_ADMIN_EMAIL"), password: env("E2E_ADMIN_PASSWORD") });
  await page.goto(`/projects/${projectId}/campaigns/${campaignId}`);
  const section = page.getByRole("region", { name: "E-mail thumbnails" });
  await section.getByRole("button", { name: "Generate thumbnails" }).click();
  await expect(section.getByRole("status")).toHaveText("Queued 2 thumbnails.");
  // The page polls while thumbnails render: both show their GIF when done.
  await expect(section.getByText("2 / 2 ready")).toBeVisible({ timeout: 120_000 });
  const rows = section.getByTestId("thumbnail-row");
  await expect(rows.getByRole("img")).toHaveCount(2);
  // At a desktop width the recipients' table fits: every row's actions are on screen, not past a sideways scroll.
  const recipientsTable = page.getByRole("table", { name: "Recipients and how far each watched" });
  expect(await recipientsTable.evaluate((table) => table.parentElement!.scrollWidth - table.parentElement!.clientWidth)).toBe(0);
  await screenshots(page, "campaign-thumbnails");
  await expectAccessible(page);

  // Ana's HTML: her GIF, linked to her page.
  const ana = rows.filter({ hasText: `ana-${run}@example.com` });
  await ana.getByRole("button", { name: "Copy HTML" }).click();
  const html = await page.evaluate(() => navigator.clipboard.readText());
  expect(html).toMatch(/^<a href="[^"]+\/v\/[^"/]+\/[A-Za-z0-9_-]+"><img src="[^"]+" width="\d+" height="\d+" alt="Play the video"><\/a>$/);
  const thumbnail = await request.get(html.match(/src="([^"]+)"/)![1]!.replace(/&amp;/g, "&"));
  expect(thumbnail.status()).toBe(200);
  expect(thumbnail.headers()["content-type"]).toBe("image/gif");

  // Bruno becomes Bruno Costa: his thumbnail is outdated until generated again; Ana's is kept.
  const bruno = page.getByTestId("recipient-row").filter({ hasText: `bruno-${run}@example.com` });
  await bruno.getByRole("button", { name: `Edit bruno-${run}@example.com` }).click();
  const dialog = page.getByRole("dialog", { name: `Edit bruno-${run}@example.com` });
  await dialog.getByLabel("firstName", { exact: false }).fill("Bruno Costa");
  await dialog.getByRole("button", { name: "Save" }).click();
  await expect(dialog).toBeHidden();
  await expect(section).toContainText("1 thumbnail shows data or a template that changed since: generate again to refresh it.");
  await expect(rows.filter({ hasText: `bruno-${run}@example.com` })).toContainText("Outdated");
  await section.getByRole("button", { name: "Generate missing and outdated thumbnails" }).click();
  await expect(section.getByRole("status")).toHaveText("Queued 1 thumbnail.");
  await expect(section).not.toContainText("changed since", { timeout: 120_000 });
  await expect(section.getByText("2 / 2 ready")).toBeVisible({ timeout: 120_000 });
  await expect(rows.filter({ hasText: "Outdated" })).toHaveCount(0);

  // The export: a thumbnail URL and the e-mail HTML per recipient.
  const exported = await request.get(`${api}/${campaignId}/export`, { headers: bearer() });
  const header = (await exported.text()).split("\r\n")[0]!.split(",");
  expect(header.slice(-2)).toEqual(["thumbnail_url", "html"]);
});
