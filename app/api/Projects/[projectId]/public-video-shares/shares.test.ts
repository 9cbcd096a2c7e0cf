import { randomUUID } from "node:crypto";
import { and, eq, inArray } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import type { z } from "zod";
import { authorizeProject } from "@/lib/auth/project-access";
import { revokeCredential as revokeCredentialVerb } from "@/lib/credentials/credentials";
import { getDb } from "@/lib/db";
import { auditEvents, publicVideoShares, shareSlugs, type Role } from "@/lib/db/schema";
import { findPublicShare } from "@/lib/shares/public-share";
import { disableShare, listShares, putShare, restoreShare, rotateShareSlug } from "@/lib/shares/shares";
import { permissionOfVerb } from "@/lib/services/verbs";
import { putShareBody, type rotatedSlugSchema, type shareSchema } from "@/lib/shares/contract";
import { apiRequest, createTestMember, createTestProject, createTestProjectIn, routeParams } from "@/testing/factories";
import { makeLottie, textLayer } from "@/testing/fixtures/lottie-builders";
import { POST as revokeCredentialRoute } from "@/app/api/credentials/[id]/revoke/route";
import { POST as createCredentialRoute } from "@/app/api/credentials/route";
import { GET as auditEventsRoute } from "../audit-events/route";
import { POST as previewRoute } from "../templates/[templateId]/preview/route";
import { uploadWithManifest } from "@/testing/template-api";
import { POST as disableRoute } from "./[channel]/disable/route";
import { POST as restoreRoute } from "./[channel]/restore/route";
import { POST as rotateSlugRoute } from "./[channel]/rotate-slug/route";
import { PUT as putRoute } from "./[channel]/route";
import { GET as listRoute } from "./route";
import { sessionActor } from "@/lib/auth/authenticate";

type ShareJson = z.infer<typeof shareSchema>;
type RotatedJson = z.infer<typeof rotatedSlugSchema>;
type Problem = { type: string; status: number; code: string; errors?: { path: string; message: string }[] };

let home: Awaited<ReturnType<typeof createTestProject>>;
let elsewhere: Awaited<ReturnType<typeof createTestProject>>;
let admin: { user: { id: string }; token: string };
let elsewhereAdmin: string;

beforeAll(async () => {
  home = await createTestProject();
  elsewhere = await createTestProject();
  admin = await createTestMember("OrganizationAdmin", { organizationId: home.organization.id });
  elsewhereAdmin = (await createTestMember("OrganizationAdmin", { organizationId: elsewhere.organization.id })).token;
});

// ── calls ──────────────────────────────────────────────────────────────────────────────

const sharesUrl = (projectId: string) => `/api/Projects/${projectId}/public-video-shares`;

const list = (token: string | undefined, projectId: string) =>
  listRoute(apiRequest("GET", sharesUrl(projectId), { token }), routeParams({ projectId }));
const put = (token: string | undefined, projectId: string, channel: string, body: unknown) =>
  putRoute(apiRequest("PUT", `${sharesUrl(projectId)}/${channel}`, { token, body }), routeParams({ projectId, channel }));
const putRaw = (token: string, projectId: string, channel: string, rawBody: string, contentType: string) =>
  putRoute(
    apiRequest("PUT", `${sharesUrl(projectId)}/${channel}`, { token, rawBody, headers: { "content-type": contentType } }),
    routeParams({ projectId, channel }),
  );
const disable = (token: string | undefined, projectId: string, channel: string) =>
  disableRoute(apiRequest("POST", `${sharesUrl(projectId)}/${channel}/disable`, { token }), routeParams({ projectId, channel }));
const restore = (token: string | undefined, projectId: string, channel: string) =>
  restoreRoute(apiRequest("POST", `${sharesUrl(projectId)}/${channel}/restore`, { token }), routeParams({ projectId, channel }));
const rotateSlug = (token: string | undefined, projectId: string, channel: string) =>
  rotateSlugRoute(apiRequest("POST", `${sharesUrl(projectId)}/${channel}/rotate-slug`, { token }), routeParams({ projectId, channel }));
const listAuditEvents = (token: string | undefined, projectId: string) =>
  auditEventsRoute(apiRequest("GET", `/api/Projects/${projectId}/audit-events`, { token }), routeParams({ projectId }));

async function createCredential(token: string, projectId: string): Promise<string> {
  const response = await createCredentialRoute(
    apiRequest("POST", "/api/credentials", { token, body: { projectId } }),
    routeParams({}),
  );
  expect(response.status).toBe(201);
  return ((await response.json()) as { id: string }).id;
}

async function revokeCredential(token: string, id: string): Promise<void> {
  const response = await revokeCredentialRoute(apiRequest("POST", `/api/credentials/${id}/revoke`, { token }), routeParams({ id }));
  expect(response.status).toBe(200);
}

/** A new project in the home organization (the admin reaches it) with an active credential. */
async function newProject() {
  const project = await createTestProjectIn(home.organization.id, `Shares ${randomUUID()}`);
  return { projectId: project.id, credentialId: await createCredential(admin.token, project.id) };
}

async function okJson<T>(response: Response, status = 200): Promise<T> {
  const body = await response.text();
  expect(response.status, body).toBe(status);
  expect(response.headers.get("content-type")).toBe("application/json");
  return JSON.parse(body) as T;
}

/** The share PUT created; its data warnings (none: no template is served) are checked and left out. */
async function createShare(projectId: string, credentialId: string, channel = "PROD", extra: Record<string, unknown> = {}): Promise<ShareJson> {
  const { warnings, ...share } = await okJson<ShareJson & { warnings: string[] }>(
    await put(admin.token, projectId, channel, { publicTitle: "Spring", apiCredentialId: credentialId, ...extra }),
    201,
  );
  expect(warnings).toEqual([]);
  return share;
}

async function auditActionsFor(shareId: string): Promise<string[]> {
  const rows = await (await getDb())
    .select({ action: auditEvents.action })
    .from(auditEvents)
    .where(and(eq(auditEvents.targetType, "public_video_share"), eq(auditEvents.targetId, shareId)));
  return rows.map((row) => row.action).sort();
}

async function slugRowsFor(shareId: string) {
  return (await getDb()).select().from(shareSlugs).where(eq(shareSlugs.shareId, shareId));
}

const slugPattern = /^[0-9A-Za-z]{22}$/;

// ── PUT ────────────────────────────────────────────────────────────────────────────────

describe("PUT /api/Projects/:id/public-video-shares/:channel – create and replace", () => {
  it("PUT …/PROD – first PUT creates an Enabled share with a fresh slug; omitted optional fields are null", async () => {
    const { projectId, credentialId } = await newProject();
    const share = await okJson<ShareJson>(
      await put(admin.token, projectId, "PROD", { publicTitle: "  Spring campaign  ", apiCredentialId: credentialId }),
      201,
    );
    expect(share).toMatchObject({
      projectId,
      channel: "PROD",
      status: "Enabled",
      publicTitle: "Spring campaign",
      publicSubtitle: null,
      locale: null,
      ctaLabel: null,
      ctaUrl: null,
      personalizationData: null,
      apiCredentialId: credentialId,
      disabledAt: null,
      disabledBy: null,
      restoredAt: null,
      restoredBy: null,
    });
    expect(share.slug).toMatch(slugPattern);
    expect(share.url).toMatch(new RegExp(`^https?://[^/]+/v/${share.slug}$`));
    expect(share.createdAt).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    expect(share.updatedAt).toBe(share.createdAt);
    expect(await auditActionsFor(share.id)).toEqual(["share.created"]);

    const listed = await okJson<{ items: ShareJson[] }>(await list(admin.token, projectId));
    expect(listed.items).toEqual([{ ...share, warnings: undefined }]);
  });

  it("PUT …/PROD – a second PUT with another body replaces every field (200, same id and slug)", async () => {
    const { projectId, credentialId } = await newProject();
    const other = await createCredential(admin.token, projectId);
    const created = await createShare(projectId, credentialId, "PROD", {
      publicSubtitle: "Old subtitle",
      locale: "en-US",
      ctaLabel: "Book",
      ctaUrl: "https://example.com/book",
      personalizationData: { firstName: "Ada" },
    });

    const replaced = await okJson<ShareJson>(
      await put(admin.token, projectId, "PROD", { publicTitle: "Summer", locale: "pt-BR", apiCredentialId: other }),
    );
    expect(replaced).toMatchObject({
      id: created.id,
      slug: created.slug,
      url: created.url,
      status: "Enabled",
      createdAt: created.createdAt,
      publicTitle: "Summer",
      publicSubtitle: null,
      locale: "pt-BR",
      ctaLabel: null,
      ctaUrl: null,
      personalizationData: null,
      apiCredentialId: other,
    });
    expect(Date.parse(replaced.updatedAt)).toBeGreaterThanOrEqual(Date.parse(created.updatedAt));
    expect(await auditActionsFor(created.id)).toEqual(["share.created", "share.updated"]);
  });

  it("PUT …/PROD – locale: a BCP 47 language-REGION tag (ar-EG, es-419, zh-Hant-TW), stored canonical (EN-us → en-US); a bad one or a bare language → 422", async () => {
    const { projectId, credentialId } = await newProject();
    for (const [sent, stored] of [["ar-EG", "ar-EG"], ["es-419", "es-419"], ["EN-us", "en-US"], ["zh-hant-tw", "zh-Hant-TW"]]) {
      const share = await okJson<ShareJson>(await put(admin.token, projectId, "PROD", { publicTitle: "Spring", locale: sent, apiCredentialId: credentialId }), sent === "ar-EG" ? 201 : 200);
      expect(share.locale, sent).toBe(stored);
    }
    for (const bad of ["en_US", "ar"]) {
      const refused = await put(admin.token, projectId, "PROD", { publicTitle: "Spring", locale: bad, apiCredentialId: credentialId });
      expect(refused.status, bad).toBe(422);
      const problem = (await refused.json()) as Problem;
      expect(problem.errors?.find((e) => e.path === "locale")?.message).toBe("must be language-REGION, a BCP 47 tag such as en-US, de-DE, pt-BR or ar-EG");
    }
  });

  it("PUT …/PROD – the same body twice is idempotent: same share, updatedAt unchanged, one audit event", async () => {
    const { projectId, credentialId } = await newProject();
    const body = {
      publicTitle: "Spring",
      publicSubtitle: "For you",
      locale: "en-GB",
      ctaLabel: "Book",
      ctaUrl: "https://example.com/book?x=1",
      personalizationData: { b: 2, a: { nested: [1, "two", null, true] }, longerKey: "x" },
      apiCredentialId: credentialId,
    };
    const first = await okJson<ShareJson>(await put(admin.token, projectId, "PROD", body), 201);
    const second = await okJson<ShareJson>(await put(admin.token, projectId, "PROD", body));
    expect(second).toEqual(first);
    expect(second.personalizationData).toEqual(body.personalizationData);
    expect(await auditActionsFor(first.id)).toEqual(["share.created"]);

    const events = await okJson<{ items: { action: string; targetId: string }[] }>(await listAuditEvents(admin.token, projectId));
    expect(events.items.filter((e) => e.targetId === first.id)).toHaveLength(1);
  });

  it.each<{ name: string; fields: Record<string, unknown> }>([
    { name: "160-char publicTitle", fields: { publicTitle: "t".repeat(160) } },
    { name: "160 emoji publicTitle (length in code points)", fields: { publicTitle: "😀".repeat(160) } },
    { name: "280-char publicSubtitle", fields: { publicTitle: "Title", publicSubtitle: "s".repeat(280) } },
    {
      name: "every optional field null",
      fields: { publicTitle: "Title", publicSubtitle: null, locale: null, ctaLabel: null, ctaUrl: null, personalizationData: null },
    },
    // {"k":"…"} is 8 bytes of JSON around the value: exactly 16 384 bytes in all.
    { name: "personalizationData of exactly 16 KB", fields: { publicTitle: "Title", personalizationData: { k: "v".repeat(16 * 1024 - 8) } } },
    { name: "http: ctaUrl", fields: { publicTitle: "Title", ctaLabel: "Go", ctaUrl: "http://example.com" } },
  ])("PUT /api/Projects/:id/public-video-shares/PROD – $name → 201", async ({ fields }) => {
    const { projectId, credentialId } = await newProject();
    const share = await okJson<ShareJson>(await put(admin.token, projectId, "PROD", { ...fields, apiCredentialId: credentialId }), 201);
    expect(share.publicTitle).toBe(fields.publicTitle);
    expect(share.publicSubtitle).toBe(fields.publicSubtitle ?? null);
    expect(share.personalizationData).toEqual(fields.personalizationData ?? null);
    const [row] = await (await getDb()).select().from(publicVideoShares).where(eq(publicVideoShares.id, share.id));
    expect(row?.publicTitle).toBe(fields.publicTitle);
  });
});

describe("PUT /api/Projects/:id/public-video-shares/PROD – validation", () => {
  let projectId: string;
  let credentialId: string;
  let revokedCredentialId: string;
  let foreignCredentialId: string;

  beforeAll(async () => {
    ({ projectId, credentialId } = await newProject());
    revokedCredentialId = await createCredential(admin.token, projectId);
    await revokeCredential(admin.token, revokedCredentialId);
    foreignCredentialId = await createCredential(elsewhereAdmin, elsewhere.project.id);
  });

  // patch is applied over a valid body; undefined values remove the field.
  it.each<{ name: string; patch: () => Record<string, unknown>; path: string }>([
    { name: "publicTitle missing", patch: () => ({ publicTitle: undefined }), path: "publicTitle" },
    { name: "publicTitle empty", patch: () => ({ publicTitle: "" }), path: "publicTitle" },
    { name: "publicTitle whitespace only", patch: () => ({ publicTitle: " \t\n " }), path: "publicTitle" },
    { name: "publicTitle 161 chars", patch: () => ({ publicTitle: "t".repeat(161) }), path: "publicTitle" },
    { name: "publicTitle 161 emoji", patch: () => ({ publicTitle: "😀".repeat(161) }), path: "publicTitle" },
    { name: "publicTitle not a string", patch: () => ({ publicTitle: 42 }), path: "publicTitle" },
    { name: "publicSubtitle 281 chars", patch: () => ({ publicSubtitle: "s".repeat(281) }), path: "publicSubtitle" },
    { name: "locale en_US", patch: () => ({ locale: "en_US" }), path: "locale" },
    { name: "locale en-", patch: () => ({ locale: "en-" }), path: "locale" },
    { name: "locale x", patch: () => ({ locale: "x" }), path: "locale" },
    { name: "locale english", patch: () => ({ locale: "english" }), path: "locale" },
    { name: "ctaLabel without ctaUrl", patch: () => ({ ctaLabel: "Book" }), path: "ctaUrl" },
    { name: "ctaUrl without ctaLabel", patch: () => ({ ctaUrl: "https://example.com" }), path: "ctaLabel" },
    { name: "ctaUrl javascript:", patch: () => ({ ctaLabel: "Go", ctaUrl: "javascript:alert(1)" }), path: "ctaUrl" },
    { name: "ctaUrl JaVaScRiPt:", patch: () => ({ ctaLabel: "Go", ctaUrl: "JaVaScRiPt:alert(1)" }), path: "ctaUrl" },
    { name: "ctaUrl data:", patch: () => ({ ctaLabel: "Go", ctaUrl: "data:text/html,<script>" }), path: "ctaUrl" },
    { name: "ctaUrl with leading whitespace", patch: () => ({ ctaLabel: "Go", ctaUrl: " https://example.com" }), path: "ctaUrl" },
    { name: "ctaUrl protocol-relative", patch: () => ({ ctaLabel: "Go", ctaUrl: "//example.com" }), path: "ctaUrl" },
    { name: "ctaUrl relative", patch: () => ({ ctaLabel: "Go", ctaUrl: "/relative" }), path: "ctaUrl" },
    { name: "ctaUrl ftp:", patch: () => ({ ctaLabel: "Go", ctaUrl: "ftp://example.com" }), path: "ctaUrl" },
    { name: "ctaUrl https:// without host", patch: () => ({ ctaLabel: "Go", ctaUrl: "https://" }), path: "ctaUrl" },
    { name: "personalizationData an array", patch: () => ({ personalizationData: [1, 2] }), path: "personalizationData" },
    { name: "personalizationData a string", patch: () => ({ personalizationData: "{}" }), path: "personalizationData" },
    {
      name: "personalizationData over 16 KB",
      patch: () => ({ personalizationData: { k: "v".repeat(16 * 1024 - 7) } }),
      path: "personalizationData",
    },
    { name: "apiCredentialId missing", patch: () => ({ apiCredentialId: undefined }), path: "apiCredentialId" },
    { name: "apiCredentialId not a UUID", patch: () => ({ apiCredentialId: "cred-1" }), path: "apiCredentialId" },
    { name: "apiCredentialId unknown", patch: () => ({ apiCredentialId: randomUUID() }), path: "apiCredentialId" },
    { name: "apiCredentialId revoked", patch: () => ({ apiCredentialId: revokedCredentialId }), path: "apiCredentialId" },
    { name: "apiCredentialId of another project", patch: () => ({ apiCredentialId: foreignCredentialId }), path: "apiCredentialId" },
    { name: "unknown field slug", patch: () => ({ slug: "mySlug" }), path: "slug" },
    { name: "unknown field status", patch: () => ({ status: "Disabled" }), path: "status" },
    { name: "unknown field id", patch: () => ({ id: randomUUID() }), path: "id" },
  ])("PUT /api/Projects/:id/public-video-shares/PROD – $name → 422 at $path", async ({ patch, path }) => {
    const body = JSON.parse(JSON.stringify({ publicTitle: "Spring", apiCredentialId: credentialId, ...patch() }));
    const response = await put(admin.token, projectId, "PROD", body);
    expect(response.status).toBe(422);
    expect(response.headers.get("content-type")).toBe("application/problem+json");
    const problem = (await response.json()) as Problem;
    expect(problem).toMatchObject({ status: 422, code: "validation_failed" });
    expect(problem.errors?.map((e) => e.path)).toContain(path);

    const listed = await okJson<{ items: ShareJson[] }>(await list(admin.token, projectId));
    expect(listed.items).toEqual([]);
  });

  it("PUT /api/Projects/:id/public-video-shares/PROD – several bad fields → 422 listing each path", async () => {
    const response = await put(admin.token, projectId, "PROD", { publicTitle: "", locale: "en_US", apiCredentialId: "x", slug: "s" });
    expect(response.status).toBe(422);
    const paths = ((await response.json()) as Problem).errors?.map((e) => e.path);
    expect(paths).toEqual(expect.arrayContaining(["publicTitle", "locale", "apiCredentialId", "slug"]));
  });

  it.each([
    { name: "wrong content type", rawBody: "{}", contentType: "text/plain", status: 415 },
    { name: "form body", rawBody: "publicTitle=x", contentType: "application/x-www-form-urlencoded", status: 415 },
    { name: "malformed JSON", rawBody: '{"publicTitle":', contentType: "application/json", status: 400 },
    { name: "empty body", rawBody: "", contentType: "application/json", status: 400 },
    { name: "a JSON array", rawBody: "[]", contentType: "application/json", status: 422 },
  ])("PUT /api/Projects/:id/public-video-shares/PROD – $name → $status", async ({ rawBody, contentType, status }) => {
    const response = await putRaw(admin.token, projectId, "PROD", rawBody, contentType);
    expect(response.status).toBe(status);
    expect(response.headers.get("content-type")).toBe("application/problem+json");
    expect(((await response.json()) as Problem).status).toBe(status);
  });

  it("PUT /api/Projects/:id/public-video-shares/PROD – personalizationData null is stored as null", async () => {
    const { projectId, credentialId } = await newProject();
    const share = await okJson<ShareJson>(
      await put(admin.token, projectId, "PROD", { publicTitle: "Spring", personalizationData: null, apiCredentialId: credentialId }),
      201,
    );
    expect(share.personalizationData).toBeNull();
  });

  it("PUT /api/Projects/:id/public-video-shares/PROD – consentMode: not_required when omitted, required kept, anything else → 422", async () => {
    const { projectId, credentialId } = await newProject();
    const body = { publicTitle: "Spring", apiCredentialId: credentialId };
    const created = await okJson<ShareJson & { consentMode: string }>(await put(admin.token, projectId, "PROD", body), 201);
    expect(created.consentMode).toBe("not_required");
    const required = await okJson<ShareJson & { consentMode: string }>(await put(admin.token, projectId, "PROD", { ...body, consentMode: "required" }));
    expect(required.consentMode).toBe("required");
    expect(await auditActionsFor(created.id)).toEqual(["share.created", "share.updated"]);
    const refused = await put(admin.token, projectId, "PROD", { ...body, consentMode: "optional" });
    expect(refused.status).toBe(422);
    expect(((await refused.json()) as { errors: { path: string }[] }).errors.map((e) => e.path)).toEqual(["consentMode"]);
  });
});

// Text PostgreSQL cannot store (NUL, lone surrogates) and JSON values it normalizes.
describe("PUT /api/Projects/:id/public-video-shares/PROD – values at the edge of JSON and PostgreSQL", () => {
  let projectId: string;
  let credentialId: string;

  beforeAll(async () => {
    ({ projectId, credentialId } = await newProject());
  });

  it.each([
    { name: "NUL in publicTitle", rawFields: '"publicTitle":"a\\u0000b"', path: "publicTitle" },
    { name: "lone surrogate in publicTitle", rawFields: '"publicTitle":"a\\ud800b"', path: "publicTitle" },
    { name: "NUL in personalizationData", rawFields: '"publicTitle":"a","personalizationData":{"name":"a\\u0000b"}', path: "personalizationData.name" },
    {
      name: "lone surrogate in personalizationData",
      rawFields: '"publicTitle":"a","personalizationData":{"name":"a\\ud800b"}',
      path: "personalizationData.name",
    },
  ])("PUT /api/Projects/:id/public-video-shares/PROD – $name → 422, not a 500 or a silently altered value", async ({ rawFields, path }) => {
    const rawBody = `{${rawFields},"apiCredentialId":"${credentialId}"}`;
    const response = await putRaw(admin.token, projectId, "PROD", rawBody, "application/json");
    const text = await response.text();
    expect(response.status, text).toBe(422);
    expect((JSON.parse(text) as Problem).errors?.map((e) => e.path)).toContain(path);
  });

  it.each([
    { name: "a -0 in personalizationData", rawFields: '"personalizationData":{"n":-0}' },
    { name: "numbers jsonb rewrites (1.0, 1e2)", rawFields: '"personalizationData":{"a":1.0,"b":1e2}' },
  ])("PUT /api/Projects/:id/public-video-shares/STAGING – $name, sent twice, is a no-op the second time", async ({ rawFields }) => {
    const rawBody = `{"publicTitle":"Same",${rawFields},"apiCredentialId":"${credentialId}"}`;
    const first = await putRaw(admin.token, projectId, "STAGING", rawBody, "application/json");
    expect([200, 201]).toContain(first.status);
    const before = (await first.json()) as ShareJson;
    const second = await okJson<ShareJson>(await putRaw(admin.token, projectId, "STAGING", rawBody, "application/json"));
    expect(second.updatedAt).toBe(before.updatedAt);
  });

  it("PUT /api/Projects/:id/public-video-shares/DEV – a __proto__ key in personalizationData is kept or refused, never dropped", async () => {
    const rawBody = `{"publicTitle":"Proto","personalizationData":{"__proto__":{"x":1},"y":2},"apiCredentialId":"${credentialId}"}`;
    const response = await putRaw(admin.token, projectId, "DEV", rawBody, "application/json");
    if (response.status === 422) return;
    const share = await okJson<ShareJson>(response, 201);
    expect(share.personalizationData).toEqual(JSON.parse('{"__proto__":{"x":1},"y":2}'));
  });
});

// ── channels, tenants, roles ───────────────────────────────────────────────────────────

describe("public-video-shares – channels that name no share", () => {
  let projectId: string;
  let credentialId: string;

  beforeAll(async () => {
    ({ projectId, credentialId } = await newProject());
    await createShare(projectId, credentialId, "PROD");
  });

  const calls = {
    PUT: (channel: string) => put(admin.token, projectId, channel, { publicTitle: "Spring", apiCredentialId: credentialId }),
    disable: (channel: string) => disable(admin.token, projectId, channel),
    restore: (channel: string) => restore(admin.token, projectId, channel),
    "rotate-slug": (channel: string) => rotateSlug(admin.token, projectId, channel),
  };

  it.each(
    (["dev", "QA", "prod", "PROD ", "DEV%2F"] as const).flatMap((channel) =>
      (Object.keys(calls) as (keyof typeof calls)[]).map((call) => ({ call, channel })),
    ),
  )("$call /api/Projects/:id/public-video-shares/$channel – not a channel → 404", async ({ call, channel }) => {
    const response = await calls[call](channel);
    expect(response.status).toBe(404);
    expect(response.headers.get("content-type")).toBe("application/problem+json");
  });

  it.each(["disable", "restore", "rotate-slug"] as const)(
    "POST /api/Projects/:id/public-video-shares/STAGING/%s – the channel has no share → 404",
    async (call) => {
      const response = await calls[call]("STAGING");
      expect(response.status).toBe(404);
      expect(((await response.json()) as Problem).code).toBe("not_found");
    },
  );

  it("public-video-shares – rejected channels created nothing", async () => {
    const listed = await okJson<{ items: ShareJson[] }>(await list(admin.token, projectId));
    expect(listed.items.map((s) => s.channel)).toEqual(["PROD"]);
  });
});

describe("public-video-shares – projects the caller cannot see → 404", () => {
  let credentialId: string;
  let share: ShareJson;

  beforeAll(async () => {
    credentialId = await createCredential(admin.token, home.project.id);
    share = await createShare(home.project.id, credentialId, "PROD");
  });

  const endpoints = {
    "GET list": (token: string, projectId: string) => list(token, projectId),
    PUT: (token: string, projectId: string) => put(token, projectId, "PROD", { publicTitle: "Hijack", apiCredentialId: credentialId }),
    disable: (token: string, projectId: string) => disable(token, projectId, "PROD"),
    restore: (token: string, projectId: string) => restore(token, projectId, "PROD"),
    "rotate-slug": (token: string, projectId: string) => rotateSlug(token, projectId, "PROD"),
    "GET audit-events": (token: string, projectId: string) => listAuditEvents(token, projectId),
  };
  const targets = {
    "another organization's project": () => home.project.id,
    "a random project UUID": () => randomUUID(),
    "a projectId that is not a UUID": () => "not-a-uuid",
  };

  it.each(
    (Object.keys(targets) as (keyof typeof targets)[]).flatMap((target) =>
      (Object.keys(endpoints) as (keyof typeof endpoints)[]).map((endpoint) => ({ target, endpoint })),
    ),
  )("$endpoint /api/Projects/:id/public-video-shares – $target → 404", async ({ target, endpoint }) => {
    const response = await endpoints[endpoint](elsewhereAdmin, targets[target]());
    expect(response.status).toBe(404);
    expect(response.headers.get("content-type")).toBe("application/problem+json");
  });

  it("public-video-shares – another organization's admin changed nothing", async () => {
    const [row] = await (await getDb()).select().from(publicVideoShares).where(eq(publicVideoShares.id, share.id));
    expect(row).toMatchObject({ slug: share.slug, status: "Enabled", publicTitle: "Spring" });
    expect(await auditActionsFor(share.id)).toEqual(["share.created"]);
  });
});

describe("public-video-shares – role gates for every role", () => {
  const cases: { role: Role; scope: "organization" | "project"; allowed: boolean }[] = [
    { role: "Viewer", scope: "project", allowed: false },
    { role: "Viewer", scope: "organization", allowed: false },
    { role: "Editor", scope: "project", allowed: false },
    { role: "Editor", scope: "organization", allowed: false },
    { role: "ProjectManager", scope: "project", allowed: true },
    { role: "ProjectManager", scope: "organization", allowed: true },
    { role: "OrganizationAdmin", scope: "organization", allowed: true },
  ];

  async function roleFixture() {
    const { organization, project } = await createTestProject();
    const owner = (await createTestMember("OrganizationAdmin", { organizationId: organization.id })).token;
    const credentialId = await createCredential(owner, project.id);
    const prod = await okJson<ShareJson>(await put(owner, project.id, "PROD", { publicTitle: "Spring", apiCredentialId: credentialId }), 201);
    return { organization, project, credentialId, prod };
  }

  it.each(cases)(
    "GET list, PUT, disable, restore, rotate-slug, GET audit-events – $role on the $scope",
    async ({ role, scope, allowed }) => {
      const { organization, project, credentialId, prod } = await roleFixture();
      const { token } = await createTestMember(role, scope === "organization" ? { organizationId: organization.id } : { projectId: project.id });

      const responses = [
        await list(token, project.id),
        await put(token, project.id, "STAGING", { publicTitle: role, apiCredentialId: credentialId }),
        await disable(token, project.id, "PROD"),
        await restore(token, project.id, "PROD"),
        await rotateSlug(token, project.id, "PROD"),
        await listAuditEvents(token, project.id),
      ];
      expect(responses.map((r) => r.status)).toEqual(allowed ? [200, 201, 200, 200, 200, 200] : [200, 403, 403, 403, 403, 200]);

      for (const response of responses.filter((r) => r.status === 403)) {
        expect(response.headers.get("content-type")).toBe("application/problem+json");
        expect(((await response.json()) as { detail: string }).detail).toContain("ProjectManager");
      }
      if (!allowed) {
        const rows = await (await getDb()).select().from(publicVideoShares).where(eq(publicVideoShares.projectId, project.id));
        expect(rows).toHaveLength(1);
        expect(rows[0]).toMatchObject({ id: prod.id, slug: prod.slug, status: "Enabled", disabledAt: null });
      }
    },
  );

  it.each<{ name: string; token?: string; headers?: Record<string, string> }>([
    { name: "no token" },
    { name: "an unknown token", token: "rbk_notarealtokenatall" },
    { name: "Basic instead of Bearer", headers: { authorization: "Basic YTpi" } },
  ])("GET list, PUT, disable, restore, rotate-slug, GET audit-events – $name → 401", async ({ token, headers }) => {
    const { project, credentialId, prod } = await roleFixture();
    const url = sharesUrl(project.id);
    const params = routeParams({ projectId: project.id, channel: "PROD" });
    const responses = [
      await listRoute(apiRequest("GET", url, { token, headers }), params),
      await putRoute(apiRequest("PUT", `${url}/PROD`, { token, headers, body: { publicTitle: "x", apiCredentialId: credentialId } }), params),
      await disableRoute(apiRequest("POST", `${url}/PROD/disable`, { token, headers }), params),
      await restoreRoute(apiRequest("POST", `${url}/PROD/restore`, { token, headers }), params),
      await rotateSlugRoute(apiRequest("POST", `${url}/PROD/rotate-slug`, { token, headers }), params),
      await auditEventsRoute(apiRequest("GET", `/api/Projects/${project.id}/audit-events`, { token, headers }), params),
    ];
    expect(responses.map((r) => r.status)).toEqual([401, 401, 401, 401, 401, 401]);
    for (const response of responses) {
      expect(response.headers.get("www-authenticate")).toMatch(/^Bearer\b/);
      expect(response.headers.get("content-type")).toBe("application/problem+json");
    }
    const [row] = await (await getDb()).select().from(publicVideoShares).where(eq(publicVideoShares.id, prod.id));
    expect(row).toMatchObject({ slug: prod.slug, status: "Enabled", publicTitle: "Spring" });
  });

  it("the verbs check their own permission: an Editor's context reads, and is refused every change whatever its caller checked", async () => {
    const { project, credentialId, prod } = await roleFixture();
    const { user } = await createTestMember("Editor", { projectId: project.id });
    const db = await getDb();
    const actor = sessionActor({ id: user.id, email: user.email });
    const ctx = { db, actor, access: await authorizeProject(db, actor, project.id, "share.read") };
    expect([listShares, putShare, disableShare, restoreShare, rotateShareSlug].map(permissionOfVerb)).toEqual([
      "share.read",
      "share.write",
      "share.write",
      "share.write",
      "share.write",
    ]);

    expect((await listShares(ctx)).map((share) => share.id)).toEqual([prod.id]);
    // A verb refuses before its body runs, so the refusal may come as a throw, not a rejection: each call runs in an async function.
    const refused = (call: () => Promise<unknown>) => expect((async () => call())()).rejects.toMatchObject({ kind: "forbidden" });
    await refused(() => putShare(ctx, { channel: "STAGING", ...putShareBody.parse({ publicTitle: "No", apiCredentialId: credentialId }) }));
    await refused(() => disableShare(ctx, "PROD"));
    await refused(() => restoreShare(ctx, "PROD"));
    await refused(() => rotateShareSlug(ctx, "PROD"));

    const rows = await db.select().from(publicVideoShares).where(eq(publicVideoShares.projectId, project.id));
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ id: prod.id, slug: prod.slug, status: "Enabled", disabledAt: null });
    expect(await auditActionsFor(prod.id)).toEqual(["share.created"]);
  });
});

// ── disable / restore ──────────────────────────────────────────────────────────────────

describe("POST …/public-video-shares/:channel/disable and /restore", () => {
  it("POST …/PROD/disable – Disabled with who and when; again → 200 no-op, no new audit event", async () => {
    const { projectId, credentialId } = await newProject();
    const share = await createShare(projectId, credentialId);

    const disabled = await okJson<ShareJson>(await disable(admin.token, projectId, "PROD"));
    expect(disabled).toMatchObject({ id: share.id, slug: share.slug, status: "Disabled", disabledBy: admin.user.id, restoredAt: null });
    expect(disabled.disabledAt).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    expect(await auditActionsFor(share.id)).toEqual(["share.created", "share.disabled"]);

    const again = await okJson<ShareJson>(await disable(admin.token, projectId, "PROD"));
    expect(again).toEqual(disabled);
    expect(await auditActionsFor(share.id)).toEqual(["share.created", "share.disabled"]);
    expect(await findPublicShare(await getDb(), share.slug)).toBeNull();
  });

  it("POST …/PROD/restore – Enabled with who and when; again → 200 no-op; restore of an Enabled share is a no-op", async () => {
    const { projectId, credentialId } = await newProject();
    const share = await createShare(projectId, credentialId);
    const { user: other, token: otherToken } = await createTestMember("ProjectManager", { projectId });

    const untouched = await okJson<ShareJson>(await restore(admin.token, projectId, "PROD"));
    expect(untouched).toEqual(share);
    expect(await auditActionsFor(share.id)).toEqual(["share.created"]);

    const disabled = await okJson<ShareJson>(await disable(admin.token, projectId, "PROD"));
    const restored = await okJson<ShareJson>(await restore(otherToken, projectId, "PROD"));
    expect(restored).toMatchObject({
      status: "Enabled",
      disabledAt: disabled.disabledAt,
      disabledBy: admin.user.id,
      restoredBy: other.id,
    });
    expect(Date.parse(restored.restoredAt!)).toBeGreaterThanOrEqual(Date.parse(disabled.disabledAt!));

    const again = await okJson<ShareJson>(await restore(admin.token, projectId, "PROD"));
    expect(again).toEqual(restored);
    expect(await auditActionsFor(share.id)).toEqual(["share.created", "share.disabled", "share.restored"]);
    expect((await findPublicShare(await getDb(), share.slug))?.id).toBe(share.id);
  });

  it("PUT …/PROD – on a Disabled share replaces the configuration and keeps it Disabled", async () => {
    const { projectId, credentialId } = await newProject();
    const share = await createShare(projectId, credentialId);
    const disabled = await okJson<ShareJson>(await disable(admin.token, projectId, "PROD"));

    const replaced = await okJson<ShareJson>(await put(admin.token, projectId, "PROD", { publicTitle: "Autumn", apiCredentialId: credentialId }));
    expect(replaced).toMatchObject({
      id: share.id,
      slug: share.slug,
      publicTitle: "Autumn",
      status: "Disabled",
      disabledAt: disabled.disabledAt,
      disabledBy: admin.user.id,
    });
    expect(await findPublicShare(await getDb(), share.slug)).toBeNull();
  });
});

// ── rotate-slug ────────────────────────────────────────────────────────────────────────

describe("POST …/public-video-shares/:channel/rotate-slug", () => {
  it("POST …/PROD/rotate-slug – a new slug, the old one dead and retired, status unchanged", async () => {
    const db = await getDb();
    const { projectId, credentialId } = await newProject();
    const share = await createShare(projectId, credentialId);
    expect((await findPublicShare(db, share.slug))?.id).toBe(share.id);

    const rotated = await okJson<RotatedJson>(await rotateSlug(admin.token, projectId, "PROD"));
    expect(Object.keys(rotated).sort()).toEqual(["previousSlug", "share", "slug"]);
    expect(rotated.previousSlug).toBe(share.slug);
    expect(rotated.slug).toMatch(slugPattern);
    expect(rotated.slug).not.toBe(rotated.previousSlug);
    expect(rotated.share).toMatchObject({ id: share.id, slug: rotated.slug, status: "Enabled", publicTitle: share.publicTitle });
    expect(rotated.share.url.endsWith(`/v/${rotated.slug}`)).toBe(true);

    expect(await findPublicShare(db, rotated.previousSlug)).toBeNull();
    expect(await findPublicShare(db, rotated.slug)).toMatchObject({ id: share.id, slug: rotated.slug });

    const slugs = await slugRowsFor(share.id);
    expect(slugs).toHaveLength(2);
    expect(slugs.find((s) => s.slug === rotated.previousSlug)?.retiredAt).toBeInstanceOf(Date);
    expect(slugs.find((s) => s.slug === rotated.slug)?.retiredAt).toBeNull();
    expect(await auditActionsFor(share.id)).toEqual(["share.created", "share.slug_rotated"]);

    const listed = await okJson<{ items: ShareJson[] }>(await list(admin.token, projectId));
    expect(listed.items.map((s) => s.slug)).toEqual([rotated.slug]);
  });

  it("POST …/PROD/rotate-slug – a Disabled share stays Disabled; restored, it answers only on the new slug", async () => {
    const db = await getDb();
    const { projectId, credentialId } = await newProject();
    const share = await createShare(projectId, credentialId);
    await okJson(await disable(admin.token, projectId, "PROD"));

    const rotated = await okJson<RotatedJson>(await rotateSlug(admin.token, projectId, "PROD"));
    expect(rotated.share).toMatchObject({ status: "Disabled", slug: rotated.slug });
    expect(rotated.previousSlug).toBe(share.slug);
    expect(await findPublicShare(db, rotated.slug)).toBeNull();

    await okJson(await restore(admin.token, projectId, "PROD"));
    expect((await findPublicShare(db, rotated.slug))?.id).toBe(share.id);
    expect(await findPublicShare(db, rotated.previousSlug)).toBeNull();
  });

  it("PUT …/PROD – after a rotation keeps the rotated slug", async () => {
    const { projectId, credentialId } = await newProject();
    await createShare(projectId, credentialId);
    const rotated = await okJson<RotatedJson>(await rotateSlug(admin.token, projectId, "PROD"));
    const replaced = await okJson<ShareJson>(await put(admin.token, projectId, "PROD", { publicTitle: "New", apiCredentialId: credentialId }));
    expect(replaced.slug).toBe(rotated.slug);
  });
});

// ── findPublicShare ────────────────────────────────────────────────────────────────────

describe("findPublicShare", () => {
  it("findPublicShare – the share's public fields for an Enabled share", async () => {
    const { projectId, credentialId } = await newProject();
    const share = await createShare(projectId, credentialId, "PROD", { locale: "de-DE", ctaLabel: "Los", ctaUrl: "https://example.de" });
    expect(await findPublicShare(await getDb(), share.slug)).toEqual({
      id: share.id,
      organizationId: home.organization.id,
      projectId,
      channel: "PROD",
      slug: share.slug,
      publicTitle: "Spring",
      publicSubtitle: null,
      locale: "de-DE",
      ctaLabel: "Los",
      ctaUrl: "https://example.de",
      personalizationData: null,
      consentMode: "not_required",
      template: null,
    });
  });

  it("findPublicShare – null once the share's credential is revoked, through the route or the verb alike", async () => {
    const db = await getDb();
    const { projectId, credentialId } = await newProject();
    const viaRoute = await createShare(projectId, credentialId, "PROD");
    const otherCredential = await createCredential(admin.token, projectId);
    const viaVerb = await createShare(projectId, otherCredential, "DEV");
    expect(await findPublicShare(db, viaRoute.slug)).not.toBeNull();
    expect(await findPublicShare(db, viaVerb.slug)).not.toBeNull();

    await revokeCredential(admin.token, credentialId);
    const actor = sessionActor({ id: admin.user.id, email: "admin@test.example" });
    await revokeCredentialVerb({ db, actor, access: await authorizeProject(db, actor, projectId, "credential.write") }, otherCredential);

    expect(await findPublicShare(db, viaRoute.slug)).toBeNull();
    expect(await findPublicShare(db, viaVerb.slug)).toBeNull();
    // Restoring does not bring back a share whose credential is revoked.
    expect((await okJson<ShareJson>(await restore(admin.token, projectId, "PROD"))).status).toBe("Enabled");
    expect(await findPublicShare(db, viaRoute.slug)).toBeNull();
  });

  it("findPublicShare – null while Disabled, found again after restore", async () => {
    const db = await getDb();
    const { projectId, credentialId } = await newProject();
    const share = await createShare(projectId, credentialId);
    await okJson(await disable(admin.token, projectId, "PROD"));
    expect(await findPublicShare(db, share.slug)).toBeNull();
    await okJson(await restore(admin.token, projectId, "PROD"));
    expect((await findPublicShare(db, share.slug))?.id).toBe(share.id);
  });

  it.each([
    { name: "an unknown slug", slug: "A".repeat(22) },
    { name: "an empty slug", slug: "" },
    { name: "a slug with a dash", slug: "abc-def" },
    { name: "a path", slug: "../v/abc" },
    { name: "SQL", slug: "' or '1'='1" },
    { name: "a very long slug", slug: "a".repeat(10_000) },
    { name: "a slug with a NUL byte", slug: "abc\u0000" },
  ])("findPublicShare – $name → null", async ({ slug }) => {
    expect(await findPublicShare(await getDb(), slug)).toBeNull();
  });
});

// ── concurrency ────────────────────────────────────────────────────────────────────────

describe("public-video-shares – concurrency", () => {
  it("PUT …/PROD – 8 concurrent first PUTs end with one share, one 201 and one slug", async () => {
    const db = await getDb();
    const { projectId, credentialId } = await newProject();
    const titles = Array.from({ length: 8 }, (_, i) => `Title ${i}`);

    const responses = await Promise.all(
      titles.map((publicTitle) => put(admin.token, projectId, "PROD", { publicTitle, apiCredentialId: credentialId })),
    );
    const bodies = await Promise.all(responses.map((r) => r.text()));
    expect(responses.map((r) => r.status).sort(), bodies.join("\n")).toEqual([200, 200, 200, 200, 200, 200, 200, 201]);

    const shares = bodies.map((body) => JSON.parse(body) as ShareJson);
    expect(new Set(shares.map((s) => s.id)).size).toBe(1);
    expect(new Set(shares.map((s) => s.slug)).size).toBe(1);

    const rows = await db
      .select()
      .from(publicVideoShares)
      .where(and(eq(publicVideoShares.projectId, projectId), eq(publicVideoShares.channel, "PROD")));
    expect(rows).toHaveLength(1);
    expect(titles).toContain(rows[0]!.publicTitle);
    const slugs = await slugRowsFor(rows[0]!.id);
    expect(slugs.map((s) => s.slug)).toEqual([rows[0]!.slug]);
    expect((await findPublicShare(db, rows[0]!.slug))?.id).toBe(rows[0]!.id);
    expect((await auditActionsFor(rows[0]!.id)).filter((a) => a === "share.created")).toHaveLength(1);
  });

  it("POST …/PROD/rotate-slug – 6 concurrent rotations retire 6 distinct slugs and leave one live", async () => {
    const db = await getDb();
    const { projectId, credentialId } = await newProject();
    const share = await createShare(projectId, credentialId);

    const responses = await Promise.all(Array.from({ length: 6 }, () => rotateSlug(admin.token, projectId, "PROD")));
    const bodies = await Promise.all(responses.map((r) => r.text()));
    expect(responses.map((r) => r.status), bodies.join("\n")).toEqual([200, 200, 200, 200, 200, 200]);
    const rotations = bodies.map((body) => JSON.parse(body) as RotatedJson);

    const previous = rotations.map((r) => r.previousSlug);
    expect(new Set(previous).size).toBe(6);
    expect(previous).toContain(share.slug);
    for (const slug of previous) expect(await findPublicShare(db, slug)).toBeNull();

    const [row] = await db.select().from(publicVideoShares).where(eq(publicVideoShares.id, share.id));
    const current = row!.slug;
    expect(previous).not.toContain(current);
    expect(rotations.map((r) => r.slug)).toContain(current);
    expect((await findPublicShare(db, current))?.id).toBe(share.id);
    // The rotations form one chain: each new slug is the next one's previous slug.
    expect(new Set([...previous, current])).toEqual(new Set([share.slug, ...rotations.map((r) => r.slug)]));

    const slugs = await slugRowsFor(share.id);
    expect(slugs).toHaveLength(7);
    expect(slugs.filter((s) => s.retiredAt !== null).map((s) => s.slug).sort()).toEqual([...previous].sort());
    expect(slugs.filter((s) => s.retiredAt === null).map((s) => s.slug)).toEqual([current]);

    const retiredElsewhere = await db.select().from(publicVideoShares).where(inArray(publicVideoShares.slug, previous));
    expect(retiredElsewhere).toEqual([]);
  });
});

// ── personalization data against the served template (issue 32) ─────────────────────

describe("PUT …/public-video-shares/{channel} – personalization data checked as the template's live preview checks it", () => {
  type SavedJson = ShareJson & { warnings: string[] };
  let projectId: string;
  let credentialId: string;
  let templateId: string;

  /** DEV serves this Testing template: firstName at most 12 (shortened beyond), planName at most 5 and strict. */
  beforeAll(async () => {
    ({ projectId, credentialId } = await newProject());
    const lottie = makeLottie({ nm: `share-data-${randomUUID()}`, w: 320, h: 180, layers: [textLayer("Name", "there"), textLayer("Plan", "Basic")] });
    const manifest = {
      version: 1,
      fields: [
        { key: "firstName", type: "text", target: { layer: "Name" }, maxLength: 12 },
        { key: "planName", type: "text", target: { layer: "Plan" }, maxLength: 5, strict: true },
      ],
    };
    templateId = await uploadWithManifest(admin.token, projectId, "Greeting", lottie, manifest);
  });

  const body = (personalizationData: unknown) => ({ publicTitle: "Hello", apiCredentialId: credentialId, personalizationData });

  it("an unknown key and a name over maxLength → saved (201) with the live preview's own warnings, word for word", async () => {
    const data = { nickname: "Max", firstName: "Maximilianoooooo" };
    const response = await put(admin.token, projectId, "DEV", body(data));
    expect(response.status).toBe(201);
    const saved = (await response.json()) as SavedJson;
    expect(saved.personalizationData).toEqual(data);
    expect(saved.warnings).toEqual(['unknown key "nickname"', '"firstName" was shortened to 12 characters']);

    const preview = await previewRoute(
      apiRequest("POST", `/api/Projects/${projectId}/templates/${templateId}/preview`, { token: admin.token, body: { data } }),
      routeParams({ projectId, templateId }),
    );
    expect(preview.status).toBe(200);
    expect(((await preview.json()) as { warnings: string[] }).warnings).toEqual(saved.warnings);
  });

  it("data the template takes as it is → no warnings; a replace answers 200 with them too", async () => {
    const response = await put(admin.token, projectId, "DEV", body({ firstName: "Ana", planName: "Gold" }));
    expect(response.status).toBe(200);
    expect(((await response.json()) as SavedJson).warnings).toEqual([]);
  });

  it.each([
    ["a value over a strict field's maxLength", { planName: "Platinum" }, '"planName" is 8 characters; the template allows at most 5'],
    ["a value of a strict field that is not a string (nor a number, which plays as its text)", { planName: { tier: "Gold" } }, '"planName" must be a string'],
  ])("%s → 422 problem+json naming the key; the share keeps its data", async (_, data, message) => {
    const response = await put(admin.token, projectId, "DEV", body({ firstName: "Bo", ...data }));
    expect(response.status).toBe(422);
    expect(response.headers.get("content-type")).toBe("application/problem+json");
    const problem = (await response.json()) as Problem & { detail: string };
    expect(problem.code).toBe("validation_failed");
    expect(problem.errors).toEqual([{ path: "personalizationData.planName", message }]);
    expect(problem.detail).toContain("Greeting 1.0");
    const [stored] = await (await getDb()).select().from(publicVideoShares).where(and(eq(publicVideoShares.projectId, projectId), eq(publicVideoShares.channel, "DEV")));
    expect(stored!.personalizationData).toEqual({ firstName: "Ana", planName: "Gold" });
  });

  it("a channel that serves no template yet (PROD before a deploy) checks nothing: no warnings", async () => {
    const response = await put(admin.token, projectId, "PROD", body({ nickname: "Max" }));
    expect(response.status).toBe(201);
    expect(((await response.json()) as SavedJson).warnings).toEqual([]);
  });
});
