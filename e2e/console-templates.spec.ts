import { createHash, randomUUID } from "node:crypto";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { expect, test, type APIRequestContext, type Page } from "@playwright/test";
import { expectAccessible, screenshotDir, signIn, screenshots as takeScreenshots } from "./console-helpers";
import { fillUploadForm, fixtureDir, manifest, manifestFile, recordProgress, throttleUploads, weatherFile } from "./console-upload-helpers";
import { env } from "./owned-project";
import { cli } from "./sign-in-helpers";

// The console's Templates pages in Chromium against the built app: a ProjectManager uploads,
// previews, deploys, archives and deletes through the forms; a Viewer sees what it cannot do;
// and the console-only preview player route (GET /embed/template-preview/…) on its own.

test.describe.configure({ timeout: 300_000 });

type User = { email: string; password: string };
type TemplateJson = { id: string; name: string; version: string; status: string };

const base = () => env("E2E_BASE_URL");
/** The upload form's own alert (Next.js keeps a route announcer with the same role). */
const formAlert = (page: Page) => page.getByRole("form", { name: "Upload a template" }).getByRole("alert");
const screenshots = (page: Page, name: string) => takeScreenshots(page, `templates-${name}`);

let projectId: string;
let manager: User;
let viewer: User;
let managerToken: string;
let otherProjectId: string;
let otherTemplateId: string;

test.beforeAll(async () => {
  const run = randomUUID();
  const user = async (label: string): Promise<User> => {
    const email = `templates-${label}-${run}@example.com`;
    const password = `pw-${randomUUID()}`;
    await cli("user", "create", "--email", email, "--password", password);
    return { email, password };
  };
  const [org, otherOrg, pm, view, outsider] = await Promise.all([
    cli<{ id: string }>("org", "create", "--name", `Templates console ${run}`),
    cli<{ id: string }>("org", "create", "--name", `Someone else ${run}`),
    user("pm"),
    user("viewer"),
    user("outsider"),
  ]);
  const [project, other] = await Promise.all([
    cli<{ id: string }>("project", "create", "--org", org.id, "--name", "Templates console e2e"),
    cli<{ id: string }>("project", "create", "--org", otherOrg.id, "--name", "Not yours"),
  ]);
  await cli("member", "add", "--user", pm.email, "--project", project.id, "--role", "ProjectManager");
  await cli("member", "add", "--user", view.email, "--project", project.id, "--role", "Viewer");
  await cli("member", "add", "--user", outsider.email, "--project", other.id, "--role", "ProjectManager");
  const [{ token }, { token: outsiderToken }] = await Promise.all([
    cli<{ token: string }>("token", "create", "--user", pm.email),
    cli<{ token: string }>("token", "create", "--user", outsider.email),
  ]);
  projectId = project.id;
  manager = pm;
  viewer = view;
  managerToken = token;
  otherProjectId = other.id;
  otherTemplateId = (await uploadOverApi(`Bearer ${outsiderToken}`, other.id, "Someone else's card")).id;
});

/** The weather card uploaded through the API (bearer token), for the tests that start from a template. */
async function uploadOverApi(authorization: string, project: string, name: string): Promise<TemplateJson> {
  const form = new FormData();
  form.append("name", name);
  form.append("kind", "LottieStandalone");
  form.append("templateJson", new Blob([readFileSync(`${fixtureDir}/data.json`)], { type: "application/json" }), "data.json");
  form.append("manifestJson", new Blob([JSON.stringify(manifest)], { type: "application/json" }), "manifest.json");
  for (const image of ["img_0.jpg", "img_1.jpg"]) form.append("assetFiles", new Blob([readFileSync(`${fixtureDir}/images/${image}`)]), image);
  const response = await fetch(`${base()}/api/Projects/${project}/templates/upload`, {
    method: "POST",
    headers: { authorization },
    body: form,
    signal: AbortSignal.timeout(60_000),
  });
  expect(response.status, await response.clone().text()).toBe(201);
  return (await response.json()) as TemplateJson;
}

const uploadAsManager = (name: string) => uploadOverApi(`Bearer ${managerToken}`, projectId, name);

async function templatesNamed(request: APIRequestContext, name: string): Promise<TemplateJson[]> {
  const response = await request.get(`/api/Projects/${projectId}/templates`, { headers: { authorization: `Bearer ${managerToken}` } });
  return ((await response.json()) as { items: TemplateJson[] }).items.filter((template) => template.name === name);
}

test("Templates list and upload form – a ProjectManager uploads the weather card: progress reaches 100 %, the detail page lists its fields, chapters and CTA", async ({ page }) => {
  await signIn(page, manager);
  await page.goto(`/projects/${projectId}/templates`);
  await expect(page.getByText("No templates yet")).toBeVisible();
  await expectAccessible(page);
  await screenshots(page, "list-empty");

  await page.getByRole("link", { name: "Upload template" }).first().click();
  await expect(page).toHaveURL(/\/templates\/upload$/);
  await expect(page.getByRole("heading", { name: "Upload a template" })).toBeVisible();
  await expectAccessible(page);
  await screenshots(page, "upload");

  // A Raster template asks for its video instead; switching back keeps what was chosen.
  await page.getByLabel("Kind").selectOption("Raster");
  await expect(page.getByLabel("Video", { exact: true })).toBeAttached();
  await expect(page.getByLabel("Overlay settings", { exact: true })).toBeAttached();
  await page.getByLabel("Kind").selectOption("LottieStandalone");
  await expect(page.getByLabel("Video", { exact: true })).toHaveCount(0);

  await fillUploadForm(page, "Weather card (console)");
  await screenshots(page, "upload-filled");
  await throttleUploads(page, 50 * 1024);
  const progress = await recordProgress(page);
  await page.getByRole("button", { name: "Upload template" }).click();
  await expect(page.getByRole("progressbar", { name: "Upload progress" })).toBeVisible();
  await page.setViewportSize({ width: 375, height: 812 });
  await expect(page.getByRole("progressbar")).toHaveAttribute("aria-valuenow", /^([1-9]|[1-9]\d)$/);
  await page.screenshot({ path: `${screenshotDir}/templates-upload-progress-phone.png`, fullPage: true });
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.screenshot({ path: `${screenshotDir}/templates-upload-progress-desktop.png`, fullPage: true });

  await expect(page).toHaveURL(new RegExp(`/projects/${projectId}/templates/[0-9a-f-]{36}$`), { timeout: 60_000 });
  const seen = await progress();
  expect(seen.at(-1)).toBe(100);
  expect(seen.some((value) => value > 0 && value < 100)).toBe(true);
  expect([...seen].sort((a, b) => a - b)).toEqual(seen);

  await expect(page.getByRole("heading", { level: 1, name: "Weather card (console)" })).toBeVisible();
  await expect(page.getByText("Testing", { exact: true }).first()).toBeVisible();
  const fields = page.getByRole("table", { name: "Fields" });
  for (const [key, target, fallback, maxLength] of [
    ["City", "text layer “City”", "Paris", "40"],
    ["Status", "text layer “Status”", "Sunny", "40"],
    ["Tempreture", "text layer “Tempreture”", "20°", "8"],
    ["avatar", "image asset “image_0”", "—", "—"],
  ]) {
    const cells = fields.getByRole("row", { name: new RegExp(`^${key} `) }).getByRole("cell");
    await expect(cells).toHaveText([key === "avatar" ? "image" : "text", target!, fallback!, maxLength!]);
  }
  await expect(page.getByRole("table", { name: "Chapters" }).getByRole("row")).toHaveCount(3);
  await expect(page.getByRole("table", { name: "Chapters" })).toContainText("Forecast");
  await expect(page.getByRole("table", { name: "Calls to action" })).toContainText("See the details");
  const files = page.getByRole("table", { name: "Files" });
  const dataJsonSha = createHash("sha256").update(readFileSync(`${fixtureDir}/data.json`)).digest("hex");
  await expect(files.getByRole("row", { name: /^data\.json / })).toContainText(dataJsonSha.slice(0, 12));
  await expect(files.getByRole("row", { name: /^img_0\.jpg / })).toContainText("image/jpeg");

  // The list shows it, filtered by status too.
  await page.getByRole("link", { name: "All templates" }).click();
  await expect(page.getByRole("row", { name: /Weather card \(console\)/ })).toContainText("Testing");
  await page.getByLabel("Status").selectOption("Production");
  await expect(page).toHaveURL(/status=Production/);
  await expect(page.getByText("No Production templates")).toBeVisible();
  await page.getByLabel("Status").selectOption("Testing");
  await expect(page.getByRole("row", { name: /Weather card \(console\)/ })).toBeVisible();
  await page.getByLabel("Status").selectOption("");
  await expectAccessible(page);
  await screenshots(page, "list");
});

test("Upload form – the server's field errors (a bad version, a manifest naming no layer) are shown next to their fields", async ({ page }) => {
  await signIn(page, manager);
  await page.goto(`/projects/${projectId}/templates/upload`);
  // What the form checks itself: the name and the kind's main file.
  await page.getByRole("button", { name: "Upload template" }).click();
  await expect(formAlert(page)).toContainText("Some required parts are missing");
  await expect(page.getByLabel("Name", { exact: true })).toHaveAccessibleDescription(/Give the template a name/);

  await fillUploadForm(page, "Refused card", "1.0.0");
  const badManifest = { ...manifest, fields: [{ key: "City", type: "text", target: { layer: "Nope" } }] };
  await page.getByLabel("Binding manifest", { exact: true }).setInputFiles(manifestFile(badManifest));
  const refused = page.waitForResponse((response) => response.url().endsWith("/templates/upload"));
  await page.getByRole("button", { name: "Upload template" }).click();
  expect((await refused).status()).toBe(422);
  await expect(formAlert(page)).toContainText("The server refused the upload (2 problems)");
  await expect(page.getByLabel("Version")).toHaveAttribute("aria-invalid", "true");
  await expect(page.getByLabel("Version")).toHaveAccessibleDescription(/Version must be major\.minor, e\.g\. 1\.0 or 2\.13/);
  await expect(page.getByLabel("Binding manifest", { exact: true })).toHaveAccessibleDescription(/fields\.0\.target\.layer: no text layer named "Nope" in templateJson/);
  await expect(page.getByLabel("Name", { exact: true })).not.toHaveAttribute("aria-invalid", "true");
  await expectAccessible(page);
  await screenshots(page, "upload-errors");
  expect(await templatesNamed(page.request, "Refused card")).toEqual([]);
});

test("Upload form – a retried submission reuses its Idempotency-Key: the response lost on the way is replayed, no second template", async ({ page }) => {
  await signIn(page, manager);
  await page.goto(`/projects/${projectId}/templates/upload`);
  await fillUploadForm(page, "Retried card");
  const keys: string[] = [];
  // The upload's POST only; the upload page's own URL ends the same way.
  await page.route("**/templates/upload", async (route) => {
    if (route.request().method() !== "POST") return route.fallback();
    keys.push(route.request().headers()["idempotency-key"]!);
    if (keys.length > 1) return route.continue();
    // The server creates the template, but its answer never reaches the browser.
    const answered = await route.fetch();
    expect(answered.status()).toBe(201);
    await route.abort("connectionreset");
  });
  await page.getByRole("button", { name: "Upload template" }).click();
  await expect(formAlert(page)).toContainText("Submitting the same form again is safe");
  const replay = page.waitForResponse((response) => response.url().endsWith("/templates/upload"));
  await page.getByRole("button", { name: "Upload template" }).click();
  const response = await replay;
  expect(response.status()).toBe(201);
  expect(response.headers()["idempotent-replayed"]).toBe("true");
  expect(keys).toHaveLength(2);
  expect(keys[0]).toMatch(/^console-upload-[0-9a-f]{32}$/);
  expect(keys[1]).toBe(keys[0]);
  await expect(page).toHaveURL(new RegExp(`/templates/${((await response.json()) as TemplateJson).id}$`));
  expect(await templatesNamed(page.request, "Retried card")).toHaveLength(1);

  // A changed form is a new submission: a new key (the server would refuse the old one for other content).
  await page.goto(`/projects/${projectId}/templates/upload`);
  await fillUploadForm(page, "Changed card");
  await page.unroute("**/templates/upload");
  await page.route("**/templates/upload", async (route) => {
    if (route.request().method() !== "POST") return route.fallback();
    keys.push(route.request().headers()["idempotency-key"]!);
    return keys.length === 3 ? route.abort("connectionreset") : route.continue();
  });
  await page.getByRole("button", { name: "Upload template" }).click();
  await expect(formAlert(page)).toContainText("Submitting the same form again is safe");
  await page.getByLabel("Name", { exact: true }).fill("Changed card, renamed");
  const created = page.waitForResponse((r) => r.url().endsWith("/templates/upload"));
  await page.getByRole("button", { name: "Upload template" }).click();
  expect((await created).status()).toBe(201);
  expect(keys).toHaveLength(4);
  expect(keys[3]).not.toBe(keys[2]);
  expect(await templatesNamed(page.request, "Changed card")).toEqual([]);
  expect(await templatesNamed(page.request, "Changed card, renamed")).toHaveLength(1);
});

test("Upload form – Cancel aborts the request mid-body: no template, no blob, no temp file left", async ({ page, request }) => {
  await signIn(page, manager);
  await page.goto(`/projects/${projectId}/templates/upload`);
  await page.getByLabel("Name", { exact: true }).fill("Cancelled card");
  await page.getByLabel("Lottie JSON", { exact: true }).setInputFiles(weatherFile("data.json", "application/json"));
  // 1.5 MB that starts like a PNG: an asset the server would accept, slow to send at 64 KB/s.
  const big = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.from(randomUUID().repeat(42_000))]);
  const bigSha = createHash("sha256").update(big).digest("hex");
  await page.getByLabel("Asset files", { exact: true }).setInputFiles({ name: "big.png", mimeType: "image/png", buffer: big });
  await throttleUploads(page, 64 * 1024);
  await page.getByRole("button", { name: "Upload template" }).click();
  await expect(page.getByRole("progressbar")).toHaveAttribute("aria-valuenow", /^([1-9]|[1-8]\d)$/);
  await page.getByRole("button", { name: "Cancel upload" }).click();
  await expect(formAlert(page)).toContainText("Upload cancelled. Nothing was saved.");
  await expect(page.getByRole("progressbar")).toHaveCount(0);
  await expect(page.getByLabel("Name", { exact: true })).toBeEnabled();

  const blobs = path.join(env("E2E_DATA_DIR"), "blobs");
  await expect
    .poll(() => (existsSync(path.join(blobs, "tmp")) ? readdirSync(path.join(blobs, "tmp")).length : 0))
    .toBe(0);
  expect(existsSync(path.join(blobs, "sha256", bigSha.slice(0, 2), bigSha))).toBe(false);
  expect(await templatesNamed(request, "Cancelled card")).toEqual([]);
});

test("Template detail – typing a city changes the text in the player iframe; the server's PNG preview appears", async ({ page }) => {
  const template = await uploadAsManager("Preview card");
  await signIn(page, manager);
  await page.goto(`/projects/${projectId}/templates/${template.id}`);
  const player = page.frameLocator('iframe[title^="Live preview of Preview card"]');
  await expect(page.getByText("Playing this template")).toBeVisible();
  await expect(player.getByText("Paris", { exact: true })).toBeAttached();

  await page.getByLabel("City").fill("Reykjavik");
  await expect(player.getByText("Reykjavik", { exact: true })).toBeAttached();
  await expect(player.getByText("Paris", { exact: true })).toHaveCount(0);
  await expect(page.getByLabel("City")).toHaveAccessibleDescription(/default “Paris”/);
  // Emptying the input brings the default back.
  await page.getByLabel("City").fill("");
  await expect(player.getByText("Paris", { exact: true })).toBeAttached();
  await page.getByLabel("City").fill("Oslo");
  await expect(player.getByText("Oslo", { exact: true })).toBeAttached();

  const previewed = page.waitForResponse((response) => response.url().endsWith("/preview"));
  await page.getByRole("button", { name: "Render PNG on the server" }).click();
  const preview = await previewed;
  expect(preview.status()).toBe(200);
  expect(JSON.parse(preview.request().postData()!)).toEqual({ data: { City: "Oslo", Status: "Sunny", Tempreture: "20°" } });
  const png = page.getByRole("img", { name: /Server-rendered frame \d+ of Preview card/ });
  await expect(png).toBeVisible({ timeout: 60_000 });
  await expect.poll(() => png.evaluate((image: HTMLImageElement) => image.complete && image.naturalWidth)).toBeGreaterThan(0);
  await page.getByLabel("City").fill("Lima");
  await expect(page.getByText("The form has changed since")).toBeVisible();
  await page.getByLabel("City").fill("Oslo");
  await expectAccessible(page);
  await screenshots(page, "detail");
});

test("Deploy, archive, delete – through their confirmations, each disabled with its reason where the lifecycle forbids it", async ({ page }) => {
  const first = await uploadAsManager("Lifecycle card A");
  const second = await uploadAsManager("Lifecycle card B");
  const third = await uploadAsManager("Lifecycle card C");
  await signIn(page, manager);

  // A: nothing is in Production in this project yet.
  await page.goto(`/projects/${projectId}/templates/${first.id}`);
  await page.getByRole("button", { name: "Deploy to Production" }).click();
  const dialog = page.getByRole("dialog");
  await expect(dialog).toContainText("No template is in Production yet");
  await dialog.getByRole("button", { name: "Deploy" }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByRole("status").filter({ hasText: "Lifecycle card A 1.0 is now in Production." })).toBeVisible();

  // B: the dialog names A, which becomes Previous.
  await page.goto(`/projects/${projectId}/templates/${second.id}`);
  await page.getByRole("button", { name: "Deploy to Production" }).click();
  await expect(dialog).toContainText("Lifecycle card A 1.0, in Production now, becomes Previous.");
  await screenshots(page, "deploy-dialog");
  // Escape closes without deploying.
  await page.keyboard.press("Escape");
  await expect(dialog).toBeHidden();
  await page.getByRole("button", { name: "Deploy to Production" }).click();
  await dialog.getByRole("button", { name: "Deploy" }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByText("Production", { exact: true })).toBeVisible();
  await expect(page.getByRole("button", { name: /^Deploy to Production/ })).toBeDisabled();
  await expect(page.getByRole("button", { name: /^Archive/ })).toBeDisabled();
  await expect(page.getByRole("button", { name: /^Archive/ })).toHaveAttribute("title", "A Production template cannot be archived; deploy a newer version first.");
  await expect(page.getByRole("button", { name: /^Delete/ })).toHaveAttribute("title", "A template that was ever in Production cannot be deleted; archive it instead.");
  await expect(page.getByRole("button", { name: /^Deploy to Production/ })).toHaveAttribute("title", "This template is already in Production.");
  await screenshots(page, "detail-production");

  // A is Previous now: never deleted; a go-live back to it can be scheduled (and cancelled), or done now (a rollback).
  await page.goto(`/projects/${projectId}/templates/${first.id}`);
  await expect(page.getByText("Previous", { exact: true })).toBeVisible();
  await expect(page.getByRole("button", { name: /^Delete/ })).toBeDisabled();
  await page.getByRole("button", { name: "Schedule go-live" }).click();
  const tomorrow = new Date(Date.now() + 86_400_000).toISOString().slice(0, 10);
  await expect(dialog.getByLabel("Time (UTC)")).toHaveValue("09:00");
  await dialog.getByLabel("Time (UTC)").fill("14:30");
  await screenshots(page, "schedule-go-live");
  await dialog.getByRole("button", { name: "Schedule" }).click();
  await expect(dialog).toBeHidden();
  const scheduled = page.getByTestId("scheduled-go-live");
  await expect(scheduled.locator("time")).toHaveAttribute("datetime", `${tomorrow}T14:30:00.000Z`);
  await scheduled.getByRole("button", { name: "Cancel go-live" }).click();
  await dialog.getByRole("button", { name: "Cancel go-live" }).click();
  await expect(scheduled).toBeHidden();
  await page.getByRole("button", { name: "Roll back to this version" }).click();
  await expect(dialog).toContainText("The PROD share will play Lifecycle card A 1.0 again, at once. Lifecycle card B 1.0, in Production now, becomes Previous.");
  await dialog.getByRole("button", { name: "Roll back" }).click();
  await expect(page.getByRole("status").filter({ hasText: "Rolled back: Lifecycle card A 1.0 is in Production again." })).toBeVisible();
  // And forward again to B: A is Previous once more.
  await page.goto(`/projects/${projectId}/templates/${second.id}`);
  await page.getByRole("button", { name: "Roll back to this version" }).click();
  await dialog.getByRole("button", { name: "Roll back" }).click();
  await expect(dialog).toBeHidden();
  await page.goto(`/projects/${projectId}/templates/${first.id}`);
  await expect(page.getByText("Previous", { exact: true })).toBeVisible();
  await page.getByRole("button", { name: "Archive", exact: true }).click();
  await dialog.getByRole("button", { name: "Archive" }).click();
  await expect(dialog).toBeHidden();
  // The status badge, not the "Archived" date's term.
  await expect(page.getByText("Archived", { exact: true }).and(page.locator("span"))).toBeVisible();
  await expect(page.getByRole("button", { name: /^Archive/ })).toHaveAttribute("title", "This template is already archived.");

  // C was never Production: deleted, it leaves the list.
  await page.goto(`/projects/${projectId}/templates/${third.id}`);
  await page.getByRole("button", { name: "Delete", exact: true }).click();
  await expect(dialog).toContainText("Delete Lifecycle card C 1.0?");
  await dialog.getByRole("button", { name: "Delete" }).click();
  await expect(page).toHaveURL(new RegExp(`/projects/${projectId}/templates$`));
  await expect(page.getByRole("link", { name: "Lifecycle card C" })).toHaveCount(0);
  await expect(page.getByRole("row", { name: /Lifecycle card B/ })).toContainText("Production");
  await expect(page.getByRole("row", { name: /Lifecycle card A/ })).toContainText("Archived");
  const gone = await page.request.get(`/api/Projects/${projectId}/templates/${third.id}`);
  expect(gone.status()).toBe(404);
});

test("Viewer – upload, deploy, archive, delete and the PNG preview are disabled with the role's reason; the API refuses the Viewer's cookie with 403", async ({ page }) => {
  const template = await uploadAsManager("Viewer card");
  await signIn(page, viewer);
  await page.goto(`/projects/${projectId}/templates`);
  const reason = (role: string) => `Needs the ${role} role; you are Viewer.`;
  await expect(page.getByRole("button", { name: /^Upload template/ })).toBeDisabled();
  await expect(page.getByRole("button", { name: /^Upload template/ })).toHaveAttribute("title", reason("Editor"));
  await expect(page.getByRole("link", { name: "Upload template" })).toHaveCount(0);
  await expectAccessible(page);
  await screenshots(page, "list-viewer");

  await page.goto(`/projects/${projectId}/templates/upload`);
  await expect(page.getByText("Uploading a template needs the Editor role; you are Viewer.")).toBeVisible();
  await expect(page.getByLabel("Lottie JSON", { exact: true })).toHaveCount(0);

  await page.goto(`/projects/${projectId}/templates/${template.id}`);
  for (const [name, role] of [["Deploy to Production", "ProjectManager"], ["Archive", "ProjectManager"], ["Delete", "ProjectManager"], ["Render PNG on the server", "Editor"]]) {
    const button = page.getByRole("button", { name: new RegExp(`^${name}`) });
    await expect(button).toBeDisabled();
    await expect(button).toHaveAttribute("title", reason(role!));
  }
  // A Viewer may still watch the template play.
  await expect(page.getByText("Playing this template")).toBeVisible();
  await screenshots(page, "detail-viewer");

  // The server refuses it anyway: the same-origin cookie calls the console would make.
  const origin = { origin: new URL(base()).origin };
  const deploy = await page.request.post(`/api/Projects/${projectId}/templates/${template.id}/deploy`, { headers: origin });
  expect(deploy.status()).toBe(403);
  expect(((await deploy.json()) as { detail: string }).detail).toContain("needs the ProjectManager role");
  const preview = await page.request.post(`/api/Projects/${projectId}/templates/${template.id}/preview`, { headers: origin, data: { data: {} } });
  expect(preview.status()).toBe(403);
  const upload = await page.request.post(`/api/Projects/${projectId}/templates/upload`, {
    headers: origin,
    multipart: { name: "Viewer upload", kind: "LottieStandalone", templateJson: weatherFile("data.json", "application/json") },
  });
  expect(upload.status()).toBe(403);
  const remove = await page.request.delete(`/api/Projects/${projectId}/templates/${template.id}`, { headers: origin });
  expect(remove.status()).toBe(403);
  expect(await templatesNamed(page.request, "Viewer upload")).toEqual([]);
});

test("GET /embed/template-preview/{projectId}/{templateId} – the console session plays any status; framed by the app only; no ingest token; 401/404 otherwise, never 500", async ({ page }) => {
  const template = await uploadAsManager("Route card");
  await signIn(page, manager);
  const route = (project: string, id: string) => `/embed/template-preview/${project}/${id}`;

  const ok = await page.request.get(route(projectId, template.id));
  expect(ok.status()).toBe(200);
  const headers = ok.headers();
  expect(headers["content-type"]).toBe("text/html; charset=utf-8");
  expect(headers["cache-control"]).toBe("no-store");
  expect(headers["content-security-policy"]).toContain(`frame-ancestors 'self' ${new URL(base()).origin}`);
  const html = await ok.text();
  const pageManifest = JSON.parse(/<script id="reelbind-manifest" type="application\/json">(.*?)<\/script>/s.exec(html)![1]!) as Record<string, unknown>;
  expect(pageManifest).toMatchObject({ shareId: null, channel: null, ingest: null, cta: null, allowedOrigins: [new URL(base()).origin] });
  expect(pageManifest.template).toMatchObject({ id: template.id, version: "1.0", kind: "LottieStandalone" });
  expect((pageManifest.bindings as { data: unknown }).data).toEqual({});
  expect(html).not.toMatch(/ingest\+jwt|"token"/);

  // The Viewer can watch it too (template.read).
  const viewerContext = await page.context().browser()!.newContext({ baseURL: base() });
  const viewerPage = await viewerContext.newPage();
  await signIn(viewerPage, viewer);
  expect((await viewerPage.request.get(route(projectId, template.id))).status()).toBe(200);
  await viewerContext.close();

  const cases: [string, string, number][] = [
    ["another organization's project, its own template", route(otherProjectId, otherTemplateId), 404],
    ["this project, another project's template", route(projectId, otherTemplateId), 404],
    ["an unknown template", route(projectId, randomUUID()), 404],
    ["a malformed template id", route(projectId, "not-a-uuid"), 404],
    ["a malformed project id", route("x'; drop table templates;--", template.id), 404],
    ["a percent-escape that does not decode", `${route(projectId, template.id)}%E0%A4%A`, 404],
    ["an overlong id", route(projectId, "a".repeat(5000)), 404],
  ];
  for (const [name, url, status] of cases) {
    const response = await page.request.get(url);
    expect(`${name}: ${response.status()}`).toBe(`${name}: ${status}`);
  }
  // Without the console session (and no bearer token): 401, as a page the iframe can show.
  const anonymous = await fetch(`${base()}${route(projectId, template.id)}`, { signal: AbortSignal.timeout(30_000) });
  expect(anonymous.status).toBe(401);
  expect(await anonymous.text()).toContain("Sign in to the console to preview this template.");
  const badBearer = await fetch(`${base()}${route(projectId, template.id)}`, { headers: { authorization: "Bearer nope" }, signal: AbortSignal.timeout(30_000) });
  expect(badBearer.status).toBe(401);
  const post = await page.request.post(route(projectId, template.id), { headers: { origin: new URL(base()).origin } });
  expect(post.status()).toBe(405);
});
