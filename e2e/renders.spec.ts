import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { expect, test, type APIRequestContext } from "@playwright/test";
import { startApp } from "../testing/start-app";
import { createTestDatabase } from "./own-instance";
import { expectAccessible, signIn } from "./console-helpers";
import { createOwnedProject, env } from "./owned-project";

// Render jobs through the running app: the worker started with the server (claiming due renders
// from the renders table, lib/jobs/lease-worker.ts) renders with Debian's ffmpeg; the signed download URL is
// served by the same app, and what it serves is checked with ffprobe and played in Chromium.

test.describe.configure({ timeout: 180_000 });

type Render = { id: string; status: string; error: string | null; format: string; locale?: string | null; captions?: string; width: number; height: number; frames: number; downloadUrl?: string; expiresAt?: string };

const auth = () => ({ authorization: `Bearer ${env("E2E_API_TOKEN")}` });
const templatesUrl = () => `/api/Projects/${env("E2E_PROJECT_ID")}/templates`;

async function productionTemplate(request: APIRequestContext): Promise<string> {
  const response = await request.get(`${templatesUrl()}?status=Production`, { headers: auth() });
  expect(response.status()).toBe(200);
  return ((await response.json()) as { items: { id: string }[] }).items[0]!.id;
}

async function waitForRender(request: APIRequestContext, templateId: string, renderId: string, headers = auth(), base = templatesUrl()): Promise<Render> {
  let render: Render | undefined;
  await expect
    .poll(
      async () => {
        const response = await request.get(`${base}/${templateId}/renders/${renderId}`, { headers });
        expect(response.status()).toBe(200);
        render = (await response.json()) as Render;
        return render.status;
      },
      { timeout: 150_000, intervals: [250] },
    )
    .toMatch(/^(done|failed)$/);
  return render!;
}

const scratch = mkdtempSync(path.join(tmpdir(), "reelbind-e2e-renders-"));
test.afterAll(() => rmSync(scratch, { recursive: true, force: true }));

function ffprobe(bytes: Buffer, name: string) {
  const file = path.join(scratch, name);
  writeFileSync(file, bytes);
  const out = execFileSync("ffprobe", ["-v", "error", "-count_frames", "-show_streams", "-show_format", "-of", "json", file]);
  return JSON.parse(out.toString("utf8")) as { streams: Record<string, string | number>[]; format: { duration: string } };
}

test("the demo template as an MP4: queued, rendered, downloaded by its signed URL, H.264 that Chromium plays", async ({ request, page }) => {
  const templateId = await productionTemplate(request);
  const created = await request.post(`${templatesUrl()}/${templateId}/renders`, {
    headers: auth(),
    data: { data: { firstName: "Ana" }, format: "mp4", metadata: { e2e: true } },
  });
  expect(created.status(), await created.text()).toBe(202);
  const { id, status } = (await created.json()) as { id: string; status: string };
  expect(status).toBe("queued");

  const render = await waitForRender(request, templateId, id);
  expect(render, render.error ?? "").toMatchObject({ status: "done", format: "mp4", width: 1280, height: 720, frames: 300 });
  const file = await request.get(render.downloadUrl!);
  expect(file.status()).toBe(200);
  expect(file.headers()["content-type"]).toBe("video/mp4");
  expect(file.headers()["content-disposition"]).toBe(`attachment; filename="render-${id}.mp4"`);
  const probe = ffprobe(await file.body(), "demo.mp4");
  expect(probe.streams[0]).toMatchObject({ codec_name: "h264", pix_fmt: "yuv420p", width: 1280, height: 720, nb_read_frames: "300" });
  expect(Number(probe.format.duration)).toBeCloseTo(10, 1);

  const ranged = await request.get(render.downloadUrl!, { headers: { range: "bytes=0-1023" } });
  expect(ranged.status()).toBe(206);
  expect((await ranged.body()).byteLength).toBe(1024);

  // Chromium decodes it: its first frame is 1280×720 and it lasts 10 s.
  await page.setContent(`<video id="video" muted preload="auto" src="${render.downloadUrl}"></video>`);
  const played = await page.evaluate(
    () =>
      new Promise<{ width: number; height: number; duration: number }>((resolve, reject) => {
        const video = document.getElementById("video") as HTMLVideoElement;
        const report = () => resolve({ width: video.videoWidth, height: video.videoHeight, duration: video.duration });
        if (video.readyState >= 2) report();
        video.addEventListener("loadeddata", report);
        video.addEventListener("error", () => reject(new Error(`video error ${video.error?.code}: ${video.error?.message}`)));
      }),
  );
  expect(played.width).toBe(1280);
  expect(played.height).toBe(720);
  expect(played.duration).toBeCloseTo(10, 1);
});

test("captions: a de-DE MP4 with attached captions has a mov_text track in German with the viewer's name and formatted date; refusals name the field", async ({ request }) => {
  const templateId = await productionTemplate(request);
  const refused = async (body: Record<string, unknown>, path: string, message: RegExp) => {
    const response = await request.post(`${templatesUrl()}/${templateId}/renders`, { headers: auth(), data: { data: {}, ...body } });
    expect(response.status()).toBe(422);
    const problem = (await response.json()) as { errors: { path: string; message: string }[] };
    expect(problem.errors).toEqual([expect.objectContaining({ path, message: expect.stringMatching(message) })]);
  };
  await refused({ format: "gif", captions: "attach" }, "captions", /none or burn for a gif/);
  await refused({ format: "png", captions: "burn" }, "captions", /none for a png/);
  await refused({ format: "mp4", locale: "not a locale" }, "locale", /BCP 47 language tag/);

  const created = await request.post(`${templatesUrl()}/${templateId}/renders`, {
    headers: auth(),
    data: { data: { firstName: "Ana", renewalDate: "2027-03-03", amount: "24" }, format: "mp4", locale: "de-de", captions: "attach" },
  });
  expect(created.status(), await created.text()).toBe(202);
  const render = await waitForRender(request, templateId, ((await created.json()) as { id: string }).id);
  expect(render, render.error ?? "").toMatchObject({ status: "done", locale: "de-DE", captions: "attach" });
  const file = path.join(scratch, "captions.mp4");
  writeFileSync(file, await (await request.get(render.downloadUrl!)).body());
  const probe = JSON.parse(execFileSync("ffprobe", ["-v", "error", "-show_streams", "-of", "json", file]).toString("utf8")) as {
    streams: { codec_type: string; codec_name: string; tags?: Record<string, string> }[];
  };
  expect(probe.streams.find((s) => s.codec_type === "subtitle")).toMatchObject({ codec_name: "mov_text", tags: { language: "deu" } });
  const text = execFileSync("ffmpeg", ["-v", "error", "-i", file, "-map", "0:s:0", "-f", "webvtt", "-"]).toString("utf8").replace(/\s+/g, " ");
  expect(text).toContain("Hi Ana!");
  expect(text).toContain("It renews on 3. März 2027, and your next payment is 24,00 $.");
});

test("captions: burn draws them into the frames of an MP4 (a frame differs from the same render without), no subtitle track", async ({ request }) => {
  const templateId = await productionTemplate(request);
  const renderWith = async (captions: string) => {
    const created = await request.post(`${templatesUrl()}/${templateId}/renders`, { headers: auth(), data: { data: { firstName: "Ana" }, format: "mp4", captions } });
    expect(created.status(), await created.text()).toBe(202);
    const render = await waitForRender(request, templateId, ((await created.json()) as { id: string }).id);
    expect(render, render.error ?? "").toMatchObject({ status: "done", captions });
    const file = path.join(scratch, `burn-${captions}.mp4`);
    writeFileSync(file, await (await request.get(render.downloadUrl!)).body());
    return file;
  };
  const burnt = await renderWith("burn");
  const plain = await renderWith("none");
  const streams = JSON.parse(execFileSync("ffprobe", ["-v", "error", "-show_streams", "-of", "json", burnt]).toString("utf8")) as { streams: { codec_type: string }[] };
  expect(streams.streams.map((s) => s.codec_type)).toEqual(["video"]);
  // One second in: the greeting's caption "Hi Ana! …" is on screen.
  const frame = (file: string) =>
    execFileSync("ffmpeg", ["-v", "error", "-ss", "1", "-i", file, "-frames:v", "1", "-f", "rawvideo", "-pix_fmt", "rgb24", "-"], { maxBuffer: 16 * 1024 * 1024 });
  expect(frame(burnt).equals(frame(plain))).toBe(false);
});

test("the console's Render action on a template's page: a PNG rendered on the server, then its download link", async ({ page, request }) => {
  const templateId = await productionTemplate(request);
  await signIn(page, { email: env("E2E_ADMIN_EMAIL"), password: env("E2E_ADMIN_PASSWORD") });
  await page.goto(`/projects/${env("E2E_PROJECT_ID")}/templates/${templateId}`);
  await page.getByLabel("Render as").selectOption("png");
  await page.getByRole("button", { name: "Render", exact: true }).click();
  const status = page.getByTestId("render-status");
  await expect(status).toContainText("Done", { timeout: 120_000 });
  const link = status.getByRole("link", { name: "Download PNG" });
  const file = await request.get((await link.getAttribute("href"))!);
  expect(file.status()).toBe(200);
  expect(file.headers()["content-type"]).toBe("image/png");
  await expectAccessible(page);
});

test("a Raster template (the MP4 with a Lottie overlay) as an MP4 and a GIF; forged, expired and bad requests are refused", async ({ request }) => {
  const owned = await createOwnedProject("Renders");
  const headers = { authorization: `Bearer ${owned.token}` };
  const base = `/api/Projects/${owned.projectId}/templates`;
  const overlay = {
    v: "5.7.4", fr: 30, ip: 0, op: 60, w: 640, h: 360, nm: "overlay", ddd: 0, assets: [],
    layers: [{ ddd: 0, ty: 1, nm: "Box", sr: 1, ks: { o: { a: 0, k: 100 }, r: { a: 0, k: 0 }, p: { a: 0, k: [0, 0, 0] }, a: { a: 0, k: [0, 0, 0] }, s: { a: 0, k: [100, 100, 100] } }, ao: 0, sw: 100, sh: 100, sc: "#00ff00", ip: 0, op: 60, st: 0, bm: 0 }],
  };
  const uploaded = await request.post(`${base}/upload`, {
    headers,
    multipart: {
      name: "Raster e2e",
      kind: "Raster",
      videoFile: { name: "background.mp4", mimeType: "video/mp4", buffer: readFileSync("testing/fixtures/video/background-640x360-6s.mp4") },
      templateJson: { name: "overlay.json", mimeType: "application/json", buffer: Buffer.from(JSON.stringify(overlay)) },
    },
  });
  expect(uploaded.status(), await uploaded.text()).toBe(201);
  const templateId = ((await uploaded.json()) as { id: string }).id;

  const mp4 = (await (await request.post(`${base}/${templateId}/renders`, { headers, data: { format: "mp4" } })).json()) as { id: string };
  const gif = (await (await request.post(`${base}/${templateId}/renders`, { headers, data: { format: "gif" } })).json()) as { id: string };
  const video = await waitForRender(request, templateId, mp4.id, headers, base);
  expect(video, video.error ?? "").toMatchObject({ status: "done", width: 640, height: 360, frames: 180 });
  const probe = ffprobe(await (await request.get(video.downloadUrl!)).body(), "raster.mp4");
  expect(probe.streams[0]).toMatchObject({ codec_name: "h264", pix_fmt: "yuv420p", nb_read_frames: "180" });
  const animation = await waitForRender(request, templateId, gif.id, headers, base);
  expect(animation.status).toBe("done");
  const gifFile = await request.get(animation.downloadUrl!);
  expect(gifFile.headers()["content-type"]).toBe("image/gif");
  expect((await gifFile.body()).byteLength).toBeLessThanOrEqual(5 * 1024 * 1024);

  const url = new URL(video.downloadUrl!);
  const forged = new URL(url);
  forged.searchParams.set("signature", "A".repeat(43));
  expect((await request.get(forged.toString())).status()).toBe(404);
  const expired = new URL(url);
  expired.searchParams.set("expires", String(Math.floor(Date.now() / 1000) - 60));
  expect((await request.get(expired.toString())).status()).toBe(404);
  expect((await request.get(`${url.origin}${url.pathname}`)).status()).toBe(404);

  const badFormat = await request.post(`${base}/${templateId}/renders`, { headers, data: { format: "avi" } });
  expect(badFormat.status()).toBe(422);
  expect(((await badFormat.json()) as { errors: { path: string }[] }).errors.map((e) => e.path)).toEqual(["format"]);
  const malformed = await request.post(`${base}/${templateId}/renders`, { headers: { ...headers, "content-type": "application/json" }, data: Buffer.from("{format") });
  expect(malformed.status()).toBe(400);
  const otherProject = await request.post(`${templatesUrl()}/${templateId}/renders`, { headers: auth(), data: { format: "mp4" } });
  expect(otherProject.status()).toBe(404);
});

test("SIGTERM during a render: the server exits cleanly, and the next start renders it without counting the cut attempt", async ({ request }) => {
  test.setTimeout(480_000);
  const dataDir = mkdtempSync(path.join(tmpdir(), "reelbind-render-shutdown-"));
  const database = await createTestDatabase("render_shutdown");
  const env: NodeJS.ProcessEnv = { ...process.env, DATA_DIR: dataDir };
  for (const name of ["TOKEN_SECRETS", "AUTH_SECRET", "DATABASE_URL", "PUBLIC_BASE_URL", "INGEST_BASE_URL"]) delete env[name];
  if (database) env.DATABASE_URL = database.url;
  let app = await startApp(env, 240_000);
  try {
    const headers = { authorization: `Bearer ${app.token}` };
    const base = `${app.baseUrl}/api/Projects/${app.projectId}/templates`;
    // 60 s of 640×360, about 3 s of rendering on a quiet machine: long enough to be cut in the
    // middle (the app's log says it was, checked below), short enough to render again whole.
    const [w, h] = [640, 360];
    const solid = { ddd: 0, ty: 1, nm: "Background", sr: 1, ks: { o: { a: 0, k: 100 }, r: { a: 0, k: 0 }, p: { a: 0, k: [0, 0, 0] }, a: { a: 0, k: [0, 0, 0] }, s: { a: 0, k: [100, 100, 100] } }, ao: 0, sw: w, sh: h, sc: "#335577", ip: 0, op: 1800, st: 0, bm: 0 };
    const lottie = { v: "5.7.4", fr: 30, ip: 0, op: 1800, w, h, nm: "long", ddd: 0, assets: [], layers: [solid] };
    const uploaded = await request.post(`${base}/upload`, {
      headers,
      multipart: { name: "Long", kind: "LottieStandalone", templateJson: { name: "long.json", mimeType: "application/json", buffer: Buffer.from(JSON.stringify(lottie)) } },
    });
    expect(uploaded.status(), await uploaded.text()).toBe(201);
    const templateId = ((await uploaded.json()) as { id: string }).id;
    const { id } = (await (await request.post(`${base}/${templateId}/renders`, { headers, data: { format: "mp4" } })).json()) as { id: string };
    await expect.poll(async () => ((await (await request.get(`${base}/${templateId}/renders/${id}`, { headers })).json()) as Render).status, { timeout: 60_000, intervals: [100] }).toBe("rendering");

    expect(await app.stop()).toBe(0);
    expect(app.output()).toContain(`Render ${id} was cut by the shutdown; it is queued again`);

    app = await startApp(env, 240_000);
    const restartedBase = `${app.baseUrl}/api/Projects/${app.projectId}/templates`;
    const render = await waitForRender(request, templateId, id, headers, restartedBase);
    expect(render).toMatchObject({ status: "done", frames: 1800 });
    expect((render as Render & { attempts: number }).attempts).toBe(1);
  } finally {
    if (app.child.exitCode === null && app.child.signalCode === null) await Promise.race([app.stop(), new Promise((resolve) => setTimeout(resolve, 20_000))]);
    await database?.drop();
    rmSync(dataDir, { recursive: true, force: true });
  }
});
