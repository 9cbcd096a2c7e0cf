import { createHash, randomBytes } from "node:crypto";
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { eq } from "drizzle-orm";
import { beforeAll, beforeEach, describe, expect, it } from "vitest";
import { getDb } from "@/lib/db";
import { templateFiles, templates } from "@/lib/db/schema";
import { createTestMember, createTestProject } from "@/testing/factories";
import { solidPng } from "@/testing/fixtures/lottie-builders";
import { fixture, multipartBody, weatherCardParts, type UploadPart } from "@/testing/multipart";
import { maxUploadBytes, uploadedTemplateSchema } from "@/lib/templates/contract";
import {
  auditActionsFor,
  blobFiles,
  blobPathOf,
  blobsDir,
  dataDirFiles,
  errorPaths,
  expectNothingLeft,
  getOne,
  lazyStream,
  okJson,
  problemOf,
  smallTemplateParts,
  snapshot,
  uncaughtDuring,
  uniqueParts,
  upload,
  uploadRaw,
  type Snapshot,
  type TemplateJson,
} from "@/testing/template-api";

let projectId: string;
let manager: { user: { id: string }; token: string };

beforeAll(async () => {
  const { project } = await createTestProject("Uploads");
  projectId = project.id;
  manager = await createTestMember("ProjectManager", { projectId });
});

const sha256 = (bytes: Uint8Array | string) => createHash("sha256").update(bytes).digest("hex");
const bytesOf = (part: UploadPart | undefined) => {
  if (!part || "value" in part) throw new Error("not a file part");
  return Buffer.from(part.content);
};
const file = (name: string, filename: string, content: Uint8Array | string, contentType?: string): UploadPart => ({ name, filename, content, contentType });
const json = (name: string, value: unknown, filename = `${name}.json`) =>
  file(name, filename, typeof value === "string" ? value : JSON.stringify(value), "application/json");

const mp4 = () => fixture("video/background-640x360-6s.mp4");
const poster = () => fixture("video/poster-640x360.png");
const png = () => solidPng([200, 40, 40, 255]);

/** A valid Raster upload: the MP4 fixture, its poster and an overlay config. */
function rasterParts(extra: UploadPart[] = []): UploadPart[] {
  return [
    { name: "name", value: "Raster card" },
    { name: "kind", value: "Raster" },
    file("videoFile", "background.mp4", mp4(), "video/mp4"),
    file("posterFile", "poster.png", poster(), "image/png"),
    json("overlayJson", { version: 1 }),
    ...extra,
  ];
}

/** The weather card with another manifest. */
const weatherCardWithManifest = (manifest: unknown) => [
  ...weatherCardParts().filter((part) => part.name !== "manifestJson"),
  json("manifestJson", manifest, "manifest.json"),
];

const without = (parts: UploadPart[], ...names: string[]) => parts.filter((part) => !names.includes(part.name));
const withField = (parts: UploadPart[], name: string, value: string) => [...without(parts, name), { name, value }];

const jsonBomb = "[".repeat(100_000) + "]".repeat(100_000);
const weatherLottie = () => JSON.parse(fixture("lottie/weather-card/data.json").toString("utf8")) as Record<string, unknown>;

// ── success ────────────────────────────────────────────────────────────────────────────

describe("POST /api/Projects/:id/templates/upload – accepted uploads", () => {
  it("POST …/templates/upload – weather card with a manifest → 201 Testing template, files stored by SHA-256", async () => {
    const parts = uniqueParts(weatherCardParts());
    const { warnings, ...template } = await okJson<TemplateJson & { warnings: string[] }>(await upload(manager.token, projectId, parts), 201);

    expect(uploadedTemplateSchema.parse({ ...template, warnings })).toEqual({ ...template, warnings });
    expect(warnings).toEqual([]);
    expect(template).toMatchObject({
      projectId,
      name: "Weather card",
      version: "1.0",
      kind: "LottieStandalone",
      status: "Testing",
      width: 720,
      height: 1280,
      createdBy: manager.user.id,
      deployedAt: null,
      archivedAt: null,
      everProduction: false,
    });
    expect(template.createdAt).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    expect(template.fields.map((field) => [field.key, field.type])).toEqual([
      ["City", "text"],
      ["Status", "text"],
      ["Tempreture", "text"],
      ["avatar", "image"],
    ]);

    const sent = {
      templateJson: bytesOf(parts.find((p) => p.name === "templateJson")),
      manifestJson: bytesOf(parts.find((p) => p.name === "manifestJson")),
      img0: bytesOf(parts.find((p) => "filename" in p && p.filename === "img_0.jpg")),
      img1: bytesOf(parts.find((p) => "filename" in p && p.filename === "img_1.jpg")),
    };
    expect(template.files).toEqual({
      templateJson: { name: "data.json", size: sent.templateJson.length, sha256: sha256(sent.templateJson), contentType: "application/json" },
      manifestJson: { name: "manifest.json", size: sent.manifestJson.length, sha256: sha256(sent.manifestJson), contentType: "application/json" },
      assetFiles: [
        { name: "img_0.jpg", size: sent.img0.length, sha256: sha256(sent.img0), contentType: "image/jpeg" },
        { name: "img_1.jpg", size: sent.img1.length, sha256: sha256(sent.img1), contentType: "image/jpeg" },
      ],
    });
    for (const bytes of Object.values(sent)) expect(readFileSync(blobPathOf(sha256(bytes)))).toEqual(bytes);

    const rows = await (await getDb()).select().from(templateFiles).where(eq(templateFiles.templateId, template.id));
    expect(rows.map((row) => row.storageKey).sort()).toEqual(Object.values(sent).map((bytes) => `sha256/${sha256(bytes)}`).sort());
    expect(await auditActionsFor(template.id)).toEqual(["template.uploaded"]);
    expect(await okJson<TemplateJson>(await getOne(manager.token, projectId, template.id))).toEqual(template);
  });

  it.each([
    { name: "version omitted → default 1.0", version: undefined, stored: "1.0" },
    { name: "version 2.13", version: "2.13", stored: "2.13" },
    { name: "version 0.0", version: "0.0", stored: "0.0" },
  ])("POST …/templates/upload – $name", async ({ version, stored }) => {
    const parts = version === undefined ? smallTemplateParts() : [...smallTemplateParts(), { name: "version", value: version }];
    const template = await okJson<TemplateJson>(await upload(manager.token, projectId, parts), 201);
    expect(template.version).toBe(stored);
    const [row] = await (await getDb()).select().from(templates).where(eq(templates.id, template.id));
    expect(row?.version).toBe(stored);
  });

  it("POST …/templates/upload – valid Raster (MP4 fixture + poster + overlayJson {version: 1}) → 201", async () => {
    const parts = rasterParts();
    const template = await okJson<TemplateJson>(await upload(manager.token, projectId, parts), 201);
    expect(template).toMatchObject({ kind: "Raster", status: "Testing", name: "Raster card", fields: [] });
    expect(template.files.videoFile).toEqual({ name: "background.mp4", size: mp4().length, sha256: sha256(mp4()), contentType: "video/mp4" });
    expect(template.files.posterFile).toEqual({ name: "poster.png", size: poster().length, sha256: sha256(poster()), contentType: "image/png" });
    expect(template.files.overlayJson?.contentType).toBe("application/json");
    expect(template.files.templateJson).toBeUndefined();
    const [row] = await (await getDb()).select().from(templates).where(eq(templates.id, template.id));
    expect(row?.overlay).toEqual({ version: 1, fit: "contain", offsetSeconds: 0 });
    expect(existsSync(blobPathOf(sha256(mp4())))).toBe(true);
  });

  it("POST …/templates/upload – a font asset (TTF) is accepted as font/ttf", async () => {
    const ttf = readFileSync(path.join(process.cwd(), "node_modules/dejavu-fonts-ttf/ttf/DejaVuSans.ttf"));
    const parts = smallTemplateParts("With font", [file("assetFiles", "DejaVuSans.ttf", ttf, "font/ttf")]);
    const template = await okJson<TemplateJson>(await upload(manager.token, projectId, parts), 201);
    expect(template.files.assetFiles).toEqual([{ name: "DejaVuSans.ttf", size: ttf.length, sha256: sha256(ttf), contentType: "font/ttf" }]);
  });
});

// ── validation ─────────────────────────────────────────────────────────────────────────

describe("POST /api/Projects/:id/templates/upload – rules (422)", () => {
  let before: Snapshot;
  beforeEach(async () => {
    before = await snapshot(projectId);
  });

  it.each<{ name: string; parts: () => UploadPart[]; path: string; message?: RegExp }>([
    { name: "kind missing", parts: () => without(smallTemplateParts(), "kind"), path: "kind" },
    { name: "kind unknown", parts: () => withField(smallTemplateParts(), "kind", "Video"), path: "kind" },
    { name: "kind in the wrong case", parts: () => withField(smallTemplateParts(), "kind", "lottiestandalone"), path: "kind" },
    { name: "name missing", parts: () => without(smallTemplateParts(), "name"), path: "name" },
    { name: "name blank", parts: () => withField(smallTemplateParts(), "name", "   "), path: "name" },
    { name: 'version "1"', parts: () => withField(smallTemplateParts(), "version", "1"), path: "version" },
    { name: 'version "1.0.0"', parts: () => withField(smallTemplateParts(), "version", "1.0.0"), path: "version" },
    { name: 'version "a.b"', parts: () => withField(smallTemplateParts(), "version", "a.b"), path: "version" },
    { name: 'version "v1.0"', parts: () => withField(smallTemplateParts(), "version", "v1.0"), path: "version" },
    { name: "LottieStandalone without templateJson", parts: () => without(smallTemplateParts(), "templateJson"), path: "templateJson" },
    {
      name: "LottieStandalone with videoFile",
      parts: () => smallTemplateParts("x", [file("videoFile", "bg.mp4", mp4(), "video/mp4")]),
      path: "videoFile",
      message: /Raster/,
    },
    {
      name: "LottieStandalone with overlayJson",
      parts: () => smallTemplateParts("x", [json("overlayJson", { version: 1 })]),
      path: "overlayJson",
      message: /Raster/,
    },
    { name: "Raster without videoFile", parts: () => without(rasterParts(), "videoFile"), path: "videoFile" },
    {
      name: "videoFile that is a PNG renamed .mp4",
      parts: () => [...without(rasterParts(), "videoFile"), file("videoFile", "background.mp4", poster(), "video/mp4")],
      path: "videoFile",
      message: /MP4/,
    },
    {
      name: "videoFile that is text",
      parts: () => [...without(rasterParts(), "videoFile"), file("videoFile", "background.mp4", "just some text, honest", "video/mp4")],
      path: "videoFile",
    },
    {
      name: "posterFile that is an MP4",
      parts: () => [...without(rasterParts(), "posterFile"), file("posterFile", "poster.png", mp4(), "image/png")],
      path: "posterFile",
    },
    {
      name: "posterFile that is text",
      parts: () => [...without(rasterParts(), "posterFile"), file("posterFile", "poster.png", "<svg></svg>", "image/png")],
      path: "posterFile",
    },
    {
      name: "an asset that is a text file",
      parts: () => smallTemplateParts("x", [file("assetFiles", "notes.png", "not an image at all", "image/png")]),
      path: "assetFiles.0",
    },
    {
      name: "the second asset a PDF",
      parts: () =>
        smallTemplateParts("x", [file("assetFiles", "ok.png", png(), "image/png"), file("assetFiles", "doc.png", "%PDF-1.7\n%…", "image/png")]),
      path: "assetFiles.1",
    },
    {
      name: "an empty asset file",
      parts: () => smallTemplateParts("x", [file("assetFiles", "empty.png", "", "image/png")]),
      path: "assetFiles.0",
    },
    {
      name: "templateJson sent as a text field (no filename)",
      parts: () => [...without(smallTemplateParts(), "templateJson"), { name: "templateJson", value: JSON.stringify(weatherLottie()) }],
      path: "templateJson",
    },
    { name: "templateJson empty", parts: () => [...without(smallTemplateParts(), "templateJson"), json("templateJson", "")], path: "templateJson" },
    { name: "templateJson not JSON", parts: () => [...without(smallTemplateParts(), "templateJson"), json("templateJson", "{not json")], path: "templateJson" },
    { name: "templateJson a JSON array", parts: () => [...without(smallTemplateParts(), "templateJson"), json("templateJson", [1, 2])], path: "templateJson" },
    {
      name: "templateJson without w",
      parts: () => [...without(smallTemplateParts(), "templateJson"), json("templateJson", { ...weatherLottie(), w: undefined })],
      path: "templateJson.w",
    },
    {
      name: "templateJson with op = ip",
      parts: () => [...without(smallTemplateParts(), "templateJson"), json("templateJson", { ...weatherLottie(), ip: 10, op: 10 })],
      path: "templateJson.op",
    },
    {
      name: "templateJson with op < ip",
      parts: () => [...without(smallTemplateParts(), "templateJson"), json("templateJson", { ...weatherLottie(), ip: 10, op: 5 })],
      path: "templateJson.op",
    },
    {
      name: "templateJson without layers",
      parts: () => [...without(smallTemplateParts(), "templateJson"), json("templateJson", { ...weatherLottie(), layers: undefined })],
      path: "templateJson.layers",
    },
    {
      name: "templateJson a JSON bomb (nested 100,000 levels)",
      parts: () => [...without(smallTemplateParts(), "templateJson"), json("templateJson", jsonBomb)],
      path: "templateJson",
      message: /deeper/,
    },
    {
      name: "manifestJson a JSON bomb",
      parts: () => [...weatherCardParts().filter((p) => p.name !== "manifestJson"), json("manifestJson", jsonBomb)],
      path: "manifestJson",
    },
    { name: "manifestJson not JSON", parts: () => weatherCardWithManifest("{"), path: "manifestJson" },
    { name: "manifestJson version 2", parts: () => weatherCardWithManifest({ version: 2, fields: [] }), path: "manifestJson.version" },
    { name: "manifestJson without fields", parts: () => weatherCardWithManifest({ version: 1 }), path: "manifestJson.fields" },
    {
      name: "manifestJson with an unknown member",
      parts: () => weatherCardWithManifest({ version: 1, fields: [], extra: true }),
      path: "manifestJson.extra",
    },
    {
      name: "manifestJson field key starting with a digit",
      parts: () => weatherCardWithManifest({ version: 1, fields: [{ key: "1city", type: "text", target: { layer: "City" } }] }),
      path: "manifestJson.fields.0.key",
    },
    {
      name: "manifestJson targeting a missing layer",
      parts: () => weatherCardWithManifest({ version: 1, fields: [{ key: "city", type: "text", target: { layer: "Nowhere" } }] }),
      path: "manifestJson.fields.0.target.layer",
      message: /Nowhere/,
    },
    {
      name: "manifestJson targeting a missing asset",
      parts: () => weatherCardWithManifest({ version: 1, fields: [{ key: "photo", type: "image", target: { asset: "image_9" } }] }),
      path: "manifestJson.fields.0.target.asset",
      message: /image_9/,
    },
    {
      name: "manifestJson without templateJson (Raster)",
      parts: () => rasterParts([json("manifestJson", { version: 1, fields: [] })]),
      path: "manifestJson",
      message: /templateJson/,
    },
    { name: "overlayJson for Raster not JSON", parts: () => [...without(rasterParts(), "overlayJson"), json("overlayJson", "{")], path: "overlayJson" },
    {
      name: "overlayJson for Raster with version 2",
      parts: () => [...without(rasterParts(), "overlayJson"), json("overlayJson", { version: 2 })],
      path: "overlayJson.version",
    },
    {
      name: "overlayJson for Raster with an unknown fit",
      parts: () => [...without(rasterParts(), "overlayJson"), json("overlayJson", { version: 1, fit: "stretch" })],
      path: "overlayJson.fit",
    },
    {
      name: "overlayJson for Raster a JSON bomb",
      parts: () => [...without(rasterParts(), "overlayJson"), json("overlayJson", jsonBomb)],
      path: "overlayJson",
    },
    {
      name: "an unknown file field",
      parts: () => smallTemplateParts("x", [file("thumbnail", "thumb.png", png(), "image/png")]),
      path: "thumbnail",
    },
    { name: "an unknown text field (status)", parts: () => [...smallTemplateParts(), { name: "status", value: "Production" }], path: "status" },
    {
      name: "templateJson twice",
      parts: () => [...smallTemplateParts(), ...smallTemplateParts().filter((p) => p.name === "templateJson")],
      path: "templateJson",
    },
    {
      name: "videoFile twice",
      parts: () => [...rasterParts(), file("videoFile", "again.mp4", mp4(), "video/mp4")],
      path: "videoFile",
    },
    { name: "name twice", parts: () => [...smallTemplateParts(), { name: "name", value: "Other" }], path: "name" },
    {
      name: "two assets with the same name",
      parts: () => smallTemplateParts("x", [file("assetFiles", "logo.png", png(), "image/png"), file("assetFiles", "logo.png", solidPng([1, 2, 3, 255]), "image/png")]),
      path: "assetFiles.1",
    },
  ])("POST /api/Projects/:id/templates/upload – $name → 422 at $path, nothing left", async ({ parts, path, message }) => {
    const problem = await problemOf(await upload(manager.token, projectId, uniqueParts(parts())), 422);
    expect(problem.code).toBe("validation_failed");
    expect(errorPaths(problem)).toContain(path);
    if (message) expect(problem.errors?.find((error) => error.path === path)?.message).toMatch(message);
    await expectNothingLeft(projectId, before);
  });

  it("POST /api/Projects/:id/templates/upload – several problems → one 422 listing each path", async () => {
    const parts = [
      { name: "version", value: "1" },
      { name: "kind", value: "Raster" },
      file("posterFile", "poster.png", "text", "image/png"),
      file("assetFiles", "a.png", "text", "image/png"),
    ];
    const problem = await problemOf(await upload(manager.token, projectId, uniqueParts(parts)), 422);
    expect(errorPaths(problem)).toEqual(expect.arrayContaining(["name", "version", "videoFile", "posterFile", "assetFiles.0"]));
    await expectNothingLeft(projectId, before);
  });
});

// ── transport ──────────────────────────────────────────────────────────────────────────

const bigBoundary = "----reelbind-big-upload";
const bigHead = Buffer.from(
  `--${bigBoundary}\r\nContent-Disposition: form-data; name="name"\r\n\r\nBig\r\n` +
    `--${bigBoundary}\r\nContent-Disposition: form-data; name="assetFiles"; filename="big.png"\r\nContent-Type: image/png\r\n\r\n`,
);
const bigTail = Buffer.from(`\r\n--${bigBoundary}--\r\n`);
const pngSignature = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

/**
 * A well-formed multipart body of exactly `total` bytes (one PNG-looking asset, no kind), made
 * lazily in 1 MiB chunks of one reused zero buffer: the test itself holds no more than that.
 * Reports the largest RSS seen while the body is read, and how many bytes the reader took.
 */
function bigBody(total: number) {
  const chunk = new Uint8Array(1024 * 1024);
  const filler = total - bigHead.length - pngSignature.length - bigTail.length;
  let sent = 0;
  let fillerSent = 0;
  let stage = 0;
  const startRss = process.memoryUsage().rss;
  const stats = { bytesRead: 0, startRss, peakRss: startRss };
  const stream = lazyStream(() => {
    stats.peakRss = Math.max(stats.peakRss, process.memoryUsage().rss);
    let next: Uint8Array | null;
    if (stage === 0) {
      stage = 1;
      next = Buffer.concat([bigHead, pngSignature]);
    } else if (fillerSent < filler) {
      const size = Math.min(chunk.length, filler - fillerSent);
      fillerSent += size;
      next = size === chunk.length ? chunk : chunk.subarray(0, size);
    } else if (stage === 1) {
      stage = 2;
      next = bigTail;
    } else next = null;
    if (next) sent += next.byteLength;
    stats.bytesRead = sent;
    return next;
  });
  return { stream, stats, contentType: `multipart/form-data; boundary=${bigBoundary}` };
}

describe("POST /api/Projects/:id/templates/upload – transport", () => {
  let before: Snapshot;
  beforeEach(async () => {
    before = await snapshot(projectId);
  });

  it("POST …/templates/upload – a JSON body (not multipart) → 415", async () => {
    const body = Buffer.from(JSON.stringify({ name: "x", kind: "LottieStandalone" }));
    const problem = await problemOf(await uploadRaw(manager.token, projectId, body, "application/json"), 415);
    expect(problem.code).toBe("unsupported_media_type");
    await expectNothingLeft(projectId, before);
  });

  it("POST …/templates/upload – a urlencoded form → 415", async () => {
    await problemOf(await uploadRaw(manager.token, projectId, Buffer.from("name=x&kind=Raster"), "application/x-www-form-urlencoded"), 415);
    await expectNothingLeft(projectId, before);
  });

  it("POST …/templates/upload – multipart cut in the middle of a file → 400", async () => {
    const { body, contentType } = multipartBody(uniqueParts(weatherCardParts()));
    const cut = body.indexOf('filename="img_1.jpg"') + 20_000;
    expect(cut).toBeGreaterThan(20_000);
    const { result, uncaught } = await uncaughtDuring(() => uploadRaw(manager.token, projectId, body.subarray(0, cut), contentType));
    const problem = await problemOf(result, 400);
    expect(problem.code).toBe("bad_request");
    expect(uncaught, "errors that escaped the request as uncaught exceptions").toEqual([]);
    await expectNothingLeft(projectId, before);
  });

  it("POST …/templates/upload – multipart cut in the middle of an unknown file part (one that is skipped) → 400", async () => {
    const { body, contentType } = multipartBody(uniqueParts(smallTemplateParts("Skipped part", [file("unknownFile", "x.bin", randomBytes(64 * 1024))])));
    const cut = body.indexOf('filename="x.bin"') + 1_000;
    const { result, uncaught } = await uncaughtDuring(() => uploadRaw(manager.token, projectId, body.subarray(0, cut), contentType));
    const problem = await problemOf(result, 400);
    expect(problem.code).toBe("bad_request");
    expect(uncaught, "errors that escaped the request as uncaught exceptions").toEqual([]);
    await expectNothingLeft(projectId, before);
  });

  it("POST …/templates/upload – multipart cut after the last part, before the closing boundary → 400", async () => {
    const { body, contentType } = multipartBody(uniqueParts(smallTemplateParts()));
    const { result, uncaught } = await uncaughtDuring(() =>
      uploadRaw(manager.token, projectId, body.subarray(0, body.lastIndexOf("\r\n--")), contentType),
    );
    await problemOf(result, 400);
    expect(uncaught, "errors that escaped the request as uncaught exceptions").toEqual([]);
    await expectNothingLeft(projectId, before);
  });

  it.each([
    { name: "garbage bytes", contentType: "multipart/form-data; boundary=----reelbind-garbage", body: () => randomBytes(64 * 1024) },
    { name: "no boundary parameter", contentType: "multipart/form-data", body: () => multipartBody(smallTemplateParts()).body },
    { name: "an empty body", contentType: "multipart/form-data; boundary=----reelbind-empty", body: () => Buffer.alloc(0) },
  ])("POST …/templates/upload – $name with a multipart content type → 400", async ({ contentType, body }) => {
    await problemOf(await uploadRaw(manager.token, projectId, body(), contentType), 400);
    await expectNothingLeft(projectId, before);
  });

  it("POST …/templates/upload – Content-Length above 262,144,000 → 413 before the body is read", async () => {
    const { body, contentType } = multipartBody(uniqueParts(smallTemplateParts()));
    let pulls = 0;
    const stream = lazyStream(() => {
      pulls += 1;
      return pulls === 1 ? body : null;
    });
    const response = await uploadRaw(manager.token, projectId, stream, contentType, { "content-length": String(maxUploadBytes + 1) });
    const problem = await problemOf(response, 413);
    expect(problem.code).toBe("payload_too_large");
    expect(pulls).toBe(0);
    await expectNothingLeft(projectId, before);
  });

  it("POST …/templates/upload – a chunked body of 250 MB + 1 byte (no Content-Length) → 413, memory stays bounded", async () => {
    const { stream, stats, contentType } = bigBody(maxUploadBytes + 1);
    const problem = await problemOf(await uploadRaw(manager.token, projectId, stream, contentType), 413);
    expect(problem.code).toBe("payload_too_large");
    expect(stats.bytesRead).toBeGreaterThan(maxUploadBytes);
    // Buffering the body would need 250 MB more; streaming needs a few chunks.
    expect(stats.peakRss - stats.startRss).toBeLessThan(150 * 1024 * 1024);
    await expectNothingLeft(projectId, before);
  }, 180_000);

  it("POST …/templates/upload – a chunked body of exactly 262,144,000 bytes is read to the end (422 for the missing kind, not 413)", async () => {
    const { stream, stats, contentType } = bigBody(maxUploadBytes);
    const problem = await problemOf(await uploadRaw(manager.token, projectId, stream, contentType), 422);
    expect(errorPaths(problem)).toContain("kind");
    expect(stats.bytesRead).toBe(maxUploadBytes);
    await expectNothingLeft(projectId, before);
  }, 180_000);

  it.each([
    { name: "after 5 MB of a file", fileBytes: 5 * 1024 * 1024 },
    { name: "just after a file part begins", fileBytes: 0 },
  ])("POST …/templates/upload – the client disconnects $name → 400, nothing left", async ({ fileBytes }) => {
    const chunk = new Uint8Array(256 * 1024);
    let sent = -1;
    const stream = new ReadableStream<Uint8Array>(
      {
        pull(controller) {
          if (sent < 0) {
            controller.enqueue(Buffer.concat([bigHead, pngSignature]));
            sent = 0;
          } else if (sent < fileBytes) {
            controller.enqueue(chunk);
            sent += chunk.length;
          } else controller.error(new Error("socket hang up"));
        },
      },
      { highWaterMark: 0 },
    );
    const { result, uncaught } = await uncaughtDuring(() => uploadRaw(manager.token, projectId, stream, `multipart/form-data; boundary=${bigBoundary}`));
    const problem = await problemOf(result, 400);
    expect(problem.code).toBe("bad_request");
    expect(uncaught, "errors that escaped the request as uncaught exceptions").toEqual([]);
    await expectNothingLeft(projectId, before);
  });
});

// ── file names ─────────────────────────────────────────────────────────────────────────

describe("POST /api/Projects/:id/templates/upload – asset file names", () => {
  it("POST …/templates/upload – traversal and hidden names are stored as safe basenames, files only under DATA_DIR/blobs", async () => {
    const before = blobFiles();
    const names = ["../../etc/passwd.png", "..\\..\\evil.png", ".hidden.png", "a/b/c.png"];
    const assets = names.map((filename, i) => file("assetFiles", filename, solidPng([i * 40, 10, 10, 255]), "image/png"));
    const template = await okJson<TemplateJson>(await upload(manager.token, projectId, uniqueParts(smallTemplateParts("Names", assets))), 201);

    const stored = template.files.assetFiles.map((asset) => asset.name);
    expect(stored).toHaveLength(names.length);
    for (const name of stored) {
      expect(name).not.toMatch(/[\\/]/);
      expect(name).not.toMatch(/^\./);
      expect(name).toMatch(/\.png$/);
    }
    expect([...stored].sort()).toEqual(["c.png", "evil.png", "hidden.png", "passwd.png"]);

    const rows = await (await getDb()).select().from(templateFiles).where(eq(templateFiles.templateId, template.id));
    for (const row of rows) expect(row.storageKey).toMatch(/^sha256\/[0-9a-f]{64}$/);

    // The new files on disk are exactly the uploaded contents, by hash, under blobs/sha256.
    const added = blobFiles().filter((f) => !before.includes(f));
    const expected = [template.files.templateJson!, ...template.files.assetFiles].map((f) => path.join("sha256", f.sha256.slice(0, 2), f.sha256));
    expect(added.sort()).toEqual(expected.sort());
    const strays = dataDirFiles().filter((f) => /(passwd|evil|hidden|c)\.png$/.test(path.basename(f)));
    expect(strays).toEqual([]);
    for (const name of names) expect(existsSync(path.resolve(blobsDir(), name.replaceAll("\\", "/")))).toBe(false);
  });
});

// ── files in the wrong field (issue 32) ────────────────────────────────────────────────

describe("POST /api/Projects/:id/templates/upload – a file in the wrong field says what to do first, the parser's detail below", () => {
  const weatherManifest = () => JSON.parse(bytesOf(weatherCardParts().find((part) => part.name === "manifestJson")).toString("utf8")) as unknown;
  const named = (parts: UploadPart[]) => uniqueParts(parts.filter((part) => part.name !== "templateJson" && part.name !== "manifestJson"));

  it("a JSON file that is no animation as templateJson → 422 whose detail says to export one, then the technical errors", async () => {
    const parts = [...named(smallTemplateParts()), json("templateJson", { name: "my-site", dependencies: {} }, "package.json")];
    const problem = await problemOf(await upload(manager.token, projectId, parts), 422);
    expect(problem.detail).toBe(
      "package.json is not a Lottie animation: export it from After Effects with Bodymovin or from LottieFiles (a .json animation file), and give it as the Lottie file (templateJson).",
    );
    expect(problem.errors).toEqual([
      { path: "templateJson", message: "(package.json) is not a Lottie animation: export it from After Effects with Bodymovin or from LottieFiles" },
      { path: "templateJson.v", message: "is required: the Bodymovin version string" },
    ]);
  });

  it("the manifest and the animation swapped → 422 whose detail says they are swapped and which goes where", async () => {
    const parts = [
      ...named(weatherCardParts()),
      json("templateJson", weatherManifest(), "manifest.json"),
      json("manifestJson", weatherLottie(), "data.json"),
    ];
    const problem = await problemOf(await upload(manager.token, projectId, parts), 422);
    expect(problem.detail).toBe(
      "manifest.json and data.json are swapped: give data.json (the Lottie animation) as the Lottie file (templateJson) and manifest.json (the binding manifest) as the manifest (manifestJson).",
    );
    expect(problem.errors?.slice(0, 2)).toEqual([
      { path: "templateJson", message: "(manifest.json) is a binding manifest, not a Lottie animation: the files look swapped; give it as the manifest and the animation here" },
      { path: "manifestJson", message: "(data.json) is a Lottie animation, not a binding manifest: give it as the Lottie file and the manifest here" },
    ]);
    expect(problem.errors).toContainEqual({ path: "templateJson.v", message: "is required: the Bodymovin version string" });
  });

  it("a Lottie animation as manifestJson → 422 whose detail says to give it as the Lottie file; the manifest schema's errors follow", async () => {
    const parts = [...named(weatherCardParts()), json("templateJson", weatherLottie(), "data.json"), json("manifestJson", weatherLottie(), "data.json")];
    const problem = await problemOf(await upload(manager.token, projectId, parts), 422);
    expect(problem.detail).toMatch(/^data\.json, given as the binding manifest \(manifestJson\), is a Lottie animation: give it as the Lottie file \(templateJson\)/);
    expect(problem.errors?.[0]).toEqual({ path: "manifestJson", message: "(data.json) is a Lottie animation, not a binding manifest: give it as the Lottie file and the manifest here" });
    expect(problem.errors).toContainEqual(expect.objectContaining({ path: "manifestJson.v", message: "is not a manifest field" }));
  });

  it("a damaged Lottie animation (op ≤ ip) keeps the technical wording alone: it is the right file, with a fault", async () => {
    const parts = [...named(smallTemplateParts()), json("templateJson", { ...weatherLottie(), ip: 10, op: 5 }, "data.json")];
    const problem = await problemOf(await upload(manager.token, projectId, parts), 422);
    expect(problem.errors).toEqual([{ path: "templateJson.op", message: "must be greater than ip (10)" }]);
  });
});
