import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { GET as listSharesRoute } from "@/app/api/Projects/[projectId]/public-video-shares/route";
import { PUT as putShareRoute } from "@/app/api/Projects/[projectId]/public-video-shares/[channel]/route";
import { GET as listMembersRoute, POST as inviteRoute } from "@/app/api/organizations/[orgId]/members/route";
import { maxTokenGenerations } from "@/lib/auth/token-chain";
import { tokenScopes } from "@/lib/auth/token-scopes";
import { getDb } from "@/lib/db";
import { personalAccessTokens } from "@/lib/db/schema";
import { apiRequest, createTestMember, createTestProject, routeParams } from "@/testing/factories";
import { GET as meRoute } from "../route";
import { POST as revokeRoute } from "./[id]/revoke/route";
import { GET as listRoute, POST as createRoute } from "./route";

type Token = { id: string; name: string; status: string; scopes: string[]; parentTokenId: string | null; token: string };
type Problem = { status: number; detail: string; errors?: { path: string; message: string }[] };

let member: Awaited<ReturnType<typeof createTestMember>>;
let projectId: string;

beforeAll(async () => {
  const { project } = await createTestProject();
  projectId = project.id;
  member = await createTestMember("Editor", { projectId });
});

const list = async (token: string) => ((await (await listRoute(apiRequest("GET", "/api/me/tokens", { token }), routeParams({}))).json()) as { items: Token[] }).items;
const create = (token: string, body: unknown) => createRoute(apiRequest("POST", "/api/me/tokens", { token, body }), routeParams({}));
const createOk = async (token: string, body: unknown): Promise<Token> => {
  const response = await create(token, body);
  expect(response.status, JSON.stringify(await response.clone().json())).toBe(201);
  return (await response.json()) as Token;
};
const revoke = (token: string, id: string) => revokeRoute(apiRequest("POST", "/x", { token }), routeParams({ id }));
const meStatus = async (token: string) => (await meRoute(apiRequest("GET", "/api/me", { token }), routeParams({}))).status;

describe("/api/me/tokens", () => {
  it("creates a token shown once, which authenticates until it is revoked", async () => {
    const token = await createOk(member.token, { name: "CI" });
    expect(token.token).toMatch(/^rbk_/);
    const listed = await list(member.token);
    expect(listed.find((t) => t.id === token.id)).toMatchObject({ name: "CI", status: "Active" });
    expect(JSON.stringify(listed)).not.toContain(token.token);

    const me = await meRoute(apiRequest("GET", "/api/me", { token: token.token }), routeParams({}));
    expect(me.status).toBe(200);
    expect(((await me.json()) as { projects: { id: string; role: string }[] }).projects).toEqual([expect.objectContaining({ id: projectId, role: "Editor" })]);

    const revoked = await revoke(member.token, token.id);
    expect(((await revoked.json()) as Token).status).toBe("Revoked");
    expect((await revoke(member.token, token.id)).status).toBe(200);
    expect(await meStatus(token.token)).toBe(401);
  });

  it("another user's token is 404 and stays active; bad bodies are 422", async () => {
    const other = await createTestMember("Viewer", { projectId });
    const [otherToken] = await list(other.token);
    expect((await revoke(member.token, otherToken!.id)).status).toBe(404);
    expect((await revoke(member.token, "nope")).status).toBe(404);
    expect(await meStatus(other.token)).toBe(200);
    for (const body of [{}, { name: "" }, { name: "x", userId: other.user.id }, { name: "x", scopes: [] }, { name: "x", scopes: "read" }]) {
      expect((await create(member.token, body)).status, JSON.stringify(body)).toBe(422);
    }
  });
});

describe("/api/me/tokens – scopes", () => {
  it("POST without scopes → every scope of the caller (a token of the CLI has all); tokens made before scopes existed have all (the column's default)", async () => {
    const token = await createOk(member.token, { name: "all" });
    expect(token.scopes).toEqual([...tokenScopes]);
    const db = await getDb();
    const [row] = await db.insert(personalAccessTokens).values({ userId: member.user.id, tokenHash: `legacy-${crypto.randomUUID()}` }).returning();
    expect(row!.scopes).toEqual([...tokenScopes]);
  });

  it.each([
    { body: { name: "x", scopes: ["read", "everything"] }, path: "scopes.1" },
    { body: { name: "x", scopes: ["READ"] }, path: "scopes.0" },
    { body: { name: "x", scopes: [] }, path: "scopes" },
  ])("POST scopes $body.scopes → 422 at $path naming the known scopes", async ({ body, path }) => {
    const response = await create(member.token, body);
    expect(response.status).toBe(422);
    const problem = (await response.json()) as Problem;
    expect(problem.errors).toEqual([expect.objectContaining({ path })]);
    if (path !== "scopes") expect(problem.errors![0]!.message).toContain("templates:write");
  });

  it("scopes are stored once each, in the documented order", async () => {
    const token = await createOk(member.token, { name: "dup", scopes: ["tokens:write", "read", "read"] });
    expect(token.scopes).toEqual(["read", "tokens:write"]);
  });

  it("a read-only token reads (200) and is refused every change (403), its role notwithstanding", async () => {
    const manager = await createTestMember("ProjectManager", { projectId });
    const readOnly = await createOk(manager.token, { name: "dashboards", scopes: ["read"] });
    expect((await listSharesRoute(apiRequest("GET", "/x", { token: readOnly.token }), routeParams({ projectId }))).status).toBe(200);
    expect(await meStatus(readOnly.token)).toBe(200);
    expect((await listRoute(apiRequest("GET", "/api/me/tokens", { token: readOnly.token }), routeParams({}))).status).toBe(200);
    const put = await putShareRoute(apiRequest("PUT", "/x", { token: readOnly.token, body: { publicTitle: "No" } }), routeParams({ projectId, channel: "DEV" }));
    expect(put.status).toBe(403);
    expect(((await put.json()) as Problem).detail).toMatch(/read-only/);
    expect((await create(readOnly.token, { name: "wider", scopes: ["read", "shares:write"] })).status).toBe(403);
    expect((await create(readOnly.token, { name: "same", scopes: ["read"] })).status).toBe(403);
    expect((await revoke(readOnly.token, readOnly.id)).status).toBe(403);
  });

  it("a write scope covers its own resource only: templates:write + read may not write a share (403 naming shares:write)", async () => {
    const manager = await createTestMember("ProjectManager", { projectId });
    const deployer = await createOk(manager.token, { name: "deployer", scopes: ["read", "templates:write"] });
    const put = await putShareRoute(apiRequest("PUT", "/x", { token: deployer.token, body: { publicTitle: "No" } }), routeParams({ projectId, channel: "DEV" }));
    expect(put.status).toBe(403);
    expect(((await put.json()) as Problem).detail).toContain("needs the shares:write scope");
  });

  it("the role still decides: a token with every scope of a Viewer is refused a write (403 for the role)", async () => {
    const viewer = await createTestMember("Viewer", { projectId });
    const put = await putShareRoute(apiRequest("PUT", "/x", { token: viewer.token, body: { publicTitle: "No" } }), routeParams({ projectId, channel: "DEV" }));
    expect(put.status).toBe(403);
    expect(((await put.json()) as Problem).detail).toContain("ProjectManager role");
  });

  it("organization routes check the scope too: read lists members, members:write is needed to invite", async () => {
    const { organization } = await createTestProject();
    const admin = await createTestMember("OrganizationAdmin", { organizationId: organization.id });
    const reader = await createOk(admin.token, { name: "reader", scopes: ["read", "projects:write"] });
    const orgParams = routeParams({ orgId: organization.id });
    expect((await listMembersRoute(apiRequest("GET", "/x", { token: reader.token }), orgParams)).status).toBe(200);
    const invite = await inviteRoute(apiRequest("POST", "/x", { token: reader.token, body: { email: "someone@test.example", role: "Viewer" } }), orgParams);
    expect(invite.status).toBe(403);
    expect(((await invite.json()) as Problem).detail).toContain("needs the members:write scope");
  });
});

describe("/api/me/tokens – tokens made with a token", () => {
  it("a child gets its parent's scopes by default, at most those (403 naming what it lacks), and records its parent", async () => {
    const parent = await createOk(member.token, { name: "parent", scopes: ["read", "tokens:write", "templates:write"] });
    const child = await createOk(parent.token, { name: "child" });
    expect(child).toMatchObject({ scopes: ["read", "templates:write", "tokens:write"], parentTokenId: parent.id });
    const narrower = await createOk(parent.token, { name: "narrower", scopes: ["read"] });
    expect(narrower.scopes).toEqual(["read"]);
    const wider = await create(parent.token, { name: "wider", scopes: ["read", "webhooks:write"] });
    expect(wider.status).toBe(403);
    expect(((await wider.json()) as Problem).detail).toMatch(/wider than itself.*lacks webhooks:write/);
  });

  it("revoking a token revokes its children and theirs at once; its siblings and parent stay", async () => {
    const root = await createOk(member.token, { name: "root" });
    const child = await createOk(root.token, { name: "child" });
    const grandchild = await createOk(child.token, { name: "grandchild" });
    const sibling = await createOk(root.token, { name: "sibling" });
    expect(grandchild.parentTokenId).toBe(child.id);

    expect((await revoke(member.token, child.id)).status).toBe(200);
    expect(await meStatus(child.token)).toBe(401);
    expect(await meStatus(grandchild.token)).toBe(401);
    expect(await meStatus(sibling.token)).toBe(200);
    expect(await meStatus(root.token)).toBe(200);
    const listed = new Map((await list(member.token)).map((token) => [token.id, token.status]));
    expect([listed.get(child.id), listed.get(grandchild.id), listed.get(sibling.id), listed.get(root.id)]).toEqual(["Revoked", "Revoked", "Active", "Active"]);

    expect((await revoke(root.token, root.id)).status).toBe(200);
    expect(await meStatus(sibling.token)).toBe(401);
  });

  it("a token whose ancestor is revoked is refused even if its own row was missed (a child made while the parent was being revoked)", async () => {
    const parent = await createOk(member.token, { name: "parent" });
    const child = await createOk(parent.token, { name: "child" });
    const db = await getDb();
    // What the race leaves: the parent's row revoked, the child's not.
    await db.update(personalAccessTokens).set({ revokedAt: new Date() }).where(eq(personalAccessTokens.id, parent.id));
    expect(await meStatus(child.token)).toBe(401);
    expect((await list(member.token)).find((token) => token.id === child.id)?.status).toBe("Revoked");
  });

  it(`chains stop at ${maxTokenGenerations} generations (403); the last one still authenticates`, async () => {
    // The member's token, made with the CLI, is the first generation.
    let token = member.token;
    for (let generation = 2; generation <= maxTokenGenerations; generation++) token = (await createOk(token, { name: `generation ${generation}` })).token;
    expect(await meStatus(token)).toBe(200);
    const deeper = await create(token, { name: "too deep" });
    expect(deeper.status).toBe(403);
    expect(((await deeper.json()) as Problem).detail).toMatch(/nest at most/);
  });
});
