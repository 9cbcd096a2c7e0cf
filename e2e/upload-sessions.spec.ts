import { randomUUID } from "node:crypto";
import { existsSync } from "node:fs";
import path from "node:path";
import { expect, test, type APIRequestContext } from "@playwright/test";
import { makeLottie, textLayer } from "../testing/fixtures/lottie-builders";
import { startS3Server, type S3Server } from "../testing/s3-server";
import { fixture } from "./embed-helpers";
import { startOwnInstance, type OwnInstance } from "./own-instance";
import { env } from "./owned-project";

// Upload sessions (docs/direct-uploads.md) on the built server: the suite's app stages parts
// with its own part route (local storage); an instance of this spec's own sends them to
// presigned S3 URLs on s3rver. Each file is read back once at completion and validated as an
// upload is; the API answers every mistake with a 4xx and keeps nothing half-written.

type Declared = { role: string; name: string; type: string; bytes: Buffer };
type PartLink = { partNumber: number; size: number; url: string };
type SessionFile = { index: number; role: string; name: string; size: number; parts: PartLink[]; uploadedParts: { partNumber: number; size: number }[] };
type Session = { id: string; status: string; provider: string; partSize: number; templateId: string | null; files: SessionFile[]; problem: { errors?: { path: string; message: string }[] } | null };
type Api = { request: APIRequestContext; base: string; headers: Record<string, string> };

const weatherCard = (): Declared[] => [
  { role: "templateJson", name: "data.json", type: "application/json", bytes: fixture("lottie/weather-card/data.json") },
  { role: "manifestJson", name: "manifest.json", type: "application/json", bytes: fixture("lottie/weather-card/manifest.json") },
  // The images its animation shows: a completion without them is refused (upload-assets.test.ts).
  { role: "assetFiles", name: "img_0.jpg", type: "image/jpeg", bytes: fixture("lottie/weather-card/images/img_0.jpg") },
  { role: "assetFiles", name: "img_1.jpg", type: "image/jpeg", bytes: fixture("lottie/weather-card/images/img_1.jpg") },
];

/** A Raster template whose MP4 is padded past two 8 MiB parts (its first bytes are still an MP4's). */
function rasterTemplate(videoBytes = 20 * 1024 * 1024): Declared[] {
  const mp4 = fixture("video/background-640x360-6s.mp4");
  const overlay = makeLottie({ w: 640, h: 360, fr: 30, op: 90, layers: [textLayer("{{City}}", "Nowhere", { op: 90, size: 48, y: 180 })] });
  return [
    { role: "videoFile", name: "background.mp4", type: "video/mp4", bytes: Buffer.concat([mp4, Buffer.alloc(Math.max(0, videoBytes - mp4.length))]) },
    { role: "templateJson", name: "overlay.json", type: "application/json", bytes: Buffer.from(JSON.stringify(overlay)) },
    { role: "overlayJson", name: "overlay-config.json", type: "application/json", bytes: Buffer.from(JSON.stringify({ version: 1, fit: "contain", offsetSeconds: 0 })) },
    { role: "posterFile", name: "poster.png", type: "image/png", bytes: fixture("video/poster-640x360.png") },
  ];
}

async function createSession(api: Api, fields: Record<string, string>, files: Declared[], headers: Record<string, string> = {}) {
  const response = await api.request.post(`${api.base}/uploads`, {
    headers: { ...api.headers, ...headers },
    data: { fields, files: files.map(({ role, name, type, bytes }) => ({ role, name, type, size: bytes.length })) },
  });
  return { status: response.status(), headers: response.headers(), body: (await response.json()) as Session & { errors?: { path: string; message: string }[]; detail?: string } };
}

/** PUTs one part where the session says; answers its status and ETag. */
async function sendPart(request: APIRequestContext, link: PartLink, file: Declared) {
  const start = (link.partNumber - 1) * 8 * 1024 * 1024;
  const response = await request.put(link.url, { data: file.bytes.subarray(start, start + link.size), headers: { "content-type": "application/octet-stream" } });
  return { status: response.status(), etag: response.headers().etag ?? "", body: await response.text() };
}

/** Sends every part of every file (skipping `skip`), answering the completion body. */
async function sendAll(request: APIRequestContext, session: Session, files: Declared[], skip: { index: number; partNumber: number }[] = []) {
  const completion: { index: number; parts: { partNumber: number; etag: string }[] }[] = [];
  for (const file of session.files) {
    const parts: { partNumber: number; etag: string }[] = [];
    for (const link of file.parts) {
      if (skip.some((s) => s.index === file.index && s.partNumber === link.partNumber)) continue;
      const sent = await sendPart(request, link, files[file.index]!);
      expect(sent.status, sent.body).toBe(200);
      expect(sent.etag).toMatch(/^"[0-9a-f]{32}"$/);
      parts.push({ partNumber: link.partNumber, etag: sent.etag });
    }
    completion.push({ index: file.index, parts });
  }
  return { files: completion };
}

async function complete(api: Api, sessionId: string, body: unknown) {
  const response = await api.request.post(`${api.base}/uploads/${sessionId}/complete`, { headers: api.headers, data: body });
  return { status: response.status(), headers: response.headers(), body: (await response.json()) as Record<string, unknown> & { errors?: { path: string; message: string }[] } };
}

const getSession = async (api: Api, id: string) => (await (await api.request.get(`${api.base}/uploads/${id}`, { headers: api.headers })).json()) as Session;

test.describe("upload sessions on the suite's app (local storage: the app's own part route)", () => {
  const api = (request: APIRequestContext): Api => ({
    request,
    base: `/api/Projects/${env("E2E_PROJECT_ID")}/templates`,
    headers: { authorization: `Bearer ${env("E2E_API_TOKEN")}` },
  });

  test("the weather card: declare, send the parts (one twice), complete → the template; completing again replays it; the staged parts are gone", async ({ request }) => {
    const files = weatherCard();
    const created = await createSession(api(request), { name: "Weather card (session)", version: "1.1", kind: "LottieStandalone" }, files);
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const session = created.body;
    expect(session).toMatchObject({ status: "open", provider: "local" });
    expect(session.files.map((file) => [file.role, file.size, file.parts.length])).toEqual(files.map((file) => [file.role, file.bytes.length, 1]));

    const body = await sendAll(request, session, files);
    const again = await sendPart(request, session.files[0]!.parts[0]!, files[0]!);
    expect(again.status).toBe(200);
    expect((await getSession(api(request), session.id)).files.map((file) => file.uploadedParts)).toEqual(files.map((file) => [{ partNumber: 1, size: file.bytes.length }]));

    const done = await complete(api(request), session.id, body);
    expect(done.status, JSON.stringify(done.body)).toBe(201);
    expect(done.body).toMatchObject({ name: "Weather card (session)", version: "1.1", kind: "LottieStandalone", status: "Testing", width: 720, height: 1280 });
    const replay = await complete(api(request), session.id, {});
    expect(replay.status).toBe(201);
    expect(replay.headers["idempotent-replayed"]).toBe("true");
    expect(replay.body.id).toBe(done.body.id);
    expect(await getSession(api(request), session.id)).toMatchObject({ status: "completed", templateId: done.body.id, files: files.map(() => ({ parts: [] })) });
    expect(existsSync(path.join(env("E2E_DATA_DIR"), "uploads", session.id))).toBe(false);

    const preview = await request.post(`${api(request).base}/${done.body.id as string}/preview`, { headers: api(request).headers, data: { data: { City: "Lisbon" } } });
    expect(preview.status(), await preview.text()).toBe(200);
  });

  test("declarations the upload would refuse – 422 naming the file, 413 over 250 MB, 415 not JSON; nothing is created", async ({ request }) => {
    const a = api(request);
    const raster = await createSession(a, { name: "No video", kind: "Raster" }, weatherCard());
    expect(raster.status).toBe(422);
    expect(raster.body.errors).toContainEqual({ path: "videoFile", message: "is required for a Raster template" });
    const empty = await createSession(a, { name: "Empty", kind: "LottieStandalone" }, [{ ...weatherCard()[0]!, bytes: Buffer.alloc(0) }]);
    expect(empty.status).toBe(422);
    expect(empty.body.errors?.[0]?.path).toBe("files.0.size");
    const huge = await request.post(`${a.base}/uploads`, {
      headers: a.headers,
      data: { fields: { name: "Huge", kind: "Raster" }, files: [{ role: "videoFile", name: "a.mp4", size: 200 * 1024 * 1024 }, { role: "posterFile", name: "p.png", size: 60 * 1024 * 1024 }] },
    });
    expect(huge.status()).toBe(413);
    const notJson = await request.post(`${a.base}/uploads`, { headers: { ...a.headers, "content-type": "text/plain" }, data: "files" });
    expect(notJson.status()).toBe(415);
    const viewerless = await request.post(`${a.base}/uploads`, { data: { fields: {}, files: [] } });
    expect(viewerless.status()).toBe(401);
  });

  test("a missing part – 422 naming it, the session stays open; sent, the completion succeeds. A forged part URL – 403; a part of the wrong size – 400, nothing kept", async ({ request }) => {
    const a = api(request);
    const files = weatherCard();
    const session = (await createSession(a, { name: "Missing part", kind: "LottieStandalone" }, files)).body;
    const body = await sendAll(request, session, files, [{ index: 1, partNumber: 1 }]);

    const link = session.files[1]!.parts[0]!;
    const forged = await request.put(link.url.replace(/signature=[^&]+/, "signature=AAAA"), { data: files[1]!.bytes });
    expect(forged.status()).toBe(403);
    const short = await request.put(link.url, { data: files[1]!.bytes.subarray(1) });
    expect(short.status()).toBe(400);
    expect(((await short.json()) as { detail: string }).detail).toContain(`must be ${files[1]!.bytes.length} bytes`);
    expect((await getSession(a, session.id)).files[1]!.uploadedParts).toEqual([]);

    const early = await complete(a, session.id, body);
    expect(early.status).toBe(422);
    expect(early.body.errors).toEqual([{ path: "files.1", message: "manifest.json was not sent whole: part 1 of 1 missing" }]);
    expect((await getSession(a, session.id)).status).toBe("open");

    expect((await sendPart(request, link, files[1]!)).status).toBe(200);
    expect((await complete(a, session.id, body)).status).toBe(201);
  });

  test("files the upload's rules refuse – 422 as the upload's, the session fails and its parts are removed; cancelling another – 204, its parts refused after", async ({ request }) => {
    const a = api(request);
    const broken: Declared[] = [{ role: "templateJson", name: "broken.json", type: "application/json", bytes: Buffer.from('{"v": "5.7.0", "layers": ') }];
    const session = (await createSession(a, { name: "Broken", kind: "LottieStandalone" }, broken)).body;
    const refused = await complete(a, session.id, await sendAll(request, session, broken));
    expect(refused.status).toBe(422);
    expect(refused.body.errors?.[0]?.path).toBe("templateJson");
    expect(await getSession(a, session.id)).toMatchObject({ status: "failed", problem: { errors: refused.body.errors } });
    expect(existsSync(path.join(env("E2E_DATA_DIR"), "uploads", session.id))).toBe(false);
    expect((await complete(a, session.id, {})).status).toBe(409);

    const files = weatherCard();
    const other = (await createSession(a, { name: "Cancelled", kind: "LottieStandalone" }, files)).body;
    expect((await sendPart(request, other.files[0]!.parts[0]!, files[0]!)).status).toBe(200);
    expect((await request.delete(`${a.base}/uploads/${other.id}`, { headers: a.headers })).status()).toBe(204);
    expect((await request.delete(`${a.base}/uploads/${other.id}`, { headers: a.headers })).status()).toBe(204);
    expect((await getSession(a, other.id)).status).toBe("cancelled");
    expect((await sendPart(request, other.files[1]!.parts[0]!, files[1]!)).status).toBe(409);
    expect(existsSync(path.join(env("E2E_DATA_DIR"), "uploads", other.id))).toBe(false);
  });

  test("an Idempotency-Key – the same declaration answers the same session; different content under it – 422", async ({ request }) => {
    const a = api(request);
    const key = `session-${randomUUID()}`;
    const first = await createSession(a, { name: "Keyed", kind: "LottieStandalone" }, weatherCard(), { "idempotency-key": key });
    const second = await createSession(a, { name: "Keyed", kind: "LottieStandalone" }, weatherCard(), { "idempotency-key": key });
    expect([first.status, second.status]).toEqual([201, 201]);
    expect(second.headers["idempotent-replayed"]).toBe("true");
    expect(second.body.id).toBe(first.body.id);
    const different = await createSession(a, { name: "Keyed differently", kind: "LottieStandalone" }, weatherCard(), { "idempotency-key": key });
    expect(different.status).toBe(422);
  });
});

test.describe("upload sessions with STORAGE_DRIVER=s3: parts go to presigned S3 URLs", () => {
  test.describe.configure({ mode: "serial" });
  let s3: S3Server;
  let instance: OwnInstance;
  let expiring: OwnInstance;

  test.beforeAll(async () => {
    test.setTimeout(300_000);
    s3 = await startS3Server();
    instance = await startOwnInstance("uploads-s3", { ...s3.env, UPLOAD_MODE: "direct" });
    expiring = await startOwnInstance("uploads-s3-ttl", { ...s3.env, UPLOAD_SESSION_TTL: "2s" });
  });
  test.afterAll(async () => {
    test.setTimeout(120_000);
    await instance?.stop();
    await expiring?.stop();
    await s3?.close();
  });

  const api = (request: APIRequestContext, app = instance.app): Api => ({
    request,
    base: `${app.baseUrl}/api/Projects/${app.projectId}/templates`,
    headers: { authorization: `Bearer ${app.token}` },
  });

  test("a Raster template (a 20 MB video in 3 parts, overlay, poster): straight to the bucket, assembled, validated, stored by content; no multipart upload left", async ({ request }) => {
    const files = rasterTemplate();
    const a = api(request);
    const session = (await createSession(a, { name: "Raster via S3", kind: "Raster" }, files)).body;
    expect(session.provider).toBe("s3");
    expect(session.files[0]!.parts.map((part) => part.size)).toEqual([8 * 1024 * 1024, 8 * 1024 * 1024, 4 * 1024 * 1024]);
    expect(new URL(session.files[0]!.parts[0]!.url).origin).toBe(s3.endpoint);
    expect(await s3.pendingMultipartUploads()).toHaveLength(4);

    const body = await sendAll(request, session, files);
    const done = await complete(a, session.id, body);
    expect(done.status, JSON.stringify(done.body)).toBe(201);
    expect(done.body).toMatchObject({ kind: "Raster", status: "Testing", files: { videoFile: { size: files[0]!.bytes.length, contentType: "video/mp4" } } });
    expect(await s3.pendingMultipartUploads()).toEqual([]);

    const file = (done.body.files as { videoFile: { sha256: string } }).videoFile;
    const stored = await request.get(`${s3.endpoint}/${s3.bucket}/sha256/${file.sha256}`);
    expect(stored.status()).toBe(200);
    expect((await stored.body()).equals(files[0]!.bytes)).toBe(true);
    const staging = await request.get(`${s3.endpoint}/${s3.bucket}?list-type=2&prefix=uploads/`);
    expect(await staging.text()).not.toContain("<Key>uploads/");
  });

  test("a completion without one file’s ETags – 422 naming it, nothing assembled, the session stays open; with all of them the weather card completes", async ({ request }) => {
    const files = weatherCard();
    const a = api(request);
    const session = (await createSession(a, { name: "Weather card via S3", kind: "LottieStandalone" }, files)).body;
    const body = await sendAll(request, session, files);
    const missing = await complete(a, session.id, { files: [body.files[0]] });
    expect(missing.status).toBe(422);
    expect(missing.body.errors?.[0]?.path).toBe("files.1");
    expect((await getSession(a, session.id)).status).toBe("open");
    const done = await complete(a, session.id, body);
    expect(done.status, JSON.stringify(done.body)).toBe(201);
    expect(done.body).toMatchObject({ width: 720, height: 1280 });
  });

  test("a session left open past UPLOAD_SESSION_TTL – swept: expired, its multipart uploads aborted; cancelling another aborts at once", async ({ request }) => {
    const files = rasterTemplate(9 * 1024 * 1024);
    const a = api(request, expiring.app);
    const before = (await s3.pendingMultipartUploads()).length;
    const session = (await createSession(a, { name: "Abandoned", kind: "Raster" }, files)).body;
    expect((await sendPart(request, session.files[0]!.parts[0]!, files[0]!)).status).toBe(200);
    await expect.poll(async () => (await getSession(a, session.id)).status).toBe("expired");
    await expect.poll(async () => (await s3.pendingMultipartUploads()).length).toBe(before);

    const b = api(request);
    const other = (await createSession(b, { name: "Cancelled via S3", kind: "Raster" }, files)).body;
    expect((await s3.pendingMultipartUploads()).length).toBe(before + files.length);
    expect((await request.delete(`${b.base}/uploads/${other.id}`, { headers: b.headers })).status()).toBe(204);
    expect((await s3.pendingMultipartUploads()).length).toBe(before);
  });
});
