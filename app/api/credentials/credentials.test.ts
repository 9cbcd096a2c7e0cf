import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { sessionActor, type Actor } from "@/lib/auth/authenticate";
import { findProjectAccess } from "@/lib/auth/project-access";
import { sha256Hex } from "@/lib/auth/secrets";
import { createCredential, listCredentials, revokeCredential } from "@/lib/credentials/credentials";
import { verifyCredential } from "@/lib/credentials/verify-credential";
import { getDb } from "@/lib/db";
import { apiCredentials, auditEvents, personalAccessTokens, type Role } from "@/lib/db/schema";
import { permissionOfVerb } from "@/lib/services/verbs";
import { apiRequest, createTestMember, createTestProject, routeParams } from "@/testing/factories";
import { POST as revokeRoute } from "./[id]/revoke/route";
import { GET as listRoute, POST as createRoute } from "./route";

type Project = Awaited<ReturnType<typeof createTestProject>>;

let home: Project;
let elsewhere: Project;
let manager: string;
let elsewhereAdmin: string;

beforeAll(async () => {
  home = await createTestProject();
  elsewhere = await createTestProject();
  manager = (await createTestMember("ProjectManager", { projectId: home.project.id })).token;
  elsewhereAdmin = (await createTestMember("OrganizationAdmin", { organizationId: elsewhere.organization.id })).token;
});

const list = (token: string | undefined, projectId: string) =>
  listRoute(apiRequest("GET", `/api/credentials?projectId=${projectId}`, { token }), routeParams({}));
const create = (token: string | undefined, body: unknown) =>
  createRoute(apiRequest("POST", "/api/credentials", { token, body }), routeParams({}));
const revoke = (token: string | undefined, id: string) =>
  revokeRoute(apiRequest("POST", `/api/credentials/${id}/revoke`, { token }), routeParams({ id }));

describe("credential endpoints – role gates for every role", () => {
  const cases: { role: Role; scope: "organization" | "project"; allowed: boolean }[] = [
    { role: "Viewer", scope: "project", allowed: false },
    { role: "Editor", scope: "project", allowed: false },
    { role: "ProjectManager", scope: "project", allowed: true },
    { role: "Viewer", scope: "organization", allowed: false },
    { role: "Editor", scope: "organization", allowed: false },
    { role: "ProjectManager", scope: "organization", allowed: true },
    { role: "OrganizationAdmin", scope: "organization", allowed: true },
  ];

  it.each(cases)("$role on the $scope – list, create, revoke", async ({ role, scope, allowed }) => {
    const scopeIds = scope === "organization" ? { organizationId: home.organization.id } : { projectId: home.project.id };
    const { token } = await createTestMember(role, scopeIds);
    const target = (await (await create(manager, { projectId: home.project.id })).json()) as { id: string };

    const responses = [
      await list(token, home.project.id),
      await create(token, { projectId: home.project.id, name: role }),
      await revoke(token, target.id),
    ];
    const expected = allowed ? [200, 201, 200] : [403, 403, 403];
    expect(responses.map((r) => r.status)).toEqual(expected);
    for (const response of responses.filter((r) => r.status === 403)) {
      expect(response.headers.get("content-type")).toBe("application/problem+json");
      expect(((await response.json()) as { detail: string }).detail).toContain("ProjectManager");
    }
  });
});

describe("credential endpoints – bad input", () => {
  it.each<{ name: string; token?: string; headers: Record<string, string>; status: number }>([
    { name: "no token", headers: {}, status: 401 },
    { name: "unknown token", token: "rbk_notarealtokenatall", headers: {}, status: 401 },
    { name: "Basic instead of Bearer", headers: { authorization: "Basic abc" }, status: 401 },
  ])("GET /api/credentials – $name → $status", async ({ token, headers, status }) => {
    const response = await listRoute(
      apiRequest("GET", `/api/credentials?projectId=${home.project.id}`, { token, headers }),
      routeParams({}),
    );
    expect(response.status).toBe(status);
    expect(response.headers.get("www-authenticate")).toMatch(/^Bearer/);
  });

  it("GET /api/credentials – a revoked token → 401", async () => {
    const { token } = await createTestMember("ProjectManager", { projectId: home.project.id });
    const db = await getDb();
    await db.update(personalAccessTokens).set({ revokedAt: new Date() }).where(eq(personalAccessTokens.tokenHash, sha256Hex(token)));
    expect((await list(token, home.project.id)).status).toBe(401);
  });

  it.each([
    { name: "missing projectId", url: "/api/credentials", status: 422, path: "projectId" },
    { name: "projectId not a UUID", url: "/api/credentials?projectId=abc", status: 422, path: "projectId" },
    { name: "unknown query parameter", url: "/api/credentials?projectId=PID&limit=5", status: 422, path: "limit" },
  ])("GET /api/credentials – $name → $status", async ({ url, status, path }) => {
    const response = await listRoute(apiRequest("GET", url.replace("PID", home.project.id), { token: manager }), routeParams({}));
    expect(response.status).toBe(status);
    const problem = (await response.json()) as { errors: { path: string }[] };
    expect(problem.errors.map((e) => e.path)).toContain(path);
  });

  it("GET /api/credentials – another organization's project → 404, same as a missing one", async () => {
    const foreign = await list(manager, elsewhere.project.id);
    const missing = await list(manager, "00000000-0000-4000-8000-000000000000");
    expect([foreign.status, missing.status]).toEqual([404, 404]);
  });

  it.each([
    { name: "malformed JSON", rawBody: "{\"projectId\":", contentType: "application/json", status: 400 },
    { name: "not JSON", rawBody: "projectId=1", contentType: "application/x-www-form-urlencoded", status: 415 },
    { name: "JSON array", rawBody: "[]", contentType: "application/json", status: 422 },
  ])("POST /api/credentials – $name → $status", async ({ rawBody, contentType, status }) => {
    const response = await createRoute(
      apiRequest("POST", "/api/credentials", { token: manager, rawBody, headers: { "content-type": contentType } }),
      routeParams({}),
    );
    expect(response.status).toBe(status);
    expect(response.headers.get("content-type")).toBe("application/problem+json");
  });

  it.each([
    { name: "missing projectId", body: { name: "x" }, paths: ["projectId"] },
    { name: "unknown fields", body: { projectId: "PID", apiSecret: "sk_mine", status: "revoked" }, paths: ["apiSecret,status"] },
    { name: "name wrong type and projectId invalid", body: { projectId: 5, name: 7 }, paths: ["projectId", "name"] },
    { name: "empty name", body: { projectId: "PID", name: "  " }, paths: ["name"] },
  ])("POST /api/credentials – $name → 422 listing each path", async ({ body, paths }) => {
    const withProject = JSON.parse(JSON.stringify(body).replace("PID", home.project.id));
    const response = await create(manager, withProject);
    expect(response.status).toBe(422);
    const problem = (await response.json()) as { errors: { path: string }[] };
    expect(problem.errors.map((e) => e.path)).toEqual(paths);
  });

  it("POST /api/credentials – into another organization's project → 404", async () => {
    expect((await create(manager, { projectId: elsewhere.project.id })).status).toBe(404);
  });

  it("POST /api/credentials/{id}/revoke – another organization's credential → 404 and it stays active", async () => {
    const foreign = (await (await create(elsewhereAdmin, { projectId: elsewhere.project.id })).json()) as { id: string };
    expect((await revoke(manager, foreign.id)).status).toBe(404);
    expect((await revoke(manager, "not-a-uuid")).status).toBe(404);
    const [row] = await (await getDb()).select().from(apiCredentials).where(eq(apiCredentials.id, foreign.id));
    expect(row?.status).toBe("active");
  });
});

describe("credential lifecycle", () => {
  it("POST /api/credentials – returns the secret once, stores only its hash", async () => {
    const response = await create(manager, { projectId: home.project.id, name: "CI deploys" });
    expect(response.status).toBe(201);
    const created = (await response.json()) as Record<string, string>;
    expect(created.apiKey).toMatch(/^pk_[0-9A-Za-z]{24}$/);
    expect(created.apiSecret).toMatch(/^sk_[0-9A-Za-z]{40}$/);
    expect(created).toMatchObject({ projectId: home.project.id, name: "CI deploys", status: "active" });
    expect(created.createdAt).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);

    const [row] = await (await getDb()).select().from(apiCredentials).where(eq(apiCredentials.id, created.id!));
    expect(row?.secretHash).toBe(sha256Hex(created.apiSecret!));
    expect(JSON.stringify(row)).not.toContain(created.apiSecret);

    const listed = (await (await list(manager, home.project.id)).json()) as { items: Record<string, unknown>[] };
    const item = listed.items.find((i) => i.id === created.id);
    expect(item).toMatchObject({ apiKey: created.apiKey, status: "active", lastUsedAt: null });
    expect(JSON.stringify(listed)).not.toContain("sk_");
  });

  it("verifyCredential – records lastUsedAt, refuses wrong and revoked secrets", async () => {
    const db = await getDb();
    const created = (await (await create(manager, { projectId: home.project.id })).json()) as Record<string, string>;
    expect(await verifyCredential(db, created.apiKey!, "sk_wrong")).toBeNull();

    const used = await verifyCredential(db, created.apiKey!, created.apiSecret!);
    expect(used?.lastUsedAt).toBeInstanceOf(Date);
    const listed = (await (await list(manager, home.project.id)).json()) as { items: Record<string, unknown>[] };
    expect(listed.items.find((i) => i.id === created.id)?.lastUsedAt).toBe(used!.lastUsedAt!.toISOString());

    const revoked = await revoke(manager, created.id!);
    expect(await revoked.json()).toMatchObject({ id: created.id, status: "revoked" });
    expect(await verifyCredential(db, created.apiKey!, created.apiSecret!)).toBeNull();
  });

  it("POST /api/credentials/{id}/revoke – twice is a no-op the second time", async () => {
    const created = (await (await create(manager, { projectId: home.project.id })).json()) as { id: string };
    const first = (await (await revoke(manager, created.id)).json()) as { revokedAt: string };
    const second = await revoke(manager, created.id);
    expect(second.status).toBe(200);
    expect(((await second.json()) as { revokedAt: string }).revokedAt).toBe(first.revokedAt);
  });
});

describe("credential verbs – each checks its own permission (docs/adr/0143-service-verbs.md)", () => {
  it("a caller that checked nothing – a Viewer's access, a read-only token's – is refused the writes; nothing is written", async () => {
    const db = await getDb();
    const contextOf = async (actor: Actor) => ({ db, actor, access: (await findProjectAccess(db, actor, home.project.id))! });
    const viewer = await contextOf(sessionActor((await createTestMember("Viewer", { projectId: home.project.id })).user));
    const managerUser = (await createTestMember("ProjectManager", { projectId: home.project.id })).user;
    const readOnly = await contextOf({ ...sessionActor(managerUser), via: "token", scopes: ["read"] });
    const target = (await (await create(manager, { projectId: home.project.id })).json()) as { id: string };
    const credentials = () => db.select().from(apiCredentials).where(eq(apiCredentials.projectId, home.project.id));
    const events = () => db.select().from(auditEvents).where(eq(auditEvents.projectId, home.project.id));
    const [credentialsBefore, eventsBefore] = [await credentials(), await events()];

    // The verb's check may throw before it returns its promise: called from an async function, either way is a rejection.
    const refused = (call: () => Promise<unknown>) => expect((async () => call())()).rejects.toMatchObject({ kind: "forbidden" });
    await refused(() => listCredentials(viewer));
    for (const caller of [viewer, readOnly]) {
      await refused(() => createCredential(caller, { projectId: home.project.id, name: "unchecked" }));
      await refused(() => revokeCredential(caller, target.id));
    }
    // Reading needs the read scope only.
    expect((await listCredentials(readOnly)).map((credential) => credential.id)).toContain(target.id);
    expect(await credentials()).toEqual(credentialsBefore);
    expect(await events()).toEqual(eventsBefore);
    expect([listCredentials, createCredential, revokeCredential].map(permissionOfVerb)).toEqual(["credential.read", "credential.write", "credential.write"]);
  });
});

describe("credential endpoints – oversized bodies", () => {
  it("POST /api/credentials – a declared Content-Length over 1 MB → 413 before reading", async () => {
    const rawBody = JSON.stringify({ projectId: home.project.id, name: "x".repeat(2 * 1024 * 1024) });
    const headers = { "content-type": "application/json", "content-length": String(rawBody.length) };
    const response = await createRoute(apiRequest("POST", "/api/credentials", { token: manager, rawBody, headers }), routeParams({}));
    expect(response.status).toBe(413);
  });

  it("POST /api/credentials – a streamed body with no Content-Length passing 1 MB → 413", async () => {
    const chunk = new TextEncoder().encode(" ".repeat(64 * 1024));
    let sent = 0;
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (sent++ < 32) controller.enqueue(chunk);
        else controller.close();
      },
    });
    const request = new Request("http://localhost:3000/api/credentials", {
      method: "POST",
      headers: { authorization: `Bearer ${manager}`, "content-type": "application/json" },
      body,
      duplex: "half",
    } as RequestInit);
    expect(request.headers.get("content-length")).toBeNull();
    expect((await createRoute(request, routeParams({}))).status).toBe(413);
  });
});
