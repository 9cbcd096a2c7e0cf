import { readFileSync } from "node:fs";
import { eq } from "drizzle-orm";
import { beforeAll, beforeEach, describe, expect, it } from "vitest";
import { getDb } from "@/lib/db";
import { templateUploadSessions } from "@/lib/db/schema";
import { apiRequest, createTestMember, createTestProject, routeParams } from "@/testing/factories";
import { imageAsset, imageLayer, makeLottie, solidPng, solidPngDataUrl, textLayer } from "@/testing/fixtures/lottie-builders";
import { weatherCardParts, type UploadPart } from "@/testing/multipart";
import { uploadedTemplateSchema } from "@/lib/templates/contract";
import { PUT as partRoute } from "@/app/api/uploads/[sessionId]/files/[fileIndex]/parts/[partNumber]/route";
import { POST as completeRoute } from "./uploads/[uploadId]/complete/route";
import { POST as declareRoute } from "./uploads/route";
import { expectNothingLeft, getOne, okJson, problemOf, snapshot, templatesUrl, uniqueParts, upload, type Snapshot, type TemplateJson } from "@/testing/template-api";

// Issue 32, finding 2: every image the animation loads by name must be uploaded with it, unless
// a manifest image field fills it from personalization data (then the answer warns). The same
// rule on every way in: the streamed upload and an upload session's completion.

type Uploaded = TemplateJson & { warnings: string[] };

let projectId: string;
let manager: { user: { id: string }; token: string };

beforeAll(async () => {
  const { project } = await createTestProject("Upload assets");
  projectId = project.id;
  manager = await createTestMember("ProjectManager", { projectId });
});

const demoDir = "lib/bootstrap/demo-template/landscape";
const json = (name: string, filename: string, value: unknown): UploadPart => ({ name, filename, content: typeof value === "string" ? value : JSON.stringify(value), contentType: "application/json" });
const png = (filename: string): UploadPart => ({ name: "assetFiles", filename, content: solidPng([30, 120, 200, 255]), contentType: "image/png" });

/** The bootstrapped demo (scripts/make-demo-template.mjs) as its folder holds it: data.json, manifest.json, images/logo.png. */
function demoParts({ logo = true } = {}): UploadPart[] {
  return [
    { name: "name", value: "Welcome message" },
    { name: "kind", value: "LottieStandalone" },
    json("templateJson", "data.json", readFileSync(`${demoDir}/data.json`, "utf8")),
    json("manifestJson", "manifest.json", readFileSync(`${demoDir}/manifest.json`, "utf8")),
    ...(logo ? [{ name: "assetFiles", filename: "logo.png", content: readFileSync(`${demoDir}/images/logo.png`), contentType: "image/png" }] : []),
  ];
}

const weatherManifest = (withAvatar: boolean) => ({
  version: 1,
  fields: [
    { key: "City", type: "text", target: { layer: "City" } },
    ...(withAvatar ? [{ key: "avatar", type: "image", target: { asset: "image_0" } }] : []),
  ],
});
const weatherWithout = (manifest: unknown, ...missing: string[]) =>
  weatherCardParts()
    .filter((part) => part.name !== "manifestJson" && !("filename" in part && missing.includes(part.filename)))
    .concat(json("manifestJson", "manifest.json", manifest));

/** An animation with an image asset and an image slot, both loaded by name. */
function slotParts(manifestFields: unknown[], assets: UploadPart[]): UploadPart[] {
  const lottie = makeLottie({
    layers: [textLayer("Title", "Hello"), imageLayer("Badge", "badge"), imageLayer("Photo", "photo_asset")],
    assets: [imageAsset("badge", "badge.png", 8, 8), { ...imageAsset("photo_asset", "placeholder.png", 8, 8), sid: "photo" }],
    slots: { photo: { p: { w: 8, h: 8, u: "images/", p: "photo.png", e: 0 } } },
  });
  return [
    { name: "name", value: "Slots" },
    { name: "kind", value: "LottieStandalone" },
    json("templateJson", "animation.json", lottie),
    json("manifestJson", "manifest.json", { version: 1, fields: manifestFields }),
    ...assets,
  ];
}

const assetErrors = (problem: { errors?: { path: string; message: string }[] }) =>
  (problem.errors ?? []).filter((error) => error.path === "assetFiles").map((error) => error.message);

describe("POST /api/Projects/:id/templates/upload – every image the animation loads must be uploaded", () => {
  let before: Snapshot;
  beforeEach(async () => {
    before = await snapshot(projectId);
  });

  it("POST …/templates/upload – the demo template minus its logo → 422 naming logo.png (the manifest's default shows it), nothing stored", async () => {
    const problem = await problemOf(await upload(manager.token, projectId, uniqueParts(demoParts({ logo: false }))), 422);
    expect(assetErrors(problem)).toEqual([
      'must include logo.png: the animation\'s image asset "logo" shows it and the manifest\'s image field "logo" shows it by default; add the file, or embed the image in the Lottie JSON',
    ]);
    expect(problem.detail).toContain("logo.png");
    await expectNothingLeft(projectId, before);
  });

  it("POST …/templates/upload – the demo template with its logo → 201 without warnings", async () => {
    const template = await okJson<Uploaded>(await upload(manager.token, projectId, uniqueParts(demoParts())), 201);
    expect(uploadedTemplateSchema.parse(template)).toEqual(template);
    expect(template.warnings).toEqual([]);
    expect(template.files.assetFiles.map((file) => file.name)).toEqual(["logo.png"]);
  });

  it("POST …/templates/upload – the weather card without both images, none bound → 422 naming each missing file; its data file (t: 3) is not asked for", async () => {
    const problem = await problemOf(await upload(manager.token, projectId, uniqueParts(weatherWithout(weatherManifest(false), "img_0.jpg", "img_1.jpg"))), 422);
    expect(assetErrors(problem)).toEqual([
      expect.stringMatching(/^must include img_0\.jpg: the animation's image asset "image_0" shows it;/),
      expect.stringMatching(/^must include img_1\.jpg: the animation's image asset "image_1" shows it;/),
    ]);
    expect(problem.detail).not.toContain("footage_0.json");
    await expectNothingLeft(projectId, before);
  });

  it("POST …/templates/upload – the weather card without img_0.jpg, which the avatar field fills (no default) → 201 with a warning naming the file and the field", async () => {
    const response = await upload(manager.token, projectId, uniqueParts(weatherWithout(weatherManifest(true), "img_0.jpg")));
    const template = await okJson<Uploaded>(response, 201);
    expect(template.warnings).toEqual([
      'img_0.jpg is not among the asset files: the animation\'s image asset "image_0" shows it, and the manifest\'s image field "avatar" fills it from personalization data; a viewer whose data has no "avatar" sees no image there.',
    ]);
    expect(template.files.assetFiles.map((file) => file.name)).toEqual(["img_1.jpg"]);
    // The template itself is as any other; the warning belongs to the upload's answer.
    const { warnings: _warnings, ...stored } = template;
    expect(await okJson<TemplateJson>(await getOne(manager.token, projectId, template.id))).toEqual(stored);
  });

  it("POST …/templates/upload – the avatar still bound but img_1.jpg missing too → 422 for img_1.jpg alone (a refusal carries no warning)", async () => {
    const problem = await problemOf(await upload(manager.token, projectId, uniqueParts(weatherWithout(weatherManifest(true), "img_0.jpg", "img_1.jpg"))), 422);
    expect(assetErrors(problem)).toEqual([expect.stringMatching(/^must include img_1\.jpg:/)]);
    await expectNothingLeft(projectId, before);
  });

  it.each<{ name: string; fields: unknown[]; assets: string[]; errors: RegExp[]; warnings: RegExp[] }>([
    { name: "every file there", fields: [], assets: ["badge.png", "placeholder.png", "photo.png"], errors: [], warnings: [] },
    { name: "an unbound image slot's file missing → 422", fields: [], assets: ["badge.png", "placeholder.png"], errors: [/^must include photo\.png: the animation's image slot "photo"/], warnings: [] },
    {
      name: "the slot bound by an image field → a warning, and the asset that takes its image from that slot too",
      fields: [{ key: "photo", type: "image", target: { slot: "photo" } }],
      assets: ["badge.png"],
      errors: [],
      warnings: [/^placeholder\.png is not among the asset files: the animation's image asset "photo_asset"/, /^photo\.png is not among the asset files: the animation's image slot "photo"/],
    },
    {
      name: "an image field whose default is the missing file → 422",
      fields: [{ key: "badge", type: "image", target: { asset: "badge" }, default: "badge.png" }],
      assets: ["placeholder.png", "photo.png"],
      errors: [/^must include badge\.png: .* the manifest's image field "badge" shows it by default/],
      warnings: [],
    },
  ])("POST …/templates/upload – image slots: $name", async ({ fields, assets, errors, warnings }) => {
    const response = await upload(manager.token, projectId, uniqueParts(slotParts(fields, assets.map(png))));
    if (errors.length > 0) {
      const problem = await problemOf(response, 422);
      expect(assetErrors(problem)).toEqual(errors.map((pattern) => expect.stringMatching(pattern)));
      await expectNothingLeft(projectId, before);
    } else {
      const template = await okJson<Uploaded>(response, 201);
      expect(template.warnings).toEqual(warnings.map((pattern) => expect.stringMatching(pattern)));
    }
  });

  it("POST …/templates/upload – embedded images (data: URIs, e: 1) and a folder in p matched by base name need no other file", async () => {
    const lottie = makeLottie({
      layers: [imageLayer("Embedded", "embedded"), imageLayer("Foldered", "foldered")],
      assets: [imageAsset("embedded", solidPngDataUrl([1, 2, 3, 255]), 8, 8), { id: "foldered", w: 8, h: 8, u: "", p: "images/mark.png", e: 0 }],
    });
    const parts: UploadPart[] = [{ name: "name", value: "Embedded" }, { name: "kind", value: "LottieStandalone" }, json("templateJson", "animation.json", lottie), png("mark.png")];
    const template = await okJson<Uploaded>(await upload(manager.token, projectId, uniqueParts(parts)), 201);
    expect(template.warnings).toEqual([]);

    const problem = await problemOf(await upload(manager.token, projectId, uniqueParts(parts.slice(0, 3))), 422);
    expect(assetErrors(problem)).toEqual([expect.stringMatching(/^must include mark\.png: the animation's image asset "foldered"/)]);
  });
});

// ── the same rule when an upload session completes ─────────────────────────────────────

type SessionJson = { id: string; files: { index: number; parts?: { partNumber: number; size: number; url: string }[] }[] };

const typeOf = (name: string) => (name.endsWith(".json") ? "application/json" : name.endsWith(".jpg") ? "image/jpeg" : "image/png");

/** Declares the parts' files, PUTs each file's parts to the app's part route (local storage), and completes the session. */
async function uploadThroughSession(parts: UploadPart[]): Promise<{ session: SessionJson; response: Response }> {
  const fields = Object.fromEntries(parts.flatMap((part) => ("value" in part ? [[part.name, part.value]] : [])));
  const files = parts.flatMap((part) => ("filename" in part ? [{ role: part.name, name: part.filename, bytes: Buffer.from(part.content) }] : []));
  const declared = await declareRoute(
    apiRequest("POST", `${templatesUrl(projectId)}/uploads`, {
      token: manager.token,
      body: { fields, files: files.map((file) => ({ role: file.role, name: file.name, size: file.bytes.length, type: typeOf(file.name) })) },
    }),
    routeParams({ projectId }),
  );
  const session = await okJson<SessionJson>(declared, 201);
  for (const declaredFile of session.files) {
    let offset = 0;
    for (const link of declaredFile.parts ?? []) {
      const bytes = files[declaredFile.index]!.bytes.subarray(offset, offset + link.size);
      offset += link.size;
      const put = await partRoute(new Request(link.url, { method: "PUT", body: bytes, headers: { "content-type": "application/octet-stream" } }), routeParams({ sessionId: session.id, fileIndex: String(declaredFile.index), partNumber: String(link.partNumber) }));
      expect(put.status, await put.clone().text()).toBeLessThan(300);
    }
  }
  const response = await completeRoute(
    apiRequest("POST", `${templatesUrl(projectId)}/uploads/${session.id}/complete`, { token: manager.token, body: {} }),
    routeParams({ projectId, uploadId: session.id }),
  );
  return { session, response };
}

describe("POST /api/Projects/:id/templates/uploads/:id/complete – the same rule", () => {
  it("complete – the demo template minus its logo → 422 naming logo.png, the session failed, nothing stored", async () => {
    const before = await snapshot(projectId);
    const { session, response } = await uploadThroughSession(uniqueParts(demoParts({ logo: false })));
    const problem = await problemOf(response, 422);
    expect(assetErrors(problem)).toEqual([expect.stringMatching(/^must include logo\.png:/)]);
    const [row] = await (await getDb()).select().from(templateUploadSessions).where(eq(templateUploadSessions.id, session.id));
    expect(row?.status).toBe("failed");
    await expectNothingLeft(projectId, before);
  });

  it("complete – the weather card without the avatar's image → 201 with the warning, replayed with it", async () => {
    const { session, response } = await uploadThroughSession(uniqueParts(weatherWithout(weatherManifest(true), "img_0.jpg")));
    const template = await okJson<Uploaded>(response, 201);
    expect(template.warnings).toEqual([expect.stringMatching(/^img_0\.jpg is not among the asset files: .*"avatar"/)]);
    const again = await completeRoute(
      apiRequest("POST", `${templatesUrl(projectId)}/uploads/${session.id}/complete`, { token: manager.token, body: {} }),
      routeParams({ projectId, uploadId: session.id }),
    );
    expect(await okJson<Uploaded>(again, 201)).toEqual(template);
  });
});
