import { beforeAll, describe, expect, it } from "vitest";
import { apiRequest, createTestMember, createTestProject, routeParams } from "@/lib/testing/factories";
import { GET as meRoute } from "../route";
import { POST as revokeRoute } from "./[id]/revoke/route";
import { GET as listRoute, POST as createRoute } from "./route";

type Token = { id: string; name: string; status: string; token?: string };

let member: Awaited<ReturnType<typeof createTestMember>>;
let projectId: string;

beforeAll(async () => {
  const { project } = await createTestProject();
  projectId = project.id;
  member = await createTestMember("Editor", { projectId });
});

const list = async (token: string) => ((await (await listRoute(apiRequest("GET", "/api/me/tokens", { token }), routeParams({}))).json()) as { items: Token[] }).items;

describe("/api/me/tokens", () => {
  it("creates a token shown once, which authenticates until it is revoked", async () => {
    const created = await createRoute(apiRequest("POST", "/api/me/tokens", { token: member.token, body: { name: "CI" } }), routeParams({}));
    expect(created.status).toBe(201);
    const token = (await created.json()) as Token;
    expect(token.token).toMatch(/^rbk_/);
    const listed = await list(member.token);
    expect(listed.find((t) => t.id === token.id)).toMatchObject({ name: "CI", status: "Active" });
    expect(JSON.stringify(listed)).not.toContain(token.token);

    const me = await meRoute(apiRequest("GET", "/api/me", { token: token.token }), routeParams({}));
    expect(me.status).toBe(200);
    expect(((await me.json()) as { projects: { id: string; role: string }[] }).projects).toEqual([expect.objectContaining({ id: projectId, role: "Editor" })]);

    const revoked = await revokeRoute(apiRequest("POST", "/x", { token: member.token }), routeParams({ id: token.id }));
    expect(((await revoked.json()) as Token).status).toBe("Revoked");
    expect((await revokeRoute(apiRequest("POST", "/x", { token: member.token }), routeParams({ id: token.id }))).status).toBe(200);
    expect((await meRoute(apiRequest("GET", "/api/me", { token: token.token }), routeParams({}))).status).toBe(401);
  });

  it("another user's token is 404 and stays active; bad bodies are 422", async () => {
    const other = await createTestMember("Viewer", { projectId });
    const [otherToken] = await list(other.token);
    expect((await revokeRoute(apiRequest("POST", "/x", { token: member.token }), routeParams({ id: otherToken!.id }))).status).toBe(404);
    expect((await revokeRoute(apiRequest("POST", "/x", { token: member.token }), routeParams({ id: "nope" }))).status).toBe(404);
    expect((await meRoute(apiRequest("GET", "/api/me", { token: other.token }), routeParams({}))).status).toBe(200);
    for (const body of [{}, { name: "" }, { name: "x", userId: other.user.id }]) {
      expect((await createRoute(apiRequest("POST", "/api/me/tokens", { token: member.token, body }), routeParams({}))).status).toBe(422);
    }
  });
});
