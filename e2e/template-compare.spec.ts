import { randomUUID } from "node:crypto";
import { readFileSync } from "node:fs";
import { expect, test, type Locator, type Page } from "@playwright/test";
import { expectAccessible, signIn, screenshots } from "./console-helpers";
import { fixtureDir, manifest } from "./console-upload-helpers";
import { env } from "./owned-project";
import { cli } from "./sign-in-helpers";

// The console's Compare versions page (docs/adr/0152-template-comparison.md) in Chromium against
// the built app: a second version of the weather card that changes, removes and adds fields,
// chapters and CTAs, opened from the templates list and from a template's page; the differences
// in words, both players playing from one form, and an address naming templates the project
// does not have.

test.describe.configure({ timeout: 300_000 });

type User = { email: string; password: string };
type TemplateJson = { id: string; name: string; version: string; status: string };

let projectId: string;
let manager: User;
let token: string;
let foreignTemplateId: string;

/** The weather card's second version: City's default and limit change, Status becomes Weather, chapters and CTAs move. */
const secondManifest = {
  version: 1,
  fields: [
    { key: "City", type: "text", target: { layer: "City" }, default: "Lyon", maxLength: 20 },
    { key: "Weather", type: "text", target: { layer: "Status" }, default: "Cloudy", maxLength: 40 },
    { key: "Tempreture", type: "text", target: { layer: "Tempreture" }, default: "20°", maxLength: 8 },
    { key: "avatar", type: "image", target: { asset: "image_0" } },
  ],
  chapters: [
    { id: "intro", name: "Welcome", startFrame: 0, endFrame: 90 },
    { id: "outro", name: "Outro", startFrame: 300, endFrame: 360 },
  ],
  ctas: [
    { id: "details", name: "See the details", layer: "City" },
    { id: "call", name: "Call us", layer: "Tempreture" },
  ],
};

async function uploadWeatherCard(authorization: string, project: string, version: string, bindings: unknown): Promise<TemplateJson> {
  const form = new FormData();
  form.append("name", "Weather card");
  form.append("version", version);
  form.append("kind", "LottieStandalone");
  form.append("templateJson", new Blob([readFileSync(`${fixtureDir}/data.json`)], { type: "application/json" }), "data.json");
  form.append("manifestJson", new Blob([JSON.stringify(bindings)], { type: "application/json" }), "manifest.json");
  for (const image of ["img_0.jpg", "img_1.jpg"]) form.append("assetFiles", new Blob([readFileSync(`${fixtureDir}/images/${image}`)]), image);
  const response = await fetch(`${env("E2E_BASE_URL")}/api/Projects/${project}/templates/upload`, {
    method: "POST",
    headers: { authorization },
    body: form,
    signal: AbortSignal.timeout(60_000),
  });
  expect(response.status, await response.clone().text()).toBe(201);
  return (await response.json()) as TemplateJson;
}

test.beforeAll(async () => {
  const run = randomUUID();
  const email = `compare-${run}@example.com`;
  const outsider = `compare-outsider-${run}@example.com`;
  manager = { email, password: `pw-${randomUUID()}` };
  await Promise.all([cli("user", "create", "--email", email, "--password", manager.password), cli("user", "create", "--email", outsider)]);
  const [org, otherOrg] = await Promise.all([
    cli<{ id: string }>("org", "create", "--name", `Compare ${run}`),
    cli<{ id: string }>("org", "create", "--name", `Someone else ${run}`),
  ]);
  const [project, other] = await Promise.all([
    cli<{ id: string }>("project", "create", "--org", org.id, "--name", "Compare e2e"),
    cli<{ id: string }>("project", "create", "--org", otherOrg.id, "--name", "Not yours"),
  ]);
  await Promise.all([
    cli("member", "add", "--user", email, "--project", project.id, "--role", "ProjectManager"),
    cli("member", "add", "--user", outsider, "--project", other.id, "--role", "ProjectManager"),
  ]);
  const [mine, theirs] = await Promise.all([cli<{ token: string }>("token", "create", "--user", email), cli<{ token: string }>("token", "create", "--user", outsider)]);
  projectId = project.id;
  token = mine.token;
  foreignTemplateId = (await uploadWeatherCard(`Bearer ${theirs.token}`, other.id, "1.0", manifest)).id;
});

/** A table row by its header cell (the key or id), exactly. */
const rowOf = (table: Locator, name: string) => table.getByRole("row").filter({ has: table.page().getByRole("rowheader", { name, exact: true }) });

async function expectPlaying(page: Page, side: string) {
  const region = page.getByRole("region", { name: side });
  await expect(region.getByRole("status")).toHaveText(/^Playing this template/);
  return region;
}

test("Compare versions – opened from the list and from a template's page: fields, chapters and CTAs added, removed and changed, in words; both players play one form's data", async ({ page }) => {
  const first = await uploadWeatherCard(`Bearer ${token}`, projectId, "1.0", manifest);
  const second = await uploadWeatherCard(`Bearer ${token}`, projectId, "1.1", secondManifest);
  const compareUrl = `/projects/${projectId}/templates/compare?a=${first.id}&b=${second.id}`;
  await signIn(page, manager);

  // From the list: the newest template against its previous version.
  await page.goto(`/projects/${projectId}/templates`);
  await screenshots(page, "template-compare-list");
  await page.getByRole("link", { name: "Compare versions" }).click();
  await expect(page).toHaveURL(new RegExp(`${compareUrl.replace(/[?]/g, "\\?")}$`));
  await expect(page.getByRole("heading", { level: 1, name: "Compare versions" })).toBeVisible();
  await expect(page.getByRole("combobox", { name: "Template A" })).toHaveValue(first.id);
  await expect(page.getByRole("combobox", { name: "Template B" })).toHaveValue(second.id);

  // From the template's page: the same pair.
  await page.goto(`/projects/${projectId}/templates/${second.id}`);
  await screenshots(page, "template-compare-detail");
  await page.getByRole("link", { name: "Compare versions" }).click();
  await expect(page).toHaveURL(new RegExp(`${compareUrl.replace(/[?]/g, "\\?")}$`));

  await expect(page.getByRole("region", { name: "Template A" })).toContainText("Weather card");
  await expect(page.getByRole("region", { name: "Template A" })).toContainText("v1.0");
  await expect(page.getByRole("region", { name: "Template B" })).toContainText("v1.1");
  await expect(page.getByText("B against A — ")).toHaveText(
    "B against A — 2 properties of size and files changed; fields: 1 added, 1 removed, 1 changed; chapters: 1 added, 1 removed, 1 changed; calls to action: 1 added, 1 changed.",
  );

  const facts = page.getByRole("table", { name: "Size and files" });
  await expect(rowOf(facts, "Size (width × height)")).toContainText("same");
  await expect(rowOf(facts, "Size (width × height)")).toContainText("720×1280 px");
  await expect(rowOf(facts, "Duration")).toContainText("12.0 s (360 frames)");
  await expect(rowOf(facts, "Binding manifest")).toContainText("changed");
  await expect(rowOf(facts, "Asset files")).toContainText(/ in 2 files/);
  // Sizes that round to the same text are given in bytes.
  await expect(rowOf(facts, "All files").getByRole("cell").nth(1)).toHaveText(/^\d+ KB \([\d,]+ bytes\)$/);

  const fields = page.getByRole("table", { name: "Fields" });
  await expect(fields.getByRole("rowheader")).toHaveText(["City", "Status", "Weather", "Tempreture", "avatar"]);
  const city = rowOf(fields, "City");
  await expect(city.getByRole("cell").nth(0)).toHaveText("changeddefault, max length");
  await expect(city.getByRole("cell").nth(1)).toContainText("Default“Paris”Max length40");
  await expect(city.getByRole("cell").nth(2)).toContainText("Default“Lyon”Max length20");
  await expect(rowOf(fields, "Status").getByRole("cell")).toHaveText(["removed", /Target\s*text layer “Status”/, "Not in B"]);
  await expect(rowOf(fields, "Weather").getByRole("cell")).toHaveText(["added", "Not in A", /Default\s*“Cloudy”/]);
  await expect(rowOf(fields, "Tempreture").getByRole("cell").first()).toHaveText("same");

  const chapters = page.getByRole("table", { name: "Chapters" });
  await expect(chapters.getByRole("rowheader")).toHaveText(["intro", "forecast", "outro"]);
  await expect(rowOf(chapters, "intro").getByRole("cell").first()).toHaveText("changedname, end frame");
  await expect(rowOf(chapters, "intro").getByRole("cell").nth(2)).toContainText("Welcome");
  await expect(rowOf(chapters, "forecast").getByRole("cell").first()).toHaveText("removed");
  await expect(rowOf(chapters, "outro").getByRole("cell").first()).toHaveText("added");

  const ctas = page.getByRole("table", { name: "Calls to action" });
  await expect(rowOf(ctas, "details").getByRole("cell")).toHaveText(["changedlayer", /Layer\s*Status/, /Layer\s*City/]);
  await expect(rowOf(ctas, "call").getByRole("cell")).toHaveText(["added", "Not in A", /Call us/]);

  // One form for both players; each falls back on its own defaults.
  const a = await expectPlaying(page, "A · Weather card 1.0");
  const b = await expectPlaying(page, "B · Weather card 1.1");
  const playerA = a.frameLocator("iframe");
  const playerB = b.frameLocator("iframe");
  await expect(playerA.getByText("Paris", { exact: true })).toBeAttached();
  await expect(playerB.getByText("Lyon", { exact: true })).toBeAttached();
  await expect(page.getByLabel("City", { exact: true })).toHaveAccessibleDescription(/default “Paris” in A, “Lyon” in B/);
  await expect(page.getByLabel("Weather", { exact: true })).toHaveAccessibleDescription(/^only in B: text layer “Status”/);

  await page.getByLabel("City", { exact: true }).fill("Reykjavik");
  await page.getByLabel("Weather", { exact: true }).fill("Rainy");
  await expect(playerA.getByText("Reykjavik", { exact: true })).toBeAttached();
  await expect(playerB.getByText("Reykjavik", { exact: true })).toBeAttached();
  await expect(playerB.getByText("Rainy", { exact: true })).toBeAttached();
  // A binds no Weather key: its Status layer keeps its own default.
  await expect(playerA.getByText("Sunny", { exact: true })).toBeAttached();
  await expect(playerA.getByText("Rainy", { exact: true })).toHaveCount(0);

  await expectAccessible(page);
  await screenshots(page, "template-compare");

  // Swapping: the address says so, and what was added is now removed.
  await page.getByRole("button", { name: "Swap A and B" }).click();
  await expect(page).toHaveURL(new RegExp(`a=${second.id}&b=${first.id}$`));
  await expect(rowOf(page.getByRole("table", { name: "Fields" }), "Weather").getByRole("cell").first()).toHaveText("removed");
  await expectPlaying(page, "A · Weather card 1.1");
  await expectPlaying(page, "B · Weather card 1.0");
});

test("Compare versions – an id of another project's template, or no template at all: said on its side, and another can be chosen", async ({ page }) => {
  const [first, second] = [
    await uploadWeatherCard(`Bearer ${token}`, projectId, "2.0", manifest),
    await uploadWeatherCard(`Bearer ${token}`, projectId, "2.1", secondManifest),
  ];
  await signIn(page, manager);

  const response = await page.goto(`/projects/${projectId}/templates/compare?a=${foreignTemplateId}&b=${second.id}`);
  expect(response?.status()).toBe(200);
  await expect(page.getByRole("alert").filter({ hasText: "Template A was not found" })).toContainText(`This project has no template “${foreignTemplateId}”`);
  await expect(page.getByRole("table")).toHaveCount(0);
  await expect(page.getByRole("combobox", { name: "Template A" })).toHaveValue("");
  await expect(page.getByRole("combobox", { name: "Template B" })).toHaveValue(second.id);
  await expectAccessible(page);
  await screenshots(page, "template-compare-not-found");

  await page.getByRole("combobox", { name: "Template A" }).selectOption(first.id);
  await expect(page).toHaveURL(new RegExp(`a=${first.id}&b=${second.id}$`));
  await expect(page.getByRole("alert").filter({ hasText: "was not found" })).toHaveCount(0);
  await expect(page.getByRole("table", { name: "Fields" })).toBeVisible();

  for (const query of [`a=not-a-uuid&b=${first.id}`, `a=${first.id}&b=${randomUUID()}`, "a=%00%27&b=%3Cscript%3E"]) {
    const answer = await page.goto(`/projects/${projectId}/templates/compare?${query}`);
    expect(answer?.status(), query).toBe(200);
    await expect(page.getByRole("alert").filter({ hasText: "was not found" }).first(), query).toBeVisible();
  }
  // Only one id, one of the project's: its default counterpart is put in the address.
  await page.goto(`/projects/${projectId}/templates/compare?b=${second.id}`);
  await expect(page).toHaveURL(new RegExp(`a=${first.id}&b=${second.id}$`));
});
