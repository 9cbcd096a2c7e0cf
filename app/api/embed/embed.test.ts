import { beforeAll, describe, expect, it } from "vitest";
import { POST as createCredentialRoute } from "@/app/api/credentials/route";
import { POST as revokeCredentialRoute } from "@/app/api/credentials/[id]/revoke/route";
import { PUT as putShareRoute } from "@/app/api/Projects/[projectId]/public-video-shares/[channel]/route";
import { POST as disableRoute } from "@/app/api/Projects/[projectId]/public-video-shares/[channel]/disable/route";
import { deploy, okJson, problemOf, upload, type TemplateJson } from "@/testing/template-api";
import { GET as embedPageRoute } from "@/app/embed/[slug]/route";
import { GET as embedSessionPageRoute } from "@/app/embed/route";
import { parseRange } from "@/lib/embed/serve-file";
import type { PageManifest } from "@/shared/embed-protocol";
import { apiRequest, createTestMember, createTestProject, createTestProjectIn, routeParams } from "@/testing/factories";
import { fixture, weatherCardParts } from "@/testing/multipart";
import { verifyEmbedSessionToken } from "@/lib/tokens/embed-session-token";
import { verifyIngestToken } from "@/lib/tokens/ingest-token";
import { GET as fileRoute } from "./files/[fileId]/[name]/route";
import { GET as manifestRoute } from "./manifest/route";
import { GET as posterRoute } from "./posters/[slug]/route";
import { POST as embedSessionsRoute } from "../embed-sessions/route";

type Credential = { id: string; apiKey: string; apiSecret: string };
type ShareJson = { id: string; slug: string; channel: string };

let admin: string;
let projectId: string;
let organizationId: string;
let credential: Credential;
let share: ShareJson;
let template: TemplateJson;

async function createCredential(projectId: string): Promise<Credential> {
  return okJson<Credential>(await createCredentialRoute(apiRequest("POST", "/api/credentials", { token: admin, body: { projectId } }), routeParams({})), 201);
}

async function putShare(projectId: string, channel: string, body: Record<string, unknown>): Promise<ShareJson> {
  const response = await putShareRoute(
    apiRequest("PUT", `/api/Projects/${projectId}/public-video-shares/${channel}`, { token: admin, body }),
    routeParams({ projectId, channel }),
  );
  expect([200, 201]).toContain(response.status);
  return (await response.json()) as ShareJson;
}

const basic = (c: { apiKey: string; apiSecret: string }) => `Basic ${Buffer.from(`${c.apiKey}:${c.apiSecret}`).toString("base64")}`;

const createSession = (body: unknown, authorization: string | null = basic(credential)) =>
  embedSessionsRoute(apiRequest("POST", "/api/embed-sessions", { body, headers: authorization ? { authorization } : {} }));

const getManifest = (query: string) => manifestRoute(apiRequest("GET", `/api/embed/manifest${query}`));

function fetchFile(url: string, headers: Record<string, string> = {}) {
  const [, , , , fileId, name] = new URL(url).pathname.split("/");
  return fileRoute(new Request(url, { headers }), routeParams({ fileId: fileId!, name: name! }));
}

const shareData = { City: "Lisbon", Status: "Sunny", Tempreture: 21, Nested: { no: 1 } };

beforeAll(async () => {
  const { organization, project } = await createTestProject("Embeds");
  projectId = project.id;
  organizationId = organization.id;
  admin = (await createTestMember("OrganizationAdmin", { organizationId })).token;
  credential = await createCredential(projectId);
  template = await okJson<TemplateJson>(await upload(admin, projectId, weatherCardParts()), 201);
  await okJson(await deploy(admin, projectId, template.id));
  share = await putShare(projectId, "PROD", {
    publicTitle: "Ana's weather",
    locale: "pt-PT",
    ctaLabel: "Book",
    ctaUrl: "https://example.com/book",
    personalizationData: shareData,
    consentMode: "required",
    apiCredentialId: credential.id,
  });
});

describe("GET /api/embed/manifest", () => {
  it("GET /api/embed/manifest?share= – template files, data as strings, CTA, consent mode and a fresh ingest token", async () => {
    const manifest = await okJson<PageManifest>(await getManifest(`?share=${share.slug}`));
    expect(manifest).toMatchObject({
      version: 1,
      organizationId,
      projectId,
      shareId: share.id,
      channel: "PROD",
      title: "Ana's weather",
      locale: "pt-PT",
      cta: { label: "Book", url: "https://example.com/book" },
      consent: { mode: "required" },
      allowedOrigins: null,
      template: { id: template.id, version: "1.0", kind: "LottieStandalone", width: 720, height: 1280, overlay: null },
    });
    // Numbers become text; objects cannot be shown and are left out.
    expect(manifest.bindings.data).toEqual({ City: "Lisbon", Status: "Sunny", Tempreture: "21" });
    expect(manifest.template!.files.templateJson).toMatch(/^http:\/\/localhost:\d+\/api\/embed\/files\/[0-9a-f-]{36}\/data\.json\?expires=\d+&signature=/);
    expect(Object.keys(manifest.template!.files.assets).sort()).toEqual(["img_0.jpg", "img_1.jpg"]);

    const claims = await verifyIngestToken(manifest.ingest!.token);
    expect(claims).toMatchObject({ organizationId, projectId, shareId: share.id, allowedOrigins: undefined, templateId: template.id, templateVersion: "1.0" });
    expect(manifest.ingest!.url).toMatch(/^http:\/\/localhost:\d+$/);
  });

  it.each([
    ["no parameter", "", "share"],
    ["both parameters", "?share=abc&session=def", "share"],
    ["an unknown parameter", "?share=abc&x=1", "x"],
  ])("GET /api/embed/manifest – %s → 422", async (_case, query, path) => {
    const problem = await problemOf(await getManifest(query), 422);
    expect(problem.errors?.map((e) => e.path)).toContain(path);
  });

  it("GET /api/embed/manifest?share= – unknown slug → 404; an invalid session token → 401", async () => {
    await problemOf(await getManifest("?share=nosuchslug"), 404);
    await problemOf(await getManifest("?session=not.a.token"), 401);
  });
});

describe("POST /api/embed-sessions", () => {
  it("POST /api/embed-sessions – channel + data + allowedOrigins → 201; its manifest merges the data and its ingest token keeps the origins", async () => {
    const body = { channel: "PROD", personalizationData: { City: "Porto" }, allowedOrigins: ["https://Shop.Example.com:443"], ttlSeconds: 600 };
    const session = await okJson<{ token: string; expiresAt: string; embedUrl: string }>(await createSession(body), 201);
    const claims = await verifyEmbedSessionToken(session.token);
    expect(claims).toMatchObject({ projectId, organizationId, channel: "PROD", allowedOrigins: ["https://shop.example.com"] });
    expect(new Date(session.expiresAt).getTime() - Date.now()).toBeLessThanOrEqual(600_000);
    expect(session.embedUrl).toBe(`http://localhost:${new URL(session.embedUrl).port}/embed?session=${encodeURIComponent(session.token)}`);

    const manifest = await okJson<PageManifest>(await getManifest(`?session=${encodeURIComponent(session.token)}`));
    expect(manifest.bindings.data).toEqual({ City: "Porto", Status: "Sunny", Tempreture: "21" });
    expect(manifest.allowedOrigins).toEqual(["https://shop.example.com"]);
    expect((await verifyIngestToken(manifest.ingest!.token)).allowedOrigins).toEqual(["https://shop.example.com"]);
  });

  it("POST /api/embed-sessions – shareSlug of the credential's own share → 201", async () => {
    await okJson(await createSession({ shareSlug: share.slug }), 201);
  });

  it.each([
    ["no Authorization", null],
    ["a bearer token", "Bearer rbk_nothing"],
    ["a wrong secret", () => basic({ apiKey: credential.apiKey, apiSecret: "sk_wrong" })],
    ["an unknown key", () => basic({ apiKey: "pk_unknown", apiSecret: credential.apiSecret })],
    ["malformed Basic", "Basic !!!"],
  ])("POST /api/embed-sessions – %s → 401 with WWW-Authenticate: Basic", async (_case, authorization) => {
    const header = typeof authorization === "function" ? authorization() : authorization;
    const response = await createSession({ channel: "PROD" }, header);
    await problemOf(response, 401);
    expect(response.headers.get("www-authenticate")).toBe('Basic realm="reelbind"');
  });

  it("POST /api/embed-sessions – a revoked credential → 401", async () => {
    const revoked = await createCredential(projectId);
    await okJson(await revokeCredentialRoute(apiRequest("POST", `/api/credentials/${revoked.id}/revoke`, { token: admin }), routeParams({ id: revoked.id })));
    await problemOf(await createSession({ channel: "PROD" }, basic(revoked)), 401);
  });

  it.each([
    ["neither channel nor shareSlug", {}, "channel"],
    ["both", { channel: "PROD", shareSlug: "abc" }, "channel"],
    ["an unknown field", { channel: "PROD", projectId: "x" }, "projectId"],
    ["a bad channel", { channel: "LIVE" }, "channel"],
    ["an origin with a path", { channel: "PROD", allowedOrigins: ["https://a.example/x"] }, "allowedOrigins.0"],
    ["a ttl of 25 h", { channel: "PROD", ttlSeconds: 90_000 }, "ttlSeconds"],
    ["data over 4 KB", { channel: "PROD", personalizationData: { a: "x".repeat(5000) } }, "personalizationData"],
  ])("POST /api/embed-sessions – %s → 422", async (_case, body, path) => {
    const problem = await problemOf(await createSession(body), 422);
    expect(problem.errors?.map((e) => e.path)).toContain(path);
  });

  it("POST /api/embed-sessions – a channel without a share, another project's share, a disabled share → 404", async () => {
    await problemOf(await createSession({ channel: "DEV" }), 404);
    const other = await createTestProject("Other embeds");
    const otherAdmin = (await createTestMember("OrganizationAdmin", { organizationId: other.organization.id })).token;
    const otherCredential = await okJson<Credential>(
      await createCredentialRoute(apiRequest("POST", "/api/credentials", { token: otherAdmin, body: { projectId: other.project.id } }), routeParams({})),
      201,
    );
    await problemOf(await createSession({ shareSlug: share.slug }, basic(otherCredential)), 404);

    const staging = await putShare(projectId, "STAGING", { publicTitle: "Staging", apiCredentialId: credential.id });
    const session = await okJson<{ token: string }>(await createSession({ channel: "STAGING" }), 201);
    await disableRoute(apiRequest("POST", `/api/Projects/${projectId}/public-video-shares/STAGING/disable`, { token: admin }), routeParams({ projectId, channel: "STAGING" }));
    await problemOf(await createSession({ shareSlug: staging.slug }), 404);
    // A session minted before the share was disabled stops working too.
    await problemOf(await getManifest(`?session=${encodeURIComponent(session.token)}`), 404);
  });
});

describe("GET /api/embed/files/{fileId}/{name}", () => {
  let manifest: PageManifest;
  beforeAll(async () => {
    manifest = await okJson<PageManifest>(await getManifest(`?share=${share.slug}`));
  });

  it("GET …/files – the signed URL serves the file with its type, length, ETag and long caching", async () => {
    const response = await fetchFile(manifest.template!.files.templateJson!);
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("application/json");
    const body = Buffer.from(await response.arrayBuffer());
    expect(body.equals(fixture("lottie/weather-card/data.json"))).toBe(true);
    expect(response.headers.get("content-length")).toBe(String(body.length));
    expect(response.headers.get("cache-control")).toMatch(/^public, max-age=\d+, immutable$/);
    const etag = response.headers.get("etag")!;
    expect((await fetchFile(manifest.template!.files.templateJson!, { "if-none-match": etag })).status).toBe(304);
  });

  it("GET …/files – Range bytes=10-19 → 206 with those bytes; past the end → 416", async () => {
    const url = manifest.template!.files.assets["img_0.jpg"]!;
    const whole = fixture("lottie/weather-card/images/img_0.jpg");
    const part = await fetchFile(url, { range: "bytes=10-19" });
    expect(part.status).toBe(206);
    expect(part.headers.get("content-range")).toBe(`bytes 10-19/${whole.length}`);
    expect(Buffer.from(await part.arrayBuffer()).equals(whole.subarray(10, 20))).toBe(true);
    const past = await fetchFile(url, { range: `bytes=${whole.length}-` });
    expect(past.status).toBe(416);
    expect(past.headers.get("content-range")).toBe(`bytes */${whole.length}`);
  });

  it.each([
    ["a changed signature", (u: URL) => u.searchParams.set("signature", "A".repeat(43))],
    ["a later expiry", (u: URL) => u.searchParams.set("expires", String(Number(u.searchParams.get("expires")) + 3600))],
    ["another file id", (u: URL) => (u.pathname = u.pathname.replace(/files\/[0-9a-f-]{36}/, "files/00000000-0000-4000-8000-000000000000"))],
    ["no signature", (u: URL) => u.searchParams.delete("signature")],
    ["another file name", (u: URL) => (u.pathname = u.pathname.replace(/[^/]+$/, "other.json"))],
  ])("GET …/files – %s → 404", async (_case, change) => {
    const url = new URL(manifest.template!.files.templateJson!);
    change(url);
    await problemOf(await fetchFile(url.toString()), 404);
  });

  it.each([
    ["bytes=0-0", 100, { start: 0, end: 0 }],
    ["bytes=90-", 100, { start: 90, end: 99 }],
    ["bytes=-10", 100, { start: 90, end: 99 }],
    ["bytes=50-500", 100, { start: 50, end: 99 }],
    ["bytes=100-", 100, "unsatisfiable"],
    ["bytes=-0", 100, "unsatisfiable"],
    ["bytes=5-1", 100, "unsatisfiable"],
    ["bytes=0-1,5-6", 100, null],
    ["bytes=0-1,2-3", 100, { start: 0, end: 3 }],
    ["bytes=0-9,5-20", 100, { start: 0, end: 20 }],
    ["bytes=0-1,200-300", 100, { start: 0, end: 1 }],
    ["bytes=200-300,400-", 100, "unsatisfiable"],
    ["Bytes=10-19", 100, { start: 10, end: 19 }],
    ["bytes= 10 - 19 ", 100, { start: 10, end: 19 }],
    ["bytes=-500", 100, "unsatisfiable"],
    ["bytes=0-", 0, "unsatisfiable"],
    ["bytes=a-b", 100, null],
    ["bytes=10", 100, null],
    ["bytes", 100, null],
    ["items=0-1", 100, null],
    ["items=500-", 100, null],
    ["", 100, null],
    [null, 100, null],
  ] as const)("parseRange(%s) of %i bytes", (header, size, expected) => {
    expect(parseRange(header, size)).toEqual(expected);
  });
});

describe("GET /embed/{slug} and /embed?session=", () => {
  it("GET /embed/{slug} – the player document: manifest inlined, player script, CSP that any site may frame", async () => {
    const response = await embedPageRoute(new Request(`http://localhost/embed/${share.slug}`), routeParams({ slug: share.slug }));
    expect(response.status).toBe(200);
    const csp = response.headers.get("content-security-policy")!;
    expect(csp).toContain("frame-ancestors *");
    expect(csp).toContain("script-src 'self';");
    expect(response.headers.get("cache-control")).toBe("no-store");
    const html = await response.text();
    expect(html).toContain('<html lang="pt-PT" dir="ltr">');
    expect(html).toContain('<script src="/player/player.js" defer></script>');
    const json = /<script id="reelbind-manifest" type="application\/json">(.*?)<\/script>/s.exec(html)![1]!;
    expect((JSON.parse(json) as PageManifest).shareId).toBe(share.id);
  });

  it("GET /embed/{slug} – text from the share cannot close the manifest's script element", async () => {
    const project = await createTestProjectIn(organizationId, "Embed escaping");
    const own = await createCredential(project.id);
    const hostile = await putShare(project.id, "DEV", {
      publicTitle: "</script><script>alert(1)</script>",
      personalizationData: { City: "</script><img src=x onerror=alert(1)>\u2028" },
      apiCredentialId: own.id,
    });
    const html = await (await embedPageRoute(new Request("http://localhost/"), routeParams({ slug: hostile.slug }))).text();
    expect(html.match(/<\/script>/g)).toHaveLength(2);
    expect(html).not.toContain("<img src=x");
    const json = /<script id="reelbind-manifest" type="application\/json">(.*?)<\/script>/s.exec(html)![1]!;
    expect((JSON.parse(json) as PageManifest).bindings.data.City).toBe("</script><img src=x onerror=alert(1)>\u2028");
  });

  it("GET /embed?session= – frame-ancestors lists the session's allowed origins; no session → 400; a bad one → 401; unknown share → 404", async () => {
    const session = await okJson<{ token: string }>(await createSession({ channel: "PROD", allowedOrigins: ["http://127.0.0.1:4000"] }), 201);
    const page = await embedSessionPageRoute(new Request(`http://localhost/embed?session=${encodeURIComponent(session.token)}`));
    expect(page.status).toBe(200);
    expect(page.headers.get("content-security-policy")).toContain("frame-ancestors 'self' http://127.0.0.1:4000");

    expect((await embedSessionPageRoute(new Request("http://localhost/embed"))).status).toBe(400);
    const expired = await embedSessionPageRoute(new Request("http://localhost/embed?session=abc.def.ghi"));
    expect(expired.status).toBe(401);
    expect(expired.headers.get("content-type")).toBe("text/html; charset=utf-8");
    expect(await expired.text()).toContain("This video link has expired or is not valid.");
    const missing = await embedPageRoute(new Request("http://localhost/embed/nosuch"), routeParams({ slug: "nosuch" }));
    expect(missing.status).toBe(404);
    expect(await missing.text()).toContain("This video is not available.");
  });
});

describe("GET /api/embed/posters/{slug}", () => {
  const getPoster = (slug: string) => posterRoute(new Request(`http://localhost/api/embed/posters/${slug}`), routeParams({ slug }));

  it("GET /api/embed/posters/{slug} – without a poster file: a PNG frame rendered with the share's data, the same bytes the next time", async () => {
    const response = await getPoster(share.slug);
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("image/png");
    const png = Buffer.from(await response.arrayBuffer());
    expect(png.subarray(1, 4).toString("latin1")).toBe("PNG");
    expect(Buffer.from(await (await getPoster(share.slug)).arrayBuffer()).equals(png)).toBe(true);
  });

  it("GET /api/embed/posters/{slug} – a Raster template's poster file as uploaded", async () => {
    const project = await createTestProjectIn(organizationId, "Poster raster");
    const own = await createCredential(project.id);
    const parts = [
      { name: "kind", value: "Raster" },
      { name: "name", value: "Raster" },
      { name: "videoFile", filename: "bg.mp4", contentType: "video/mp4", content: fixture("video/background-640x360-6s.mp4") },
      { name: "posterFile", filename: "poster.png", contentType: "image/png", content: fixture("video/poster-640x360.png") },
    ];
    await okJson(await upload(admin, project.id, parts), 201);
    const dev = await putShare(project.id, "DEV", { publicTitle: "Raster", apiCredentialId: own.id });
    const response = await getPoster(dev.slug);
    expect(response.status).toBe(200);
    expect(Buffer.from(await response.arrayBuffer()).equals(fixture("video/poster-640x360.png"))).toBe(true);
  });

  it("GET /api/embed/posters/{slug} – unknown slug, or a share that serves no template → 404", async () => {
    await problemOf(await getPoster("nosuchslug"), 404);
    const project = await createTestProjectIn(organizationId, "Poster none");
    const empty = await putShare(project.id, "PROD", { publicTitle: "Nothing yet", apiCredentialId: (await createCredential(project.id)).id });
    await problemOf(await getPoster(empty.slug), 404);
  });
});
