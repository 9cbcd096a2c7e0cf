import { createHash } from "node:crypto";
import { inflateSync } from "node:zlib";
import { afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { getConfig } from "@/lib/config";
import { getBlobStore } from "@/lib/storage";
import { apiRequest, createTestMember, createTestProject, routeParams } from "@/testing/factories";
import { solidPngDataUrl } from "@/testing/fixtures/lottie-builders";
import { fixture, weatherCardParts } from "@/testing/multipart";
import { previewResultSchema } from "@/lib/templates/contract";
import { GET as previewFileRoute } from "@/app/api/previews/[file]/route";
import { POST as previewRoute } from "./[templateId]/preview/route";
import { blobFiles, errorPaths, okJson, preview, problemOf, templatesUrl, upload, type PreviewJson, type TemplateJson } from "@/testing/template-api";

let projectId: string;
let editor: string;
let weatherCard: TemplateJson;

beforeAll(async () => {
  const { project } = await createTestProject("Previews");
  projectId = project.id;
  editor = (await createTestMember("Editor", { projectId })).token;
  weatherCard = await okJson<TemplateJson>(await upload(editor, projectId, weatherCardParts()), 201);
});

afterEach(() => {
  vi.useRealTimers();
});

const bound = { City: "Lisbon", Status: "Rain", Tempreture: "12°" };

async function previewOf(data: Record<string, unknown>, templateId = weatherCard.id): Promise<PreviewJson> {
  return okJson<PreviewJson>(await preview(editor, projectId, templateId, { data }));
}

/** GET /api/previews/{file} exactly as a browser would follow the signed URL: no bearer token. */
function fetchPreview(url: string): Promise<Response> {
  const file = new URL(url).pathname.split("/").pop()!;
  return previewFileRoute(new Request(url), routeParams({ file }));
}

async function pngOf(url: string): Promise<Buffer> {
  const response = await fetchPreview(url);
  expect(response.status).toBe(200);
  expect(response.headers.get("content-type")).toBe("image/png");
  return Buffer.from(await response.arrayBuffer());
}

const pngSignature = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

/** Decodes an 8-bit RGB or RGBA PNG (any row filter) to RGBA. Enough for the previews; not a general decoder. */
function decodePng(png: Buffer): { width: number; height: number; rgba: Uint8Array } {
  expect(png.subarray(0, 8)).toEqual(pngSignature);
  let width = 0;
  let height = 0;
  let colorType = -1;
  const idat: Buffer[] = [];
  for (let pos = 8; pos < png.length; ) {
    const length = png.readUInt32BE(pos);
    const type = png.toString("latin1", pos + 4, pos + 8);
    const data = png.subarray(pos + 8, pos + 8 + length);
    if (type === "IHDR") {
      width = data.readUInt32BE(0);
      height = data.readUInt32BE(4);
      expect(data[8], "bit depth").toBe(8);
      colorType = data[9]!;
      expect(data[12], "interlace").toBe(0);
    } else if (type === "IDAT") idat.push(data);
    pos += 12 + length;
  }
  const channels = colorType === 6 ? 4 : colorType === 2 ? 3 : 0;
  expect(channels, `colour type ${colorType}`).toBeGreaterThan(0);
  const raw = inflateSync(Buffer.concat(idat));
  const stride = width * channels;
  const pixels = new Uint8Array(stride * height);
  for (let y = 0; y < height; y++) {
    const filter = raw[y * (stride + 1)]!;
    const line = raw.subarray(y * (stride + 1) + 1, (y + 1) * (stride + 1));
    const out = y * stride;
    for (let x = 0; x < stride; x++) {
      const a = x >= channels ? pixels[out + x - channels]! : 0;
      const b = y > 0 ? pixels[out - stride + x]! : 0;
      const c = x >= channels && y > 0 ? pixels[out - stride + x - channels]! : 0;
      let predicted = 0;
      if (filter === 1) predicted = a;
      else if (filter === 2) predicted = b;
      else if (filter === 3) predicted = (a + b) >> 1;
      else if (filter === 4) {
        const p = a + b - c;
        const [pa, pb, pc] = [Math.abs(p - a), Math.abs(p - b), Math.abs(p - c)];
        predicted = pa <= pb && pa <= pc ? a : pb <= pc ? b : c;
      }
      pixels[out + x] = (line[x]! + predicted) & 255;
    }
  }
  if (channels === 4) return { width, height, rgba: pixels };
  const rgba = new Uint8Array(width * height * 4);
  for (let i = 0, j = 0; i < pixels.length; i += 3, j += 4) rgba.set([pixels[i]!, pixels[i + 1]!, pixels[i + 2]!, 255], j);
  return { width, height, rgba };
}

/** Pixels where any channel differs by more than `threshold`. */
function differingPixels(a: Uint8Array, b: Uint8Array, threshold = 32): number {
  expect(a.length).toBe(b.length);
  let count = 0;
  for (let i = 0; i < a.length; i += 4) {
    if ([0, 1, 2, 3].some((c) => Math.abs(a[i + c]! - b[i + c]!) > threshold)) count += 1;
  }
  return count;
}

describe("POST /api/Projects/:id/templates/:templateId/preview", () => {
  it("POST …/preview – weather card with City, Status, Tempreture → 200 {url, expiresAt ≈ 15 min, width, height, frame, warnings: []}", async () => {
    const requestedAt = Date.now();
    const result = await previewOf(bound);
    const answeredAt = Date.now();
    expect(previewResultSchema.parse(result)).toEqual(result);
    expect(result.warnings).toEqual([]);
    // 720×1280 fitted into the 1280×720 preview box; the middle frame of 0–360.
    expect(result).toMatchObject({ width: 405, height: 720, frame: 180 });

    const url = new URL(result.url);
    expect(`${url.protocol}//${url.host}`).toBe(getConfig().publicBaseUrl);
    expect(url.pathname).toMatch(/^\/api\/previews\/[0-9a-f]{64}\.png$/);
    expect(url.searchParams.get("signature")).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(Number(url.searchParams.get("expires")) * 1000).toBe(Date.parse(result.expiresAt));
    expect(result.expiresAt).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    // 15 minutes from the moment the URL was signed, somewhere between the request and its answer
    // (whole seconds: up to 1 s either way); how long the render took does not matter.
    const expiresAt = Date.parse(result.expiresAt);
    expect(expiresAt).toBeGreaterThanOrEqual(requestedAt + 15 * 60_000 - 1_000);
    expect(expiresAt).toBeLessThanOrEqual(answeredAt + 15 * 60_000 + 1_000);
  });

  it("POST …/preview – a key that matches no field → 200 with a warning naming it", async () => {
    const result = await previewOf({ ...bound, nope: "x" });
    expect(result.warnings).toHaveLength(1);
    expect(result.warnings[0]).toMatch(/nope/);
  });

  it.each<{ name: string; body: unknown; path: string }>([
    { name: "a number value", body: { data: { City: 5 } }, path: "data.City" },
    { name: "a null value", body: { data: { City: "Lisbon", Status: null } }, path: "data.Status" },
    { name: "an object value", body: { data: { City: { name: "Lisbon" } } }, path: "data.City" },
    { name: "an array value", body: { data: { City: ["Lisbon"] } }, path: "data.City" },
    { name: "data missing", body: {}, path: "data" },
    { name: "data an array", body: { data: ["Lisbon"] }, path: "data" },
    { name: "data a string", body: { data: "City=Lisbon" }, path: "data" },
    { name: "an unknown member", body: { data: {}, width: 100 }, path: "width" },
  ])("POST /api/Projects/:id/templates/:templateId/preview – $name → 422 at $path", async ({ body, path }) => {
    const problem = await problemOf(await preview(editor, projectId, weatherCard.id, body), 422);
    expect(problem.code).toBe("validation_failed");
    expect(errorPaths(problem)).toContain(path);
  });

  it.each([
    { name: "malformed JSON", rawBody: '{"data":', contentType: "application/json", status: 400 },
    { name: "a form body", rawBody: "City=Lisbon", contentType: "application/x-www-form-urlencoded", status: 415 },
  ])("POST /api/Projects/:id/templates/:templateId/preview – $name → $status", async ({ rawBody, contentType, status }) => {
    const request = apiRequest("POST", `${templatesUrl(projectId)}/${weatherCard.id}/preview`, {
      token: editor,
      rawBody,
      headers: { "content-type": contentType },
    });
    await problemOf(await previewRoute(request, routeParams({ projectId, templateId: weatherCard.id })), status);
  });

  it("POST …/preview – the same data twice (in any key order) → the same URL path, one blob", async () => {
    const data = { City: "Porto", Status: "Fog", Tempreture: "9°" };
    const first = await previewOf(data);
    const blobsAfterFirst = blobFiles();
    const second = await previewOf({ Tempreture: "9°", Status: "Fog", City: "Porto" });
    expect(new URL(second.url).pathname).toBe(new URL(first.url).pathname);
    expect(second).toMatchObject({ width: first.width, height: first.height, frame: first.frame, warnings: first.warnings });
    expect(blobFiles()).toEqual(blobsAfterFirst);
    expect(await pngOf(second.url)).toEqual(await pngOf(first.url));
  });

  it("POST …/preview – the URL names the PNG's SHA-256, kept in the blob store: a process that did not render it serves it", async () => {
    const result = await previewOf({ ...bound, City: "Faro" });
    const sha256 = /\/api\/previews\/([0-9a-f]{64})\.png$/.exec(new URL(result.url).pathname)![1]!;
    expect(blobFiles()).toContain(`sha256/${sha256.slice(0, 2)}/${sha256}`);
    // What this process remembers of its renders is gone, as in another process.
    delete (globalThis as Record<symbol, unknown>)[Symbol.for("reelbind.templates.rendered-previews")];
    const png = await pngOf(result.url);
    expect(createHash("sha256").update(png).digest("hex")).toBe(sha256);
  });

  it("POST …/preview – its blob deleted meanwhile (a template file with the same bytes was deleted) → rendered and stored again", async () => {
    const data = { ...bound, City: "Braga" };
    const first = await previewOf(data);
    const sha256 = /([0-9a-f]{64})\.png$/.exec(new URL(first.url).pathname)![1]!;
    await getBlobStore().delete(`sha256/${sha256}`);
    const second = await previewOf(data);
    expect(new URL(second.url).pathname).toBe(new URL(first.url).pathname);
    expect(createHash("sha256").update(await pngOf(second.url)).digest("hex")).toBe(sha256);
  });

  it("POST …/preview – other data → another URL", async () => {
    const [a, b] = [await previewOf(bound), await previewOf({ ...bound, City: "Madrid" })];
    expect(new URL(a.url).pathname).not.toBe(new URL(b.url).pathname);
  });
});

describe("GET /api/previews/:file – the signed PNG", () => {
  it("GET …/previews/:file – the signed URL, without a bearer token → 200 image/png of the reported size", async () => {
    const result = await previewOf(bound);
    const response = await fetchPreview(result.url);
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("image/png");
    expect(response.headers.get("x-content-type-options")).toBe("nosniff");
    const png = Buffer.from(await response.arrayBuffer());
    expect(png.subarray(0, 8)).toEqual(pngSignature);
    const decoded = decodePng(png);
    expect([decoded.width, decoded.height]).toEqual([result.width, result.height]);
  });

  it("GET …/previews/:file – the bound render differs from the unbound one; explicit defaults render like no data", async () => {
    const unbound = decodePng(await pngOf((await previewOf({})).url));
    const withData = decodePng(await pngOf((await previewOf(bound)).url));
    const defaults = decodePng(await pngOf((await previewOf({ City: "Paris", Status: "Sunny", Tempreture: "20°" })).url));

    const total = unbound.width * unbound.height;
    const changed = differingPixels(unbound.rgba, withData.rgba);
    expect(changed).toBeGreaterThan(500);
    // Only the three text layers change: far from the whole frame.
    expect(changed).toBeLessThan(total / 4);
    expect(differingPixels(unbound.rgba, defaults.rgba, 0)).toBe(0);
  });

  it("GET …/previews/:file – an image field bound to a data URL changes the render", async () => {
    const unbound = decodePng(await pngOf((await previewOf({})).url));
    const result = await previewOf({ avatar: solidPngDataUrl([255, 0, 0, 255], 64, 64) });
    expect(result.warnings).toEqual([]);
    expect(differingPixels(unbound.rgba, decodePng(await pngOf(result.url)).rgba)).toBeGreaterThan(100);
  });

  it.each<{ name: string; tamper: (url: URL) => void }>([
    { name: "a changed signature", tamper: (url) => url.searchParams.set("signature", flip(url.searchParams.get("signature")!)) },
    { name: "no signature", tamper: (url) => url.searchParams.delete("signature") },
    { name: "an empty signature", tamper: (url) => url.searchParams.set("signature", "") },
    { name: "expires pushed one second later", tamper: (url) => url.searchParams.set("expires", String(Number(url.searchParams.get("expires")) + 1)) },
    { name: "no expires", tamper: (url) => url.searchParams.delete("expires") },
    { name: "another preview's name", tamper: (url) => (url.pathname = url.pathname.replace(/[0-9a-f]{64}/, "0".repeat(64))) },
    { name: "a name that is not 64 hex", tamper: (url) => (url.pathname = "/api/previews/..%2Fsecrets.json.png") },
    { name: "the path without .png", tamper: (url) => (url.pathname = url.pathname.replace(/\.png$/, "")) },
  ])("GET /api/previews/:file – $name → 404", async ({ tamper }) => {
    const url = new URL((await previewOf(bound)).url);
    tamper(url);
    const problem = await problemOf(await fetchPreview(url.toString()), 404);
    expect(problem.code).toBe("not_found");
  });

  it("GET /api/previews/:file – an expired URL (16 minutes later) → 404", async () => {
    const { url } = await previewOf(bound);
    expect((await fetchPreview(url)).status).toBe(200);
    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(Date.now() + 16 * 60_000);
    const problem = await problemOf(await fetchPreview(url), 404);
    expect(problem.code).toBe("not_found");
  });

  it("GET /api/previews/:file – an expires 15 minutes ahead signed with the right secret still works 14 minutes later", async () => {
    const { url } = await previewOf(bound);
    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(Date.now() + 14 * 60_000);
    expect((await fetchPreview(url)).status).toBe(200);
  });
});

describe("POST /api/Projects/:id/templates/:templateId/preview – Raster", () => {
  it("POST …/preview – a Raster template with a poster and no Lottie file → 200 and a PNG", async () => {
    const raster = await okJson<TemplateJson>(
      await upload(editor, projectId, [
        { name: "name", value: "Raster" },
        { name: "kind", value: "Raster" },
        { name: "videoFile", filename: "bg.mp4", content: fixture("video/background-640x360-6s.mp4"), contentType: "video/mp4" },
        { name: "posterFile", filename: "poster.png", content: fixture("video/poster-640x360.png"), contentType: "image/png" },
      ]),
      201,
    );
    const result = await previewOf({}, raster.id);
    const decoded = decodePng(await pngOf(result.url));
    expect([decoded.width, decoded.height]).toEqual([result.width, result.height]);
  });
});

/** The same length and alphabet, the first character (six significant bits) different. */
function flip(signature: string): string {
  return (signature[0] === "A" ? "B" : "A") + signature.slice(1);
}
