import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { getConfig } from "@/lib/config";
import { getDb, schema } from "@/lib/db";
import { maxRenderAttempts } from "@/lib/renders/run-render";
import { getRenderQueue } from "@/lib/renders/queue";
import { renderSchema } from "@/lib/renders/contract";
import { apiRequest, createTestMember, createTestProject, routeParams } from "@/testing/factories";
import { GET as downloadRoute } from "@/app/api/renders/[renderId]/download/route";
import { GET as getRoute } from "./[templateId]/renders/[renderId]/route";
import { GET as listRoute, POST as createRoute } from "./[templateId]/renders/route";
import { errorPaths, okJson, problemOf, templatesUrl, uploadSmall, type TemplateJson } from "@/testing/template-api";

// The render API on the database the run is given (PGlite, or PostgreSQL with DATABASE_URL), with
// the process's real queue and real ffmpeg.

type RenderJson = ReturnType<typeof renderSchema.parse>;

let projectId: string;
let editor: string;
let viewer: string;
let template: TemplateJson;
const scratch = mkdtempSync(path.join(tmpdir(), "reelbind-renders-test-"));

beforeAll(async () => {
  const { project } = await createTestProject("Renders");
  projectId = project.id;
  editor = (await createTestMember("Editor", { projectId })).token;
  viewer = (await createTestMember("Viewer", { projectId })).token;
  template = await uploadSmall(editor, projectId, "Render me");
  await getRenderQueue().start();
});

afterAll(async () => {
  await getRenderQueue().stop();
  rmSync(scratch, { recursive: true, force: true });
});

const rendersUrl = (templateId = template.id) => `${templatesUrl(projectId)}/${templateId}/renders`;

function create(body: unknown, token = editor, templateId = template.id) {
  return createRoute(apiRequest("POST", rendersUrl(templateId), { token, body }), routeParams({ projectId, templateId }));
}

function getRender(renderId: string, token = editor) {
  return getRoute(apiRequest("GET", `${rendersUrl()}/${renderId}`, { token }), routeParams({ projectId, templateId: template.id, renderId }));
}

/** Polls until the render is done or failed; the cap only guards against a hang. */
async function waitForFinish(renderId: string): Promise<RenderJson> {
  return vi.waitFor(
    async () => {
      const render = await okJson<RenderJson>(await getRender(renderId));
      if (render.status !== "done" && render.status !== "failed") throw new Error(`render ${renderId} is ${render.status}`);
      return render;
    },
    { timeout: 100_000, interval: 100 },
  );
}

function download(url: string, headers: Record<string, string> = {}) {
  const renderId = new URL(url).pathname.split("/")[3]!;
  return downloadRoute(new Request(url, { headers }), routeParams({ renderId }));
}

function ffprobe(bytes: Buffer, name: string) {
  const file = path.join(scratch, name);
  writeFileSync(file, bytes);
  const out = execFileSync("ffprobe", ["-v", "error", "-count_frames", "-show_streams", "-show_format", "-of", "json", file]);
  return JSON.parse(out.toString("utf8")) as { streams: Record<string, unknown>[]; format: { duration: string } };
}

describe("POST …/templates/{templateId}/renders", () => {
  it("202 {id, status: queued}; the render becomes done with a signed download URL serving a playable MP4", async () => {
    const created = await okJson<{ id: string; status: string; warnings: string[] }>(await create({ data: { title: "Hi Ana" }, format: "mp4", metadata: { crm: 42 } }), 202);
    expect(created).toEqual({ id: expect.any(String), status: "queued", warnings: [] });
    const audits = await (await getDb()).select().from(schema.auditEvents).where(and(eq(schema.auditEvents.targetId, created.id), eq(schema.auditEvents.action, "render.created")));
    expect(audits).toHaveLength(1);
    expect(audits[0]).toMatchObject({ projectId, targetType: "render", data: { templateId: template.id, name: "Render me", version: template.version, format: "mp4" } });
    const render = renderSchema.parse(await waitForFinish(created.id));
    expect(render).toMatchObject({ status: "done", format: "mp4", purpose: "render", width: 320, height: 180, frames: 60, durationMs: 2000, attempts: 1, metadata: { crm: 42 } });
    expect(render.downloadUrl).toMatch(/\/api\/renders\/[0-9a-f-]+\/download\?expires=\d+&signature=/);
    const response = await download(render.downloadUrl!);
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("video/mp4");
    expect(response.headers.get("content-disposition")).toBe(`attachment; filename="render-${render.id}.mp4"`);
    const bytes = Buffer.from(await response.arrayBuffer());
    expect(bytes.byteLength).toBe(render.bytes);
    const probe = ffprobe(bytes, "render.mp4");
    expect(probe.streams[0]).toMatchObject({ codec_name: "h264", pix_fmt: "yuv420p", nb_read_frames: "60" });

    const ranged = await download(render.downloadUrl!, { range: "bytes=0-99" });
    expect(ranged.status).toBe(206);
    expect(ranged.headers.get("content-range")).toBe(`bytes 0-99/${render.bytes}`);
    expect((await ranged.arrayBuffer()).byteLength).toBe(100);
  });

  it("gif and png – done, with the right content types", async () => {
    const gif = await okJson<{ id: string }>(await create({ data: {}, format: "gif" }), 202);
    const png = await okJson<{ id: string }>(await create({ data: {}, format: "png" }), 202);
    for (const [id, type] of [[gif.id, "image/gif"], [png.id, "image/png"]] as const) {
      const render = await waitForFinish(id);
      expect(render.status).toBe("done");
      expect((await download(render.downloadUrl!)).headers.get("content-type")).toBe(type);
    }
  });

  it("a render.completed webhook event is queued with the render, to the request's webhookUrl", async () => {
    const created = await okJson<{ id: string }>(await create({ data: {}, format: "png", webhookUrl: "https://93.184.216.34/hook", metadata: { order: "A-1" } }), 202);
    await waitForFinish(created.id);
    const db = await getDb();
    const deliveries = await db.select().from(schema.webhookDeliveries).where(eq(schema.webhookDeliveries.projectId, projectId));
    const delivery = deliveries.find((d) => (d.payload as { data: { renderId: string } }).data.renderId === created.id);
    expect(delivery).toMatchObject({ url: "https://93.184.216.34/hook", eventType: "render.completed", endpointId: null });
    expect((delivery!.payload as { data: unknown }).data).toMatchObject({
      renderId: created.id,
      templateId: template.id,
      status: "done",
      format: "png",
      downloadUrl: expect.stringContaining(`/api/renders/${created.id}/download?`),
      metadata: { order: "A-1" },
    });
  });

  it("a webhookUrl whose host does not resolve now (.invalid) → 202, queued, with a warning on webhookUrl", async () => {
    const created = await okJson<{ warnings: string[] }>(await create({ data: {}, format: "png", webhookUrl: "https://offline-receiver.invalid/hook" }), 202);
    expect(created.warnings).toEqual([expect.stringMatching(/^webhookUrl: offline-receiver\.invalid could not be resolved now \(/)]);
  });

  it("unknown data keys are warnings, as in the preview", async () => {
    const created = await okJson<{ warnings: string[] }>(await create({ data: { nope: "x" }, format: "png" }), 202);
    expect(created.warnings).toEqual(['unknown key "nope"']);
  });

  it("422 for a bad format, a non-string value, a non-http or non-public webhookUrl (nothing queued), unknown fields; 415 for a non-JSON body", async () => {
    expect(errorPaths(await problemOf(await create({ data: {}, format: "avi" }), 422))).toEqual(["format"]);
    expect(errorPaths(await problemOf(await create({ data: { title: 1 }, format: "mp4" }), 422))).toEqual(["data.title"]);
    expect(errorPaths(await problemOf(await create({ format: "mp4", webhookUrl: "ftp://example.com/x" }), 422))).toEqual(["webhookUrl"]);
    expect(errorPaths(await problemOf(await create({ format: "mp4", webhookUrl: "javascript:alert(1)" }), 422))).toEqual(["webhookUrl"]);
    expect(errorPaths(await problemOf(await create({ format: "mp4", webhookUrl: "https://user:pw@example.com/hook" }), 422))).toEqual(["webhookUrl"]);
    for (const webhookUrl of ["http://127.0.0.1:9/hook", "http://2130706433/hook", "http://[::ffff:127.0.0.1]/hook", "http://[::169.254.169.254]/", "http://localhost/hook"]) {
      const problem = await problemOf(await create({ format: "mp4", webhookUrl }), 422);
      expect(problem.errors, webhookUrl).toEqual([{ path: "webhookUrl", message: expect.stringMatching(/(is|,) an? .*address.*: webhooks must reach a public address$/) }]);
    }
    const db = await getDb();
    expect(await db.select().from(schema.renders).where(eq(schema.renders.webhookUrl, "http://2130706433/hook"))).toEqual([]);
    expect(errorPaths(await problemOf(await create({ format: "mp4", metadata: { note: "x".repeat(5000) } }), 422))).toEqual(["metadata"]);
    expect(errorPaths(await problemOf(await create({ format: "mp4", metadata: ["not", "an", "object"] }), 422))).toEqual(["metadata"]);
    expect(errorPaths(await problemOf(await create({ format: "mp4", status: "done" }), 422))).toEqual(["status"]);
    const raw = createRoute(
      apiRequest("POST", rendersUrl(), { token: editor, rawBody: "format=mp4", headers: { "content-type": "text/plain" } }),
      routeParams({ projectId, templateId: template.id }),
    );
    await problemOf(await raw, 415);
  });

  it("403 for a Viewer; 404 for another project's template or an unknown render", async () => {
    await problemOf(await create({ format: "mp4" }, viewer), 403);
    const other = await createTestProject("Other");
    const outsider = (await createTestMember("Editor", { projectId: other.project.id })).token;
    const theirs = await uploadSmall(outsider, other.project.id);
    await problemOf(await create({ format: "mp4" }, editor, theirs.id), 404);
    await problemOf(await getRender("00000000-0000-4000-8000-000000000000"), 404);
    await problemOf(await getRender("not-a-uuid"), 404);
  });

  it("GET list – newest first, Viewer may read", async () => {
    const response = await listRoute(apiRequest("GET", `${rendersUrl()}?limit=2`, { token: viewer }), routeParams({ projectId, templateId: template.id }));
    const { items } = await okJson<{ items: RenderJson[] }>(response);
    expect(items).toHaveLength(2);
    expect(items[0]!.createdAt >= items[1]!.createdAt).toBe(true);
    const bad = await listRoute(apiRequest("GET", `${rendersUrl()}?limit=0`, { token: viewer }), routeParams({ projectId, templateId: template.id }));
    expect(errorPaths(await problemOf(bad, 422))).toEqual(["limit"]);
  });
});

describe("GET /api/renders/{id}/download", () => {
  it("404 for a forged, expired or missing signature, and for a render that is not done", async () => {
    const created = await okJson<{ id: string }>(await create({ data: {}, format: "png" }), 202);
    const render = await waitForFinish(created.id);
    const url = new URL(render.downloadUrl!);
    const forged = new URL(url);
    forged.searchParams.set("signature", "A".repeat(43));
    await problemOf(await download(forged.toString()), 404);
    const extended = new URL(url);
    extended.searchParams.set("expires", String(Number(url.searchParams.get("expires")) + 1));
    await problemOf(await download(extended.toString()), 404);
    const expired = new URL(url);
    expired.searchParams.set("expires", String(Math.floor(Date.now() / 1000) - 10));
    await problemOf(await download(expired.toString()), 404);
    await problemOf(await download(`${url.origin}${url.pathname}`), 404);
    const otherRender = await okJson<{ id: string }>(await create({ data: {}, format: "png" }), 202);
    await problemOf(await download(url.toString().replace(render.id, otherRender.id)), 404);
  });
});

describe("ffmpeg missing", () => {
  it("the render fails at once (no retry) with a message naming FFMPEG_PATH; render.failed is queued; the process carries on", async () => {
    const config = getConfig();
    const ffmpegPath = config.ffmpegPath;
    config.ffmpegPath = "/nonexistent/ffmpeg";
    try {
      const created = await okJson<{ id: string }>(await create({ data: {}, format: "mp4", webhookUrl: "https://93.184.216.34/no-ffmpeg" }), 202);
      const render = await waitForFinish(created.id);
      expect(render).toMatchObject({ status: "failed", attempts: 1, error: expect.stringContaining("FFMPEG_PATH") });
      expect(render.downloadUrl).toBeUndefined();
      const db = await getDb();
      const [delivery] = await db.select().from(schema.webhookDeliveries).where(eq(schema.webhookDeliveries.url, "https://93.184.216.34/no-ffmpeg"));
      expect(delivery).toMatchObject({ eventType: "render.failed" });
      expect((delivery!.payload as { data: unknown }).data).toMatchObject({ renderId: created.id, status: "failed", error: expect.stringContaining("ffmpeg") });
    } finally {
      config.ffmpegPath = ffmpegPath;
    }
    const after = await okJson<{ id: string }>(await create({ data: {}, format: "png" }), 202);
    expect((await waitForFinish(after.id)).status).toBe("done");
  });
});

describe("the queue", () => {
  it("takes up a render its worker died during (left rendering, one attempt counted) and finishes it", async () => {
    const db = await getDb();
    const [row] = await db
      .insert(schema.renders)
      .values({ projectId, templateId: template.id, format: "png", status: "rendering", attempts: 1, startedAt: new Date() })
      .returning();
    // Its lease has run out (next_attempt_at defaults to now): this process's worker claims it as
    // another process's would (the worker-death test in lib/renders/queue.test.ts kills one for real).
    await getRenderQueue().enqueue([row!.id]);
    expect(await waitForFinish(row!.id)).toMatchObject({ status: "done", attempts: 2 });
  });

  it(`fails a render after ${maxRenderAttempts} interrupted attempts, with render.failed`, async () => {
    const db = await getDb();
    const [row] = await db
      .insert(schema.renders)
      .values({ projectId, templateId: template.id, format: "png", status: "rendering", attempts: maxRenderAttempts, webhookUrl: "http://127.0.0.1:9/failed" })
      .returning();
    await getRenderQueue().enqueue([row!.id]);
    const render = await waitForFinish(row!.id);
    expect(render).toMatchObject({ status: "failed", attempts: maxRenderAttempts, error: expect.stringContaining("interrupted") });
    const [delivery] = await db.select().from(schema.webhookDeliveries).where(eq(schema.webhookDeliveries.url, "http://127.0.0.1:9/failed"));
    expect(delivery).toMatchObject({ eventType: "render.failed" });
  });
});
