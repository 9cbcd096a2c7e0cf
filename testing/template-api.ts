import { randomBytes, randomUUID } from "node:crypto";
import { existsSync, readdirSync } from "node:fs";
import path from "node:path";
import { and, count, eq, sql } from "drizzle-orm";
import { expect } from "vitest";
import type { z } from "zod";
import { getConfig } from "@/lib/config";
import { getDb } from "@/lib/db";
import { auditEvents, templateFiles, templates } from "@/lib/db/schema";
import { apiRequest, routeParams } from "@/testing/factories";
import { makeLottie, solidLayer, textLayer } from "@/testing/fixtures/lottie-builders";
import { uploadRequest, type UploadPart } from "@/testing/multipart";
import type { previewResultSchema, templateSchema } from "@/lib/templates/contract";
import { POST as archiveRoute } from "@/app/api/Projects/[projectId]/templates/[templateId]/archive/route";
import { POST as deployRoute } from "@/app/api/Projects/[projectId]/templates/[templateId]/deploy/route";
import { POST as previewRoute } from "@/app/api/Projects/[projectId]/templates/[templateId]/preview/route";
import { DELETE as deleteRoute, GET as getRoute } from "@/app/api/Projects/[projectId]/templates/[templateId]/route";
import { GET as listRoute } from "@/app/api/Projects/[projectId]/templates/route";
import { POST as uploadRoute } from "@/app/api/Projects/[projectId]/templates/upload/route";

// Calls and disk/database probes shared by the template API tests.

export type TemplateJson = z.infer<typeof templateSchema>;
export type PreviewJson = z.infer<typeof previewResultSchema>;
export type Problem = { type: string; title: string; status: number; detail: string; code: string; errors?: { path: string; message: string }[] };

export const templatesUrl = (projectId: string) => `/api/Projects/${projectId}/templates`;

// ── calls ──────────────────────────────────────────────────────────────────────────────

export const upload = (token: string | undefined, projectId: string, parts: UploadPart[], headers: Record<string, string> = {}) =>
  uploadRoute(uploadRequest(`${templatesUrl(projectId)}/upload`, parts, { token, headers }), routeParams({ projectId }));

/** An upload with a body the test builds itself: raw bytes or a stream (sent chunked, no Content-Length). */
export function uploadRaw(
  token: string | undefined,
  projectId: string,
  body: Uint8Array | ReadableStream<Uint8Array>,
  contentType: string,
  headers: Record<string, string> = {},
) {
  const all = new Headers(headers);
  if (token) all.set("authorization", `Bearer ${token}`);
  all.set("content-type", contentType);
  const init: RequestInit & { duplex?: "half" } = { method: "POST", headers: all, body: body instanceof ReadableStream ? body : new Uint8Array(body) };
  if (body instanceof ReadableStream) init.duplex = "half";
  const req = new Request(new URL(`${templatesUrl(projectId)}/upload`, "http://localhost:3000"), init);
  return uploadRoute(req, routeParams({ projectId }));
}

export const list = (token: string | undefined, projectId: string, query = "") =>
  listRoute(apiRequest("GET", `${templatesUrl(projectId)}${query}`, { token }), routeParams({ projectId }));

const onTemplate =
  (route: (req: Request, context: { params: Promise<Record<string, string>> }) => Promise<Response>, method: string, suffix = "") =>
  (token: string | undefined, projectId: string, templateId: string, body?: unknown) =>
    route(apiRequest(method, `${templatesUrl(projectId)}/${templateId}${suffix}`, { token, body }), routeParams({ projectId, templateId }));

export const getOne = onTemplate(getRoute, "GET");
export const remove = onTemplate(deleteRoute, "DELETE");
export const deploy = onTemplate(deployRoute, "POST", "/deploy");
export const archive = onTemplate(archiveRoute, "POST", "/archive");
export const preview = onTemplate(previewRoute, "POST", "/preview");

export async function okJson<T>(response: Response, status = 200): Promise<T> {
  const body = await response.text();
  expect(response.status, body).toBe(status);
  expect(response.headers.get("content-type")).toBe("application/json");
  return JSON.parse(body) as T;
}

export async function problemOf(response: Response, status: number): Promise<Problem> {
  const body = await response.text();
  expect(response.status, body).toBe(status);
  expect(response.headers.get("content-type")).toBe("application/problem+json");
  const problem = JSON.parse(body) as Problem;
  expect(problem.status).toBe(status);
  return problem;
}

export const errorPaths = (problem: Problem) => (problem.errors ?? []).map((error) => error.path);

// ── content ────────────────────────────────────────────────────────────────────────────

/** 128 random bits spelled in JSON whitespace: appended to a JSON text it stays the same JSON. */
function whitespaceSalt(): string {
  return [...randomBytes(16)].flatMap((byte) => [0, 2, 4, 6].map((shift) => " \t\n\r"[(byte >> shift) & 3])).join("");
}

const jsonFileFields = new Set(["templateJson", "manifestJson", "overlayJson"]);

/**
 * Gives every file part content no other upload has: JSON parts get trailing whitespace, other
 * files 16 random bytes after their end (magic bytes untouched). Blobs are content-addressed and
 * shared across projects, so on a shared PostgreSQL another test's template may reference a
 * fixture's blob; unique content keeps "was this blob removed?" a question about this test only.
 */
export function uniqueParts(parts: UploadPart[]): UploadPart[] {
  return parts.map((part) => {
    if ("value" in part) return part;
    const content = typeof part.content === "string" ? Buffer.from(part.content) : Buffer.from(part.content);
    const salted = jsonFileFields.has(part.name)
      ? Buffer.concat([content, Buffer.from(whitespaceSalt())])
      : Buffer.concat([content, randomBytes(16)]);
    return { ...part, content: salted };
  });
}

/** A small, unique LottieStandalone template: a solid and a `{{title}}` text layer. */
export function smallTemplateParts(name = "Small template", extra: UploadPart[] = []): UploadPart[] {
  const lottie = makeLottie({
    nm: `small-${randomUUID()}`,
    w: 320,
    h: 180,
    layers: [textLayer("{{title}}", "Hello"), solidLayer("Background", "#2255aa", 320, 180)],
  });
  return [
    { name: "name", value: name },
    { name: "kind", value: "LottieStandalone" },
    { name: "templateJson", filename: "animation.json", content: JSON.stringify(lottie), contentType: "application/json" },
    ...extra,
  ];
}

/** Uploads a small template and returns it as GET answers it (201 expected; the upload's warnings, none here, left out). */
export async function uploadSmall(token: string, projectId: string, name?: string): Promise<TemplateJson> {
  const { warnings, ...template } = await okJson<TemplateJson & { warnings: string[] }>(await upload(token, projectId, smallTemplateParts(name)), 201);
  expect(warnings).toEqual([]);
  return template;
}

/** Uploads `lottie` bound by `manifest` as a LottieStandalone template (201 expected) and returns its id. */
export async function uploadWithManifest(token: string, projectId: string, name: string, lottie: unknown, manifest: unknown): Promise<string> {
  const parts: UploadPart[] = [
    { name: "name", value: name },
    { name: "kind", value: "LottieStandalone" },
    { name: "templateJson", filename: "data.json", content: JSON.stringify(lottie), contentType: "application/json" },
    { name: "manifestJson", filename: "manifest.json", content: JSON.stringify(manifest), contentType: "application/json" },
  ];
  return (await okJson<{ id: string }>(await upload(token, projectId, parts), 201)).id;
}

/** A body streamed in chunks the test controls: `pull` is only called when the reader asks. */
export function lazyStream(next: () => Promise<Uint8Array | null> | Uint8Array | null): ReadableStream<Uint8Array> {
  return new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        const chunk = await next();
        if (chunk === null) controller.close();
        else controller.enqueue(chunk);
      },
    },
    { highWaterMark: 0 },
  );
}

/**
 * Collects uncaught exceptions while `run` executes (vitest reports them too, but not against
 * the test that caused them): an error no one listens for must not escape a request.
 */
export async function uncaughtDuring<T>(run: () => Promise<T>): Promise<{ result: T; uncaught: string[] }> {
  const uncaught: string[] = [];
  const record = (error: unknown) => uncaught.push(String((error as Error)?.message ?? error));
  process.on("uncaughtException", record);
  process.on("unhandledRejection", record);
  try {
    const result = await run();
    await new Promise((resolve) => setTimeout(resolve, 20));
    return { result, uncaught };
  } finally {
    process.off("uncaughtException", record);
    process.off("unhandledRejection", record);
  }
}

// ── what is on disk and in the database ────────────────────────────────────────────────

export const blobsDir = () => path.join(getConfig().dataDir, "blobs");

function walk(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    return entry.isDirectory() ? walk(full) : [full];
  });
}

/** Blob files, as paths relative to DATA_DIR/blobs (`sha256/ab/<hex>`). */
export const blobFiles = () => walk(path.join(blobsDir(), "sha256")).map((file) => path.relative(blobsDir(), file));
export const tempFiles = () => walk(path.join(blobsDir(), "tmp"));
export const blobPathOf = (sha256: string) => path.join(blobsDir(), "sha256", sha256.slice(0, 2), sha256);
/** Every file under DATA_DIR, whatever the folder. */
export const dataDirFiles = () => walk(getConfig().dataDir);

export async function templateRowCounts(projectId: string) {
  const db = await getDb();
  const [templateCount] = await db.select({ n: count() }).from(templates).where(eq(templates.projectId, projectId));
  const [fileCount] = await db
    .select({ n: count() })
    .from(templateFiles)
    .innerJoin(templates, eq(templates.id, templateFiles.templateId))
    .where(eq(templates.projectId, projectId));
  return { templates: templateCount!.n, files: fileCount!.n };
}

export type Snapshot = { rows: { templates: number; files: number }; blobs: string[] };

export async function snapshot(projectId: string): Promise<Snapshot> {
  return { rows: await templateRowCounts(projectId), blobs: blobFiles() };
}

/** After a failed upload: no template or file rows, no temp files and no blob that was not there before. */
export async function expectNothingLeft(projectId: string, before: Snapshot) {
  expect(await templateRowCounts(projectId)).toEqual(before.rows);
  expect(tempFiles()).toEqual([]);
  expect(blobFiles().filter((file) => !before.blobs.includes(file))).toEqual([]);
}

export async function statusesOf(projectId: string): Promise<Map<string, string>> {
  const rows = await (await getDb())
    .select({ id: templates.id, status: templates.status })
    .from(templates)
    .where(eq(templates.projectId, projectId));
  return new Map(rows.map((row) => [row.id, row.status]));
}

export async function productionCount(projectId: string): Promise<number> {
  const db = await getDb();
  const result = await db.execute<{ n: number | string }>(
    sql`select count(*) as n from templates where project_id = ${projectId} and status = 'Production'`,
  );
  const rows = (Array.isArray(result) ? result : (result as unknown as { rows: { n: number | string }[] }).rows) as { n: number | string }[];
  return Number(rows[0]!.n);
}

/** The template's audit actions in the order they happened. */
export async function auditActionsFor(templateId: string): Promise<string[]> {
  const rows = await (await getDb())
    .select({ action: auditEvents.action })
    .from(auditEvents)
    .where(and(eq(auditEvents.targetType, "template"), eq(auditEvents.targetId, templateId)))
    .orderBy(auditEvents.seq);
  return rows.map((row) => row.action);
}
