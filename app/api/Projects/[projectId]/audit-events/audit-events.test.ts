import { randomUUID } from "node:crypto";
import { beforeAll, describe, expect, it } from "vitest";
import type { z } from "zod";
import { otherMemberLabel } from "@/lib/audit/list-audit-events";
import { recordAuditEvent } from "@/lib/audit/record-audit-event";
import type { auditEventPageSchema } from "@/lib/audit/contract";
import { getDb, type Db } from "@/lib/db";
import { apiRequest, createTestMember, createTestProject, createTestProjectIn, routeParams } from "@/testing/factories";
import { POST as revokeCredentialRoute } from "@/app/api/credentials/[id]/revoke/route";
import { POST as createCredentialRoute } from "@/app/api/credentials/route";
import { POST as disableRoute } from "../public-video-shares/[channel]/disable/route";
import { POST as restoreRoute } from "../public-video-shares/[channel]/restore/route";
import { POST as rotateSlugRoute } from "../public-video-shares/[channel]/rotate-slug/route";
import { PUT as putShareRoute } from "../public-video-shares/[channel]/route";
import { GET as auditEventsRoute } from "./route";

type Page = z.infer<typeof auditEventPageSchema>;
type Event = Page["items"][number];
type Member = Awaited<ReturnType<typeof createTestMember>>;

let home: Awaited<ReturnType<typeof createTestProject>>;
let elsewhere: Awaited<ReturnType<typeof createTestProject>>;
let manager: Member;
let admin: Member;
let elsewhereAdmin: Member;

beforeAll(async () => {
  home = await createTestProject();
  elsewhere = await createTestProject();
  manager = await createTestMember("ProjectManager", { projectId: home.project.id });
  admin = await createTestMember("OrganizationAdmin", { organizationId: home.organization.id });
  elsewhereAdmin = await createTestMember("OrganizationAdmin", { organizationId: elsewhere.organization.id });
});

// ── calls ──────────────────────────────────────────────────────────────────────────────

const getAuditEvents = (token: string | undefined, projectId: string, query = "") =>
  auditEventsRoute(apiRequest("GET", `/api/Projects/${projectId}/audit-events${query}`, { token }), routeParams({ projectId }));

async function page(token: string, projectId: string, query = ""): Promise<Page> {
  const response = await getAuditEvents(token, projectId, query);
  const text = await response.text();
  expect(response.status, text).toBe(200);
  return JSON.parse(text) as Page;
}

/** Every event of the project, newest first, in one page. */
async function trail(token: string, projectId: string): Promise<Event[]> {
  const { items, nextCursor } = await page(token, projectId, "?limit=200");
  expect(nextCursor).toBeNull();
  return items;
}

/**
 * The events after the project was made: its first event, project.created by the operator (the
 * test factories make projects as the CLI does), is checked and left out.
 */
async function allEvents(token: string, projectId: string): Promise<Event[]> {
  const items = await trail(token, projectId);
  expect(items.at(-1)).toMatchObject({ action: "project.created", targetId: projectId, actor: null });
  return items.slice(0, -1);
}

async function expectStatus(response: Response, status: number) {
  const text = await response.text();
  expect(response.status, text).toBe(status);
  return JSON.parse(text) as Record<string, unknown>;
}

const shareParams = (projectId: string, channel: string) => routeParams({ projectId, channel });

/** Drives the API through a known sequence of audited actions and returns the actions in order. */
async function performActions(token: string, projectId: string, channel = "PROD"): Promise<{ actions: string[]; targets: string[] }> {
  const createCredential = async () => {
    const request = apiRequest("POST", "/api/credentials", { token, body: { projectId } });
    return (await expectStatus(await createCredentialRoute(request, routeParams({})), 201)).id as string;
  };
  const url = `/api/Projects/${projectId}/public-video-shares/${channel}`;
  const params = shareParams(projectId, channel);
  const putShare = async (publicTitle: string, apiCredentialId: string, status: number) =>
    (await expectStatus(await putShareRoute(apiRequest("PUT", url, { token, body: { publicTitle, apiCredentialId } }), params), status))
      .id as string;

  const credentialId = await createCredential();
  const spareId = await createCredential();
  const shareId = await putShare("One", credentialId, 201);
  await putShare("Two", credentialId, 200);
  await expectStatus(await disableRoute(apiRequest("POST", `${url}/disable`, { token }), params), 200);
  await expectStatus(await restoreRoute(apiRequest("POST", `${url}/restore`, { token }), params), 200);
  await expectStatus(await rotateSlugRoute(apiRequest("POST", `${url}/rotate-slug`, { token }), params), 200);
  const revoke = apiRequest("POST", `/api/credentials/${spareId}/revoke`, { token });
  await expectStatus(await revokeCredentialRoute(revoke, routeParams({ id: spareId })), 200);
  return {
    actions: [
      "credential.created",
      "credential.created",
      "share.created",
      "share.updated",
      "share.disabled",
      "share.restored",
      "share.slug_rotated",
      "credential.revoked",
    ],
    targets: [credentialId, spareId, shareId, shareId, shareId, shareId, shareId, spareId],
  };
}

/** Follows nextCursor from the first page to the last. */
async function walkPages(token: string, projectId: string, limit: number) {
  const pages: Page[] = [];
  let cursor: string | null = null;
  do {
    const query: string = `?limit=${limit}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ""}`;
    const current = await page(token, projectId, query);
    pages.push(current);
    cursor = current.nextCursor;
    expect(pages.length).toBeLessThan(100);
  } while (cursor);
  return pages;
}

// ── listing ────────────────────────────────────────────────────────────────────────────

/** count audit events with targetId 0…count-1, each in its own transaction, one after another. */
async function recordTestEvents(db: Db, projectId: string, count: number) {
  for (let i = 0; i < count; i++) {
    await db.transaction((tx) =>
      recordAuditEvent(tx, {
        organizationId: home.organization.id,
        projectId,
        actorUserId: admin.user.id,
        action: "test.event",
        targetType: "test",
        targetId: String(i),
      }),
    );
  }
}

describe("GET /api/Projects/:id/audit-events", () => {
  let performed: { actions: string[]; targets: string[] };

  beforeAll(async () => {
    performed = await performActions(manager.token, home.project.id);
    // The same actions in a project of another organization and in a sibling project of the same one.
    await performActions(elsewhereAdmin.token, elsewhere.project.id);
    const sibling = await createTestProjectIn(home.organization.id, "Sibling");
    await performActions(admin.token, sibling.id);
  });

  it("GET /api/Projects/:id/audit-events – newest first, each with its actor {id, email}", async () => {
    const items = await allEvents(manager.token, home.project.id);
    expect(items.map((e) => e.action)).toEqual([...performed.actions].reverse());
    expect(items.map((e) => e.targetId)).toEqual([...performed.targets].reverse());

    for (const event of items) {
      expect(event.actor).toEqual({ id: manager.user.id, email: manager.user.email });
      expect(event.id).toMatch(/^[0-9a-f-]{36}$/);
      expect(event.createdAt).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    }
    const times = items.map((e) => Date.parse(e.createdAt));
    expect(times).toEqual([...times].sort((a, b) => b - a));

    const rotated = items.find((e) => e.action === "share.slug_rotated");
    expect(rotated).toMatchObject({ targetType: "public_video_share", data: { channel: "PROD" } });
    expect(rotated?.data?.previousSlug).toEqual(expect.any(String));
    expect(items.find((e) => e.action === "credential.revoked")?.targetType).toBe("api_credential");
  });

  it("GET /api/Projects/:id/audit-events – a Viewer reads the same events, without other members' emails and apiKeys", async () => {
    const viewer = await createTestMember("Viewer", { projectId: home.project.id });
    const asViewer = await allEvents(viewer.token, home.project.id);
    const asManager = await allEvents(manager.token, home.project.id);
    expect(asViewer.map((event) => [event.id, event.action, event.actor?.id])).toEqual(asManager.map((event) => [event.id, event.action, event.actor?.id]));
    for (const event of asViewer) {
      expect(event.actor?.email).toBe(otherMemberLabel);
      expect(event.data ?? {}).not.toHaveProperty("apiKey");
    }
  });

  it("GET /api/Projects/:id/audit-events – events of other projects never appear, whoever asks", async () => {
    const ownIds = new Set(performed.targets);
    const asManager = await allEvents(manager.token, home.project.id);
    const asAdmin = await allEvents(admin.token, home.project.id);
    for (const items of [asManager, asAdmin]) {
      expect(items).toHaveLength(performed.actions.length);
      for (const event of items) expect(ownIds.has(event.targetId)).toBe(true);
    }
    const foreign = await allEvents(elsewhereAdmin.token, elsewhere.project.id);
    expect(foreign).toHaveLength(performed.actions.length);
    for (const event of foreign) {
      expect(ownIds.has(event.targetId)).toBe(false);
      expect(event.actor?.id).toBe(elsewhereAdmin.user.id);
    }
  });

  it("GET /api/Projects/:id/audit-events – another organization's project → 404", async () => {
    expect((await getAuditEvents(manager.token, elsewhere.project.id)).status).toBe(404);
    expect((await getAuditEvents(elsewhereAdmin.token, home.project.id)).status).toBe(404);
  });

  it.each([1, 2, 3, 8])(
    "GET /api/Projects/:id/audit-events?limit=%i – following nextCursor returns every event once, in order",
    async (limit) => {
      const all = await trail(manager.token, home.project.id);
      const pages = await walkPages(manager.token, home.project.id, limit);

      expect(pages).toHaveLength(Math.max(1, Math.ceil(all.length / limit)));
      for (const current of pages.slice(0, -1)) {
        expect(current.items).toHaveLength(limit);
        expect(current.nextCursor).toEqual(expect.any(String));
      }
      expect(pages.at(-1)!.nextCursor).toBeNull();
      expect(pages.at(-1)!.items.length).toBeGreaterThan(0);

      const walked = pages.flatMap((p) => p.items);
      expect(walked).toEqual(all);
      expect(new Set(walked.map((e) => e.id)).size).toBe(all.length);
    },
  );

  it("GET /api/Projects/:id/audit-events – without ?limit the page holds up to 50", async () => {
    const project = await createTestProjectIn(home.organization.id, "Many events");
    const db = await getDb();
    await recordTestEvents(db, project.id, 50); // and the project's own project.created: 51
    const first = await page(admin.token, project.id);
    expect(first.items).toHaveLength(50);
    expect(first.nextCursor).toEqual(expect.any(String));
    const second = await page(admin.token, project.id, `?cursor=${first.nextCursor}`);
    expect(second.items).toHaveLength(1);
    expect(second.nextCursor).toBeNull();
    expect(second.items[0]).toMatchObject({ action: "project.created" });
    expect(new Set([...first.items, ...second.items].map((e) => e.id)).size).toBe(51);
  });
});

describe("GET /api/Projects/:id/audit-events – pages and new events", () => {
  it("GET /api/Projects/:id/audit-events?cursor= – events written after the first page do not shift the later pages", async () => {
    const project = await createTestProjectIn(home.organization.id, "Moving");
    const { actions } = await performActions(admin.token, project.id);

    const first = await page(admin.token, project.id, "?limit=3");
    await performActions(admin.token, project.id, "DEV");
    const rest: Event[] = [];
    let cursor = first.nextCursor;
    while (cursor) {
      const next = await page(admin.token, project.id, `?limit=3&cursor=${cursor}`);
      rest.push(...next.items);
      cursor = next.nextCursor;
    }
    const walked = [...first.items, ...rest];
    expect(walked.map((e) => e.action)).toEqual([...actions].reverse().concat("project.created"));
    expect(new Set(walked.map((e) => e.id)).size).toBe(actions.length + 1);

    expect(await allEvents(admin.token, project.id)).toHaveLength(actions.length * 2);
  });

  it("GET /api/Projects/:id/audit-events – an event without an actor has actor null", async () => {
    const project = await createTestProjectIn(home.organization.id, "System");
    await recordAuditEvent(await getDb(), {
      organizationId: home.organization.id,
      projectId: project.id,
      actorUserId: null,
      action: "system.event",
      targetType: "project",
      targetId: project.id,
      data: { reason: "test" },
    });
    expect(await allEvents(admin.token, project.id)).toEqual([
      expect.objectContaining({ action: "system.event", actor: null, data: { reason: "test" } }),
    ]);
  });
});

// Newest first must follow the order in which the changes took effect, not the clock's resolution
// (PGlite's clock ticks in milliseconds) or the moment a waiting transaction began.
describe("GET /api/Projects/:id/audit-events – order of events close together", () => {
  it("GET /api/Projects/:id/audit-events – events committed one after another within a millisecond stay newest first", async () => {
    const db = await getDb();
    const project = await createTestProjectIn(home.organization.id, "Rapid");
    await recordTestEvents(db, project.id, 40);
    const items = await allEvents(admin.token, project.id);
    expect(items.map((e) => Number(e.targetId))).toEqual(Array.from({ length: 40 }, (_, i) => 39 - i));
    const walked = (await walkPages(admin.token, project.id, 7)).flatMap((p) => p.items);
    expect(walked).toEqual(await trail(admin.token, project.id));
  });

  it("GET /api/Projects/:id/audit-events – concurrent slug rotations are listed in the order they took effect", async () => {
    const project = await createTestProjectIn(home.organization.id, "Rotations");
    const createRequest = apiRequest("POST", "/api/credentials", { token: admin.token, body: { projectId: project.id } });
    const apiCredentialId = (await expectStatus(await createCredentialRoute(createRequest, routeParams({})), 201)).id;
    const url = `/api/Projects/${project.id}/public-video-shares/PROD`;
    const params = shareParams(project.id, "PROD");
    const putRequest = apiRequest("PUT", url, { token: admin.token, body: { publicTitle: "R", apiCredentialId } });
    await expectStatus(await putShareRoute(putRequest, params), 201);
    const responses = await Promise.all(
      Array.from({ length: 6 }, () => rotateSlugRoute(apiRequest("POST", `${url}/rotate-slug`, { token: admin.token }), params)),
    );
    expect(responses.map((r) => r.status)).toEqual([200, 200, 200, 200, 200, 200]);

    const rotations = (await allEvents(admin.token, project.id))
      .filter((e) => e.action === "share.slug_rotated")
      .map((e) => e.data as { previousSlug: string; slug: string });
    expect(rotations).toHaveLength(6);
    // Newest first: each rotation's previous slug is the slug the next (older) rotation issued.
    for (let i = 0; i + 1 < rotations.length; i++) expect(rotations[i]!.previousSlug).toBe(rotations[i + 1]!.slug);
  });
});

// ── what an event names ────────────────────────────────────────────────────────────────

describe("GET /api/Projects/:id/audit-events – each event names its subject, updates say old → new", () => {
  it("PUT …/PROD changing title, data and credential → share.updated with each change old → new; revoke names the credential", async () => {
    const project = await createTestProjectIn(home.organization.id, "Named");
    const createCredential = async (name: string) => {
      const request = apiRequest("POST", "/api/credentials", { token: admin.token, body: { projectId: project.id, name } });
      return (await expectStatus(await createCredentialRoute(request, routeParams({})), 201)) as { id: string; apiKey: string; apiSecret: string };
    };
    const site = await createCredential("Site");
    const shop = await createCredential("Shop");
    const url = `/api/Projects/${project.id}/public-video-shares/PROD`;
    const params = shareParams(project.id, "PROD");
    const put = (body: Record<string, unknown>, status: number) => putShareRoute(apiRequest("PUT", url, { token: admin.token, body }), params).then((r) => expectStatus(r, status));
    const created = await put({ publicTitle: "Hello", apiCredentialId: site.id, personalizationData: { firstName: "Ana", plan: "Pro" } }, 201);
    await put({ publicTitle: "Welcome", apiCredentialId: shop.id, personalizationData: { firstName: "Max", plan: "Pro", city: "Porto" } }, 200);
    await expectStatus(await revokeCredentialRoute(apiRequest("POST", `/api/credentials/${site.id}/revoke`, { token: admin.token }), routeParams({ id: site.id })), 200);

    const events = await allEvents(admin.token, project.id);
    const updated = events.find((event) => event.action === "share.updated")!;
    expect(updated.data).toMatchObject({ channel: "PROD", slug: created.slug });
    expect(updated.data!.changes).toEqual([
      { field: "publicTitle", from: "Hello", to: "Welcome" },
      { field: "personalizationData.city", from: null, to: "Porto" },
      { field: "personalizationData.firstName", from: "Ana", to: "Max" },
      { field: "apiCredential", from: "Site", to: "Shop" },
    ]);
    expect(events.find((event) => event.action === "credential.revoked")!.data).toEqual({ apiKey: site.apiKey, name: "Site" });
    expect(events.find((event) => event.action === "share.created")!.data).toMatchObject({ channel: "PROD", slug: created.slug });
    // No secret is ever written to the trail.
    expect(JSON.stringify(events)).not.toContain(site.apiSecret);
    expect(JSON.stringify(events)).not.toContain(shop.apiSecret);
  });
});

// ── bad queries ────────────────────────────────────────────────────────────────────────

describe("GET /api/Projects/:id/audit-events – bad queries", () => {
  const cursorOf = (text: string) => Buffer.from(text).toString("base64url");

  it.each([
    { name: "limit=0", query: "?limit=0", path: "limit" },
    { name: "limit=201", query: "?limit=201", path: "limit" },
    { name: "limit=x", query: "?limit=x", path: "limit" },
    { name: "limit=-1", query: "?limit=-1", path: "limit" },
    { name: "limit=1.5", query: "?limit=1.5", path: "limit" },
    { name: "limit empty", query: "?limit=", path: "limit" },
    { name: "a garbage cursor", query: "?cursor=garbage", path: "cursor" },
    { name: "a cursor with characters outside base64url", query: "?cursor=%21%21%21", path: "cursor" },
    { name: "an empty cursor", query: "?cursor=", path: "cursor" },
    { name: "a cursor with a non-numeric position", query: `?cursor=${cursorOf("seq:abc")}`, path: "cursor" },
    { name: "a cursor from another scheme", query: `?cursor=${cursorOf(`2024-01-01T00:00:00.000000Z|${randomUUID()}`)}`, path: "cursor" },
    { name: "a cursor of 300 characters", query: `?cursor=${"A".repeat(300)}`, path: "cursor" },
    { name: "an unknown parameter", query: "?offset=10", path: "offset" },
  ])("GET /api/Projects/:id/audit-events – $name → 422", async ({ query, path }) => {
    const response = await getAuditEvents(manager.token, home.project.id, query);
    expect(response.status).toBe(422);
    expect(response.headers.get("content-type")).toBe("application/problem+json");
    const problem = (await response.json()) as { errors: { path: string }[] };
    expect(problem.errors.map((e) => e.path)).toContain(path);
  });

  it.each([
    { name: "limit=1", query: "?limit=1" },
    { name: "limit=200", query: "?limit=200" },
    { name: "a well-formed cursor before the first event", query: `?cursor=${cursorOf("seq:1")}` },
  ])("GET /api/Projects/:id/audit-events – $name → 200", async ({ query }) => {
    const response = await getAuditEvents(manager.token, home.project.id, query);
    expect(response.status).toBe(200);
  });

  it("GET /api/Projects/:id/audit-events – no token → 401", async () => {
    const response = await getAuditEvents(undefined, home.project.id);
    expect(response.status).toBe(401);
    expect(response.headers.get("www-authenticate")).toMatch(/^Bearer\b/);
  });
});
