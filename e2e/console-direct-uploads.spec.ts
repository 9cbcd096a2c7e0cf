import { copyFileSync, mkdtempSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { expect, test, type Browser, type Page, type Response } from "@playwright/test";
import { startFaultProxy, type FaultProxy, type ProxiedRequest } from "../testing/fault-proxy";
import { makeLottie, textLayer } from "../testing/fixtures/lottie-builders";
import { startS3Server, type S3Server } from "../testing/s3-server";
import { startUploadThingStandIn, type UploadThingStandIn } from "../testing/uploadthing-stand-in";
import { expectAccessible, screenshotDir, screenshots, signIn } from "./console-helpers";
import { fillUploadForm, fixtureDir, manifest, manifestFile, recordProgress, throttleUploads } from "./console-upload-helpers";
import { startOwnInstance, type OwnInstance } from "./own-instance";

// The console's upload form with UPLOAD_MODE=direct (docs/direct-uploads.md) in Chromium: the
// files go part by part from the browser to storage through an upload session, never through
// the app. On S3 (s3rver behind a loopback proxy that counts, drops and holds the part PUTs) and
// on local storage (the app's own part route), and through UploadThing (its loopback stand-in).
// Instances of the spec's own, started with those settings.

test.describe.configure({ timeout: 300_000 });

type SessionJson = { id: string; status: string; provider: string; files: { index: number; name: string; parts?: { partNumber: number }[] }[] };

const formAlert = (page: Page) => page.getByRole("form", { name: "Upload a template" }).getByRole("alert");
const isPartPut = (request: ProxiedRequest) => request.method === "PUT" && /[?&]partNumber=\d+/.test(request.url) && /[?&]uploadId=/.test(request.url);
/** The object key and part number a part PUT is for. */
const partOf = (url: string) => {
  const parsed = new URL(url, "http://proxy");
  return `${decodeURIComponent(parsed.pathname)}#${parsed.searchParams.get("partNumber")}`;
};
const isSessionCreated = (response: Response) => response.request().method() === "POST" && new URL(response.url()).pathname.endsWith("/templates/uploads");
const partCount = (session: SessionJson) => session.files.reduce((sum, file) => sum + (file.parts?.length ?? 0), 0);
const resumeEntries = (page: Page) =>
  page.evaluate(() =>
    Object.keys(localStorage)
      .filter((key) => key.startsWith("reelbind:direct-upload:"))
      .map((key) => JSON.parse(localStorage.getItem(key)!) as { sessionId: string; etags: Record<string, Record<string, string>> }),
  );

/** A signed-in page of its own on the instance. */
async function consolePage(browser: Browser, instance: OwnInstance): Promise<Page> {
  const context = await browser.newContext({ baseURL: instance.app.baseUrl });
  const page = await context.newPage();
  // A part PUT the page's connect-src does not allow fails as a network error (and is retried); say why in the output.
  page.on("console", (message) => {
    if (message.text().includes("Content Security Policy")) console.warn(`In the page: ${message.text()}`);
  });
  await signIn(page, { email: instance.app.adminEmail, password: instance.app.adminPassword });
  return page;
}

/** The weather card's files, and a 17 MB asset (three parts of 8 MiB at most), on disk: picked again after a reload, they are the same files (name, size, date). */
function writeFiles(): { dir: string; weather: string[]; big: string } {
  const dir = mkdtempSync(path.join(tmpdir(), "reelbind-direct-files-"));
  copyFileSync(`${fixtureDir}/data.json`, path.join(dir, "data.json"));
  writeFileSync(path.join(dir, "manifest.json"), JSON.stringify(manifest));
  copyFileSync(`${fixtureDir}/images/img_0.jpg`, path.join(dir, "img_0.jpg"));
  copyFileSync(`${fixtureDir}/images/img_1.jpg`, path.join(dir, "img_1.jpg"));
  // Starts like a PNG: an asset the server accepts.
  const big = Buffer.alloc(17 * 1024 * 1024, 0x5a);
  Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]).copy(big);
  writeFileSync(path.join(dir, "big.png"), big);
  return { dir, weather: ["data.json", "manifest.json", "img_0.jpg", "img_1.jpg"].map((name) => path.join(dir, name)), big: path.join(dir, "big.png") };
}

/** The weather card, and the big asset with `withBig`, picked from disk. */
async function pickFromDisk(page: Page, files: ReturnType<typeof writeFiles>, name: string, { withBig }: { withBig: boolean }) {
  const [data, manifestPath, img0, img1] = files.weather;
  await page.getByLabel("Name", { exact: true }).fill(name);
  await page.getByLabel("Lottie JSON", { exact: true }).setInputFiles(data!);
  await page.getByLabel("Binding manifest", { exact: true }).setInputFiles(manifestPath!);
  await page.getByLabel("Asset files", { exact: true }).setInputFiles(withBig ? [img0!, img1!, files.big] : [img0!, img1!]);
  await expect(page.getByRole("list", { name: "Asset files: chosen" }).getByRole("listitem")).toHaveCount(withBig ? 3 : 2);
}

async function expectWeatherCardPage(page: Page, instance: OwnInstance, name: string, extraFiles: string[] = []) {
  await expect(page).toHaveURL(new RegExp(`/projects/${instance.app.projectId}/templates/[0-9a-f-]{36}$`), { timeout: 120_000 });
  await expect(page.getByRole("heading", { level: 1, name })).toBeVisible();
  await expect(page.getByText("Testing", { exact: true }).first()).toBeVisible();
  const files = page.getByRole("table", { name: "Files" });
  for (const file of ["data.json", "manifest.json", "img_0.jpg", "img_1.jpg", ...extraFiles]) await expect(files.getByRole("row", { name: new RegExp(`^${file.replace(".", "\\.")} `) })).toBeVisible();
  await expect(page.getByRole("table", { name: "Fields" }).getByRole("row", { name: /^City / })).toBeVisible();
  expect(await resumeEntries(page)).toEqual([]);
}

test.describe("UPLOAD_MODE=direct, S3 (s3rver behind a proxy)", () => {
  let s3: S3Server | undefined;
  let proxy: FaultProxy | undefined;
  let instance: OwnInstance;
  let files: ReturnType<typeof writeFiles>;
  const partPuts = () => proxy!.requests().filter(isPartPut);

  test.beforeAll(async () => {
    test.setTimeout(300_000);
    files = writeFiles();
    s3 = await startS3Server("reelbind-direct");
    proxy = await startFaultProxy(s3.endpoint);
    // The app presigns part URLs for the proxy's address: every byte the browser sends to storage passes it.
    instance = await startOwnInstance("direct-s3", { ...s3.env, S3_ENDPOINT: proxy.url, UPLOAD_MODE: "direct" });
  });

  test.afterAll(async () => {
    test.setTimeout(60_000);
    await instance?.stop();
    await proxy?.close();
    await s3?.close();
    rmSync(files.dir, { recursive: true, force: true });
  });

  test.beforeEach(() => proxy!.setRule(() => "forward"));

  test("Upload form – the weather card goes part by part from the browser to the bucket, none of it through the app; progress reaches 100 %; the template page lists it", async ({ browser }) => {
    const page = await consolePage(browser, instance);
    const puts: string[] = [];
    page.on("request", (request) => {
      if (request.method() === "PUT") puts.push(request.url());
    });
    await page.goto(`/projects/${instance.app.projectId}/templates/upload`);
    await fillUploadForm(page, "Weather card (direct)");
    const before = partPuts().length;
    await throttleUploads(page, 50 * 1024);
    const progress = await recordProgress(page);
    const created = page.waitForResponse(isSessionCreated);
    await page.getByRole("button", { name: "Upload template" }).click();
    const session = (await (await created).json()) as SessionJson;
    expect(session).toMatchObject({ status: "open", provider: "s3" });
    await expect(page.getByRole("progressbar")).toHaveAttribute("aria-valuenow", /^([1-9]|[1-9]\d)$/);
    await page.screenshot({ path: `${screenshotDir}/direct-upload-progress-desktop.png`, fullPage: true });
    await page.setViewportSize({ width: 375, height: 812 });
    await page.screenshot({ path: `${screenshotDir}/direct-upload-progress-phone.png`, fullPage: true });
    await page.setViewportSize({ width: 1280, height: 800 });

    await expectWeatherCardPage(page, instance, "Weather card (direct)");
    await page.screenshot({ path: `${screenshotDir}/direct-upload-done-desktop.png`, fullPage: true });
    const seen = await progress();
    expect(seen.at(-1)).toBe(100);
    expect(seen.some((value) => value > 0 && value < 100)).toBe(true);
    expect([...seen].sort((a, b) => a - b)).toEqual(seen);

    // Every part went to the storage's address, once, whole; the app got none.
    const sent = partPuts().slice(before);
    expect(sent).toHaveLength(partCount(session));
    expect(sent.map((put) => [put.outcome, put.status])).toEqual(sent.map(() => ["answered", 200]));
    const sizes = [`${fixtureDir}/data.json`, `${fixtureDir}/images/img_0.jpg`, `${fixtureDir}/images/img_1.jpg`].map((file) => readSize(file));
    expect(sent.reduce((sum, put) => sum + put.bytes, 0)).toBe(sizes.reduce((a, b) => a + b, 0) + Buffer.byteLength(JSON.stringify(manifest)));
    expect(puts).toHaveLength(partCount(session));
    for (const url of puts) expect(url.startsWith(`${proxy!.url}/`)).toBe(true);
    await page.context().close();
  });

  test("Upload form – a Raster template (MP4, Lottie overlay, overlay settings) through the bucket", async ({ browser }) => {
    const page = await consolePage(browser, instance);
    await page.goto(`/projects/${instance.app.projectId}/templates/upload`);
    const { overlay, settings } = await fillRasterForm(page, "Raster (direct)");
    const before = partPuts().length;
    const created = page.waitForResponse(isSessionCreated);
    await page.getByRole("button", { name: "Upload template" }).click();
    const session = (await (await created).json()) as SessionJson;
    await expectRasterPage(page, instance, "Raster (direct)");
    const sent = partPuts().slice(before);
    expect(sent.map((put) => put.outcome)).toEqual(Array.from({ length: partCount(session) }, () => "answered"));
    expect(sent.reduce((sum, put) => sum + put.bytes, 0)).toBe(readSize("testing/fixtures/video/background-640x360-6s.mp4") + overlay.length + settings.length);
    await page.context().close();
  });

  test("Upload form – a part's connection dropped mid-body is sent again and the upload completes", async ({ browser }) => {
    const page = await consolePage(browser, instance);
    await page.goto(`/projects/${instance.app.projectId}/templates/upload`);
    await pickFromDisk(page, files, "Dropped connection card", { withBig: true });
    let dropped = false;
    proxy!.setRule(({ method, url }) => {
      if (dropped || method !== "PUT" || !/[?&]partNumber=2(&|$)/.test(url)) return "forward";
      dropped = true;
      return "drop";
    });
    const before = partPuts().length;
    const created = page.waitForResponse(isSessionCreated);
    await page.getByRole("button", { name: "Upload template" }).click();
    const session = (await (await created).json()) as SessionJson;
    expect(partCount(session)).toBeGreaterThan(session.files.length);
    await expectWeatherCardPage(page, instance, "Dropped connection card", ["big.png"]);

    const sent = partPuts().slice(before);
    const droppedPut = sent.filter((put) => put.outcome === "dropped");
    expect(droppedPut).toHaveLength(1);
    expect(droppedPut[0]!.bytes).toBeGreaterThan(0);
    const answered = sent.filter((put) => put.outcome === "answered");
    expect(answered).toHaveLength(partCount(session));
    expect(new Set(answered.map((put) => partOf(put.url))).size).toBe(partCount(session));
    expect(answered.map((put) => partOf(put.url))).toContain(partOf(droppedPut[0]!.url));
    await page.context().close();
  });

  test("Upload form – reloaded mid-upload, the same files picked again: it says it resumes, sends only the parts missing, and completes", async ({ browser }) => {
    const page = await consolePage(browser, instance);
    await page.goto(`/projects/${instance.app.projectId}/templates/upload`);
    await pickFromDisk(page, files, "Resumed card", { withBig: true });
    // The first three parts reach the bucket; the next ones stall, as on a connection gone quiet.
    let forwarded = 0;
    proxy!.setRule(({ method, url }) => (method === "PUT" && /[?&]partNumber=/.test(url) ? (++forwarded <= 3 ? "forward" : "hold") : "forward"));
    const before = partPuts().length;
    const created = page.waitForResponse(isSessionCreated);
    await page.getByRole("button", { name: "Upload template" }).click();
    const session = (await (await created).json()) as SessionJson;
    const total = partCount(session);
    expect(total).toBeGreaterThan(4);
    await expect.poll(() => partPuts().slice(before).filter((put) => put.outcome === "answered").length, { timeout: 60_000 }).toBe(3);
    await expect.poll(() => partPuts().slice(before).filter((put) => put.outcome === "held").length, { timeout: 60_000 }).toBeGreaterThan(0);
    // The browser has recorded the three ETags.
    await expect
      .poll(async () => (await resumeEntries(page)).map((entry) => [entry.sessionId, Object.values(entry.etags).reduce((sum, parts) => sum + Object.keys(parts).length, 0)]))
      .toEqual([[session.id, 3]]);
    const firstRound = partPuts().slice(before);
    const sentBefore = new Set(firstRound.filter((put) => put.outcome === "answered").map((put) => partOf(put.url)));

    await page.reload();
    await expect(page.getByRole("heading", { name: "Upload a template" })).toBeVisible();
    // The parts go through again; the first of them waits until the page has been looked at.
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    let gated = false;
    proxy!.setRule(({ method, url }) => {
      if (gated || method !== "PUT" || !/[?&]partNumber=/.test(url)) return "forward";
      gated = true;
      return { forwardAfter: gate };
    });
    const appRequests: string[] = [];
    page.on("request", (request) => appRequests.push(`${request.method()} ${new URL(request.url()).pathname}`));
    const resumedFrom = partPuts().length;
    await pickFromDisk(page, files, "Resumed card", { withBig: true });
    await page.getByRole("button", { name: "Upload template" }).click();
    await expect(page.getByText("Resuming an earlier upload…")).toBeVisible();
    await expect(page.getByRole("progressbar", { name: "Upload progress" })).toBeVisible();
    await expect.poll(() => partPuts().slice(resumedFrom).some((put) => put.outcome === "waiting")).toBe(true);
    // A part the storage has not acknowledged is not sent: under 100 %, and Cancel still works.
    await expect(page.getByRole("progressbar")).not.toHaveAttribute("aria-valuenow", "100");
    await expect(page.getByRole("button", { name: "Cancel upload" })).toBeEnabled();
    await expectAccessible(page);
    await screenshots(page, "direct-upload-resuming");
    release();
    await expectWeatherCardPage(page, instance, "Resumed card", ["big.png"]);

    const resumed = partPuts().slice(resumedFrom);
    expect(resumed.map((put) => put.outcome)).toEqual(Array.from({ length: total - 3 }, () => "answered"));
    const resumedParts = new Set(resumed.map((put) => partOf(put.url)));
    expect(resumedParts.size).toBe(total - 3);
    for (const part of sentBefore) expect(resumedParts.has(part)).toBe(false);
    // No second session: the one from before the reload was asked for and completed.
    expect(appRequests.filter((line) => line.startsWith("POST ") && line.endsWith("/templates/uploads"))).toEqual([]);
    expect(appRequests).toContain(`GET /api/Projects/${instance.app.projectId}/templates/uploads/${session.id}`);
    expect(appRequests).toContain(`POST /api/Projects/${instance.app.projectId}/templates/uploads/${session.id}/complete`);
    await page.context().close();
  });

  test("Upload form – Cancel mid-upload aborts the parts and cancels the session: the form says nothing was saved", async ({ browser }) => {
    const page = await consolePage(browser, instance);
    await page.goto(`/projects/${instance.app.projectId}/templates/upload`);
    await pickFromDisk(page, files, "Cancelled card (direct)", { withBig: true });
    await throttleUploads(page, 256 * 1024);
    const created = page.waitForResponse(isSessionCreated);
    await page.getByRole("button", { name: "Upload template" }).click();
    const session = (await (await created).json()) as SessionJson;
    await expect(page.getByRole("progressbar")).toHaveAttribute("aria-valuenow", /^([1-9]|[1-8]\d)$/, { timeout: 60_000 });
    expect(await s3!.pendingMultipartUploads()).toHaveLength(session.files.length);
    const deleted = page.waitForResponse((response) => response.request().method() === "DELETE" && response.url().endsWith(`/uploads/${session.id}`));
    await page.getByRole("button", { name: "Cancel upload" }).click();
    expect((await deleted).status()).toBe(204);
    await expect(formAlert(page)).toContainText("Upload cancelled. Nothing was saved.");
    await expect(page.getByRole("progressbar")).toHaveCount(0);
    await expect(page.getByLabel("Name", { exact: true })).toBeEnabled();
    expect(await resumeEntries(page)).toEqual([]);
    const state = await page.request.get(`/api/Projects/${instance.app.projectId}/templates/uploads/${session.id}`);
    expect(((await state.json()) as SessionJson).status).toBe("cancelled");
    // Its multipart uploads were aborted: the bucket keeps none of its parts.
    await expect.poll(() => s3!.pendingMultipartUploads()).toEqual([]);
    await page.context().close();
  });

  test("Upload form – the session's and the completion's refusals are shown next to their fields, as the one-request upload shows them", async ({ browser }) => {
    const page = await consolePage(browser, instance);
    await page.goto(`/projects/${instance.app.projectId}/templates/upload`);
    await fillUploadForm(page, "Refused card (direct)", "1.0.0");
    const refused = page.waitForResponse(isSessionCreated);
    await page.getByRole("button", { name: "Upload template" }).click();
    expect((await refused).status()).toBe(422);
    await expect(formAlert(page)).toContainText("The server refused the upload");
    await expect(page.getByLabel("Version")).toHaveAccessibleDescription(/Version must be major\.minor/);

    // The files are only read at completion: a manifest naming no layer is refused there.
    await page.getByLabel("Version").fill("1.0");
    const badManifest = { ...manifest, fields: [{ key: "City", type: "text", target: { layer: "Nope" } }] };
    await page.getByLabel("Binding manifest", { exact: true }).setInputFiles(manifestFile(badManifest));
    const completed = page.waitForResponse((response) => response.request().method() === "POST" && response.url().endsWith("/complete"));
    await page.getByRole("button", { name: "Upload template" }).click();
    expect((await completed).status()).toBe(422);
    await expect(page.getByLabel("Binding manifest", { exact: true })).toHaveAccessibleDescription(/fields\.0\.target\.layer: no text layer named "Nope" in templateJson/);
    await expect(page.getByLabel("Version")).not.toHaveAttribute("aria-invalid", "true");
    expect(await resumeEntries(page)).toEqual([]);
    await page.screenshot({ path: `${screenshotDir}/direct-upload-refused-desktop.png`, fullPage: true });
    await page.context().close();
  });
});

test.describe("UPLOAD_MODE=direct, local storage", () => {
  let instance: OwnInstance;

  test.beforeAll(async () => {
    test.setTimeout(300_000);
    instance = await startOwnInstance("direct-local", { UPLOAD_MODE: "direct" });
  });

  test.afterAll(async () => {
    test.setTimeout(60_000);
    await instance?.stop();
  });

  test("Upload form – the weather card's parts go to the app's own part route, then the session completes", async ({ browser }) => {
    const page = await consolePage(browser, instance);
    const puts: { url: string; status: number }[] = [];
    page.on("response", (response) => {
      if (response.request().method() === "PUT") puts.push({ url: response.url(), status: response.status() });
    });
    await page.goto(`/projects/${instance.app.projectId}/templates/upload`);
    await fillUploadForm(page, "Weather card (local parts)");
    const created = page.waitForResponse(isSessionCreated);
    await page.getByRole("button", { name: "Upload template" }).click();
    const session = (await (await created).json()) as SessionJson;
    expect(session).toMatchObject({ status: "open", provider: "local" });
    await expectWeatherCardPage(page, instance, "Weather card (local parts)");
    expect(puts).toHaveLength(partCount(session));
    for (const put of puts) {
      expect(put.status).toBe(200);
      expect(put.url).toMatch(new RegExp(`^${instance.app.baseUrl}/api/uploads/${session.id}/files/\\d+/parts/\\d+\\?`));
    }
    await page.context().close();
  });
});

test.describe("UPLOAD_MODE=uploadthing (the loopback UploadThing stand-in)", () => {
  let standIn: UploadThingStandIn | undefined;
  let instance: OwnInstance;

  test.beforeAll(async () => {
    test.setTimeout(300_000);
    standIn = await startUploadThingStandIn();
    instance = await startOwnInstance("direct-uploadthing", standIn.env);
  });

  test.afterAll(async () => {
    test.setTimeout(60_000);
    await instance?.stop();
    await standIn?.close();
  });

  test("Upload form – the weather card's files go to UploadThing, one upload per file, then the session completes", async ({ browser }) => {
    const page = await consolePage(browser, instance);
    const puts: string[] = [];
    page.on("request", (request) => {
      if (request.method() === "PUT") puts.push(request.url());
    });
    await page.goto(`/projects/${instance.app.projectId}/templates/upload`);
    await fillUploadForm(page, "Weather card (UploadThing)");
    const progress = await recordProgress(page);
    const created = page.waitForResponse(isSessionCreated);
    const completed = page.waitForResponse((response) => response.request().method() === "POST" && response.url().endsWith("/complete"), { timeout: 120_000 });
    await page.getByRole("button", { name: "Upload template" }).click();
    const session = (await (await created).json()) as SessionJson;
    expect(session).toMatchObject({ status: "open", provider: "uploadthing" });

    const completion = await completed;
    expect(completion.status(), await completion.text()).toBe(201);
    await expectWeatherCardPage(page, instance, "Weather card (UploadThing)");
    expect((await progress()).at(-1)).toBe(100);
    // Every file went from the browser to UploadThing (the app got none of their bytes), and was deleted there once imported.
    const putsAtUploadThing = standIn!.requests().filter((request) => request.server === "ingest" && request.method === "PUT");
    expect(putsAtUploadThing.map((request) => request.status)).toEqual(session.files.map(() => 200));
    expect(puts).toHaveLength(session.files.length);
    for (const url of puts) expect(url.startsWith(`${standIn!.ingestUrl}/`)).toBe(true);
    await expect.poll(() => standIn!.files().filter((file) => file.slug === "templateFiles")).toEqual([]);
    await page.context().close();
  });

  test("Upload form – a Raster template (MP4, Lottie overlay, overlay settings) through UploadThing", async ({ browser }) => {
    const page = await consolePage(browser, instance);
    await page.goto(`/projects/${instance.app.projectId}/templates/upload`);
    await fillRasterForm(page, "Raster (UploadThing)");
    const ingestPuts = () => standIn!.requests().filter((request) => request.server === "ingest" && request.method === "PUT");
    const before = ingestPuts().length;
    const created = page.waitForResponse(isSessionCreated);
    await page.getByRole("button", { name: "Upload template" }).click();
    const session = (await (await created).json()) as SessionJson;
    expect(session.provider).toBe("uploadthing");
    await expectRasterPage(page, instance, "Raster (UploadThing)");
    // One PUT per file, each answered 200: the MP4 and the two JSON files went to UploadThing, not through the app.
    expect(ingestPuts().slice(before).map((request) => request.status)).toEqual(session.files.map(() => 200));
    await expect.poll(() => standIn!.files().filter((file) => file.slug === "templateFiles")).toEqual([]);
    await page.context().close();
  });
});

/** Fills the form with a Raster template: the fixture MP4, a Lottie overlay and overlay settings; answers the JSON files' bytes. */
async function fillRasterForm(page: Page, name: string): Promise<{ overlay: Buffer; settings: Buffer }> {
  await page.getByLabel("Name", { exact: true }).fill(name);
  await page.getByLabel("Kind").selectOption("Raster");
  const overlay = Buffer.from(JSON.stringify(makeLottie({ w: 640, h: 360, fr: 30, op: 90, layers: [textLayer("{{City}}", "Nowhere", { op: 90, size: 48, y: 180 })] })));
  const settings = Buffer.from(JSON.stringify({ version: 1, fit: "contain", offsetSeconds: 2 }));
  await page.getByLabel("Video", { exact: true }).setInputFiles("testing/fixtures/video/background-640x360-6s.mp4");
  await page.getByLabel("Lottie overlay", { exact: true }).setInputFiles({ name: "overlay.json", mimeType: "application/json", buffer: overlay });
  await page.getByLabel("Overlay settings", { exact: true }).setInputFiles({ name: "overlay-settings.json", mimeType: "application/json", buffer: settings });
  return { overlay, settings };
}

/** The template page of a Raster template made by fillRasterForm. */
async function expectRasterPage(page: Page, instance: OwnInstance, name: string) {
  await expect(page).toHaveURL(new RegExp(`/projects/${instance.app.projectId}/templates/[0-9a-f-]{36}$`), { timeout: 120_000 });
  await expect(page.getByRole("heading", { level: 1, name })).toBeVisible();
  const table = page.getByRole("table", { name: "Files" });
  await expect(table.getByRole("row", { name: /^background-640x360-6s\.mp4 / })).toContainText("video/mp4");
  await expect(table.getByRole("row", { name: /^overlay\.json / })).toBeVisible();
}

function readSize(file: string): number {
  return statSync(file).size;
}
