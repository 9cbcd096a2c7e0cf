import { beforeAll, describe, expect, it } from "vitest";
import { findUserByEmail } from "@/lib/accounts/accounts";
import { getDb } from "@/lib/db";
import { apiRequest, createTestMember, createTestProject, routeParams } from "@/testing/factories";
import { POST as createAccountRoute } from "@/app/api/invitations/create-account/route";
import { POST as createProjectRoute } from "../projects/route";
import { DELETE as removeRoute, PATCH as changeRoute } from "./[membershipId]/route";
import { GET as listRoute, POST as inviteRoute } from "./route";

type Project = Awaited<ReturnType<typeof createTestProject>>;
type Member = { id: string; userId: string; email: string; role: string; scope: string; projectId: string | null };

let home: Project;
let admin: { token: string; user: { id: string; email: string } };

beforeAll(async () => {
  home = await createTestProject();
  admin = await createTestMember("OrganizationAdmin", { organizationId: home.organization.id });
});

const orgId = () => home.organization.id;
const list = (token: string, org = orgId()) => listRoute(apiRequest("GET", `/api/organizations/${org}/members`, { token }), routeParams({ orgId: org }));
const invite = (token: string, body: unknown, org = orgId()) =>
  inviteRoute(apiRequest("POST", `/api/organizations/${org}/members`, { token, body }), routeParams({ orgId: org }));
const change = (token: string, membershipId: string, body: unknown, org = orgId()) =>
  changeRoute(apiRequest("PATCH", `/api/organizations/${org}/members/${membershipId}`, { token, body }), routeParams({ orgId: org, membershipId }));
const remove = (token: string, membershipId: string, org = orgId()) =>
  removeRoute(apiRequest("DELETE", `/api/organizations/${org}/members/${membershipId}`, { token }), routeParams({ orgId: org, membershipId }));
/** What the invited person does at the accept URL when the address has no account: choose a password. */
async function acceptAsNewUser({ acceptUrl }: { acceptUrl: string }) {
  const token = acceptUrl.split("/").pop()!;
  const response = await createAccountRoute(apiRequest("POST", "/api/invitations/create-account", { body: { token, password: "correct horse battery" } }), routeParams({}));
  expect(response.status).toBe(201);
  return (await response.json()) as { membershipId: string; userId: string };
}
const membersOf = async (token: string) => ((await (await list(token)).json()) as { items: Member[] }).items;

describe("POST /api/organizations/{orgId}/members – invite by email", () => {
  it("answers a pending invitation with its accept URL, and adds no membership until it is accepted", async () => {
    const email = `Invited-${crypto.randomUUID()}@Example.com`;
    const response = await invite(admin.token, { email, role: "Viewer", projectId: home.project.id });
    expect(response.status).toBe(201);
    const body = (await response.json()) as Record<string, unknown>;
    expect(body).toMatchObject({ email: email.toLowerCase(), role: "Viewer", scope: "project", projectId: home.project.id, status: "pending" });
    expect(body.acceptUrl).toMatch(/\/invitations\/rbi_[A-Za-z0-9_-]{43}$/);
    expect(body).not.toHaveProperty("oneTimePassword");
    expect(await findUserByEmail(await getDb(), email)).toBeNull();
    expect((await membersOf(admin.token)).map((m) => m.email)).not.toContain(email.toLowerCase());
  });

  it("refuses an address already a member on that scope with 409", async () => {
    const existing = await createTestMember("Viewer", { projectId: home.project.id });
    const again = await invite(admin.token, { email: existing.user.email, role: "Editor", projectId: home.project.id });
    expect(again.status).toBe(409);
    expect(((await again.json()) as { detail: string }).detail).toMatch(/already a member of that project/);
  });

  it("refuses bad bodies with 422 by field, and a project of another organization", async () => {
    const other = await createTestProject();
    for (const [body, path] of [
      [{ email: "not an email", role: "Viewer" }, "email"],
      [{ email: "a@example.com", role: "Owner" }, "role"],
      [{ email: "a@example.com", role: "Viewer", projectId: other.project.id }, "projectId"],
      [{ email: "a@example.com", role: "Viewer", slug: "x" }, ""],
    ] as const) {
      const response = await invite(admin.token, body);
      expect(response.status, JSON.stringify(body)).toBe(422);
      const problem = (await response.json()) as { errors: { path: string }[] };
      if (path) expect(problem.errors.map((e) => e.path)).toContain(path);
    }
  });
});

describe("the last OrganizationAdmin", () => {
  it("cannot be demoted or removed (409); with a second admin, one of them can", async () => {
    const project = await createTestProject();
    const only = await createTestMember("OrganizationAdmin", { organizationId: project.organization.id });
    const org = project.organization.id;
    const members = ((await (await list(only.token, org)).json()) as { items: Member[] }).items;
    const own = members.find((m) => m.userId === only.user.id)!;
    const demote = await change(only.token, own.id, { role: "Viewer" }, org);
    expect(demote.status).toBe(409);
    expect(((await demote.json()) as { detail: string }).detail).toMatch(/last OrganizationAdmin/);
    const removal = await remove(only.token, own.id, org);
    expect(removal.status).toBe(409);

    const second = await invite(only.token, { email: `second-${crypto.randomUUID()}@example.com`, role: "OrganizationAdmin" }, org);
    const secondId = (await acceptAsNewUser((await second.json()) as { acceptUrl: string })).membershipId;
    const demoted = await change(only.token, secondId, { role: "Editor" }, org);
    expect(demoted.status).toBe(200);
    expect(((await demoted.json()) as Member).role).toBe("Editor");
  });

  it("two admins demoting each other at once: one succeeds, the organization keeps an admin", async () => {
    const project = await createTestProject();
    const org = project.organization.id;
    const a = await createTestMember("OrganizationAdmin", { organizationId: org });
    const b = await createTestMember("OrganizationAdmin", { organizationId: org });
    const members = ((await (await list(a.token, org)).json()) as { items: Member[] }).items;
    const idOf = (m: typeof a) => members.find((member) => member.userId === m.user.id)!.id;
    const demote = (actor: typeof a, target: typeof a) => change(actor.token, idOf(target), { role: "Viewer" }, org).then((r) => r.status);
    const statuses = await Promise.all([demote(a, b), demote(b, a)]);
    // The loser is refused by the last-admin rule (409) or, if the winner committed before it
    // was authorized, because it is no longer an admin (403).
    expect(statuses.filter((status) => status === 200)).toHaveLength(1);
    expect(statuses.find((status) => status !== 200)).toBeOneOf([403, 409]);
    const after = ((await (await list(statuses[0] === 200 ? a.token : b.token, org)).json()) as { items: Member[] }).items;
    expect(after.filter((m) => m.scope === "organization" && m.role === "OrganizationAdmin")).toHaveLength(1);
  });
});

describe("role gates and tenant scoping", () => {
  it("a ProjectManager of the organization gets 403, a stranger 404, a malformed id 404", async () => {
    const manager = await createTestMember("ProjectManager", { organizationId: orgId() });
    expect((await list(manager.token)).status).toBe(403);
    expect((await invite(manager.token, { email: "x@example.com", role: "Viewer" })).status).toBe(403);
    const stranger = await createTestMember("OrganizationAdmin", { organizationId: (await createTestProject()).organization.id });
    expect((await list(stranger.token)).status).toBe(404);
    expect((await list(admin.token, "not-a-uuid")).status).toBe(404);
    expect((await change(admin.token, "not-a-uuid", { role: "Viewer" })).status).toBe(404);
    expect((await remove(admin.token, crypto.randomUUID())).status).toBe(404);
  });

  it("a membership of another organization is not found through this one", async () => {
    const other = await createTestProject();
    const otherAdmin = await createTestMember("OrganizationAdmin", { organizationId: other.organization.id });
    const otherMembers = ((await (await list(otherAdmin.token, other.organization.id)).json()) as { items: Member[] }).items;
    expect((await change(admin.token, otherMembers[0]!.id, { role: "Viewer" })).status).toBe(404);
  });

  it("POST …/projects: an admin creates a project (201, audited); a ProjectManager gets 403", async () => {
    const created = await createProjectRoute(apiRequest("POST", "/x", { token: admin.token, body: { name: "Launch" } }), routeParams({ orgId: orgId() }));
    expect(created.status).toBe(201);
    expect(((await created.json()) as { name: string }).name).toBe("Launch");
    const manager = await createTestMember("ProjectManager", { organizationId: orgId() });
    expect((await createProjectRoute(apiRequest("POST", "/x", { token: manager.token, body: { name: "No" } }), routeParams({ orgId: orgId() }))).status).toBe(403);
    expect((await createProjectRoute(apiRequest("POST", "/x", { token: admin.token, body: { name: "" } }), routeParams({ orgId: orgId() }))).status).toBe(422);
  });
});
