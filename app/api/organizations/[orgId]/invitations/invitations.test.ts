import { and, eq } from "drizzle-orm";
import { encode } from "next-auth/jwt";
import { beforeAll, describe, expect, it } from "vitest";
import { POST as acceptRoute } from "@/app/api/invitations/accept/route";
import { POST as createAccountRoute } from "@/app/api/invitations/create-account/route";
import { GET as meRoute } from "@/app/api/me/route";
import { findUserByEmail } from "@/lib/accounts/accounts";
import { startConsoleSession } from "@/lib/auth/console-sessions";
import { verifyPassword } from "@/lib/auth/secrets";
import { getConfig } from "@/lib/config";
import { getDb } from "@/lib/db";
import { auditEvents, memberInvitations, memberships } from "@/lib/db/schema";
import { apiRequest, createTestMember, createTestProject, routeParams } from "@/testing/factories";
import { POST as inviteRoute } from "../members/route";
import { DELETE as revokeRoute } from "./[invitationId]/route";
import { GET as listRoute } from "./route";

// Adding a member is an invitation: the same answer for an address with and without an account,
// nothing granted until the person accepts, then a membership; expiry and revocation close it.

type Project = Awaited<ReturnType<typeof createTestProject>>;
type Member = Awaited<ReturnType<typeof createTestMember>>;
type Invitation = { id: string; email: string; role: string; scope: string; projectId: string | null; status: string; createdAt: string; expiresAt: string; acceptUrl: string };

let home: Project;
let admin: Member;

beforeAll(async () => {
  home = await createTestProject();
  admin = await createTestMember("OrganizationAdmin", { organizationId: home.organization.id });
});

const orgId = () => home.organization.id;
const inviteResponse = (body: unknown, token = admin.token) =>
  inviteRoute(apiRequest("POST", `/api/organizations/${orgId()}/members`, { token, body }), routeParams({ orgId: orgId() }));
async function invite(body: { email: string; role: string; projectId?: string }): Promise<Invitation & { token: string }> {
  const response = await inviteResponse(body);
  expect(response.status).toBe(201);
  const invitation = (await response.json()) as Invitation;
  return { ...invitation, token: invitation.acceptUrl.split("/").pop()! };
}
const list = async (token = admin.token) =>
  ((await (await listRoute(apiRequest("GET", "/x", { token }), routeParams({ orgId: orgId() }))).json()) as { items: Invitation[] }).items;
const revoke = (invitationId: string, token = admin.token) => revokeRoute(apiRequest("DELETE", "/x", { token }), routeParams({ orgId: orgId(), invitationId }));
const createAccount = (body: unknown) => createAccountRoute(apiRequest("POST", "/api/invitations/create-account", { body }), routeParams({}));

/** The headers of the user's console session: the session cookie, from the app's own origin. */
async function consoleSession(user: { id: string; email: string }) {
  const sid = await startConsoleSession(await getDb(), user.id);
  const cookie = `next-auth.session-token=${await encode({ token: { sub: user.id, sid, email: user.email }, secret: getConfig().authSecret })}`;
  return { cookie, origin: new URL(getConfig().publicBaseUrl).origin };
}
const accept = async (user: { id: string; email: string }, token: string) =>
  acceptRoute(apiRequest("POST", "/api/invitations/accept", { headers: await consoleSession(user), body: { token } }), routeParams({}));
const projectsOf = async (token: string) =>
  ((await (await meRoute(apiRequest("GET", "/api/me", { token }), routeParams({}))).json()) as { projects: { id: string }[]; organizations: { id: string }[] });

const uniqueEmail = (label: string) => `${label}-${crypto.randomUUID()}@test.example`;

describe("POST …/members – the same answer for an address with and without an account", () => {
  it("an existing user of another organization and a new address: same status and shape, values differing only in email, ids, URL and times", async () => {
    const outsider = await createTestMember("Editor", { organizationId: (await createTestProject()).organization.id });
    const answers = await Promise.all([
      inviteResponse({ email: outsider.user.email, role: "Editor", projectId: home.project.id }),
      inviteResponse({ email: uniqueEmail("new"), role: "Editor", projectId: home.project.id }),
    ]);
    expect(answers.map((answer) => answer.status)).toEqual([201, 201]);
    const [existing, fresh] = (await Promise.all(answers.map((answer) => answer.json()))) as Invitation[];
    const comparable = ({ id: _id, email: _email, acceptUrl, createdAt, expiresAt, ...rest }: Invitation) => ({
      ...rest,
      acceptUrl: acceptUrl.replace(/rbi_[\w-]+$/, "rbi_…"),
      lifetimeMs: Date.parse(expiresAt) - Date.parse(createdAt),
    });
    expect(Object.keys(existing!).sort()).toEqual(Object.keys(fresh!).sort());
    expect(comparable(existing!)).toEqual(comparable(fresh!));
    expect(comparable(existing!)).toMatchObject({ status: "pending", lifetimeMs: 7 * 24 * 3600 * 1000 });
  });

  it("until they accept, the existing user gets nothing of the organization, and keeps their other organization", async () => {
    const elsewhere = await createTestProject();
    const outsider = await createTestMember("Editor", { organizationId: elsewhere.organization.id });
    const invitation = await invite({ email: outsider.user.email, role: "OrganizationAdmin" });
    const me = await projectsOf(outsider.token);
    expect(me.organizations.map((org) => org.id)).toEqual([elsewhere.organization.id]);
    expect(me.projects.map((project) => project.id)).toEqual([elsewhere.project.id]);
    expect((await listRoute(apiRequest("GET", "/x", { token: outsider.token }), routeParams({ orgId: orgId() }))).status).toBe(404);

    expect((await accept({ id: outsider.user.id, email: outsider.user.email }, invitation.token)).status).toBe(200);
    const after = await projectsOf(outsider.token);
    expect(after.organizations.map((org) => org.id).sort()).toEqual([elsewhere.organization.id, orgId()].sort());
    expect((await listRoute(apiRequest("GET", "/x", { token: outsider.token }), routeParams({ orgId: orgId() }))).status).toBe(200);
  });
});

describe("POST /api/invitations/accept – an existing user, signed in to the console", () => {
  it("accepts once (200, the membership); again → 410; the invitation leaves the pending list", async () => {
    const user = (await createTestMember("Viewer", { projectId: (await createTestProject()).project.id })).user;
    const invitation = await invite({ email: user.email.toUpperCase(), role: "Editor", projectId: home.project.id });
    expect((await list()).map((item) => item.id)).toContain(invitation.id);
    const accepted = await accept(user, invitation.token);
    expect(accepted.status).toBe(200);
    expect(await accepted.json()).toMatchObject({ userId: user.id, projectId: home.project.id, role: "Editor", scope: "project" });
    expect((await accept(user, invitation.token)).status).toBe(410);
    expect((await list()).map((item) => item.id)).not.toContain(invitation.id);
  });

  it("signed in as another address → 403; with a bearer token, even the invited user's → 403; nothing is made", async () => {
    const invited = await createTestMember("Viewer", { projectId: (await createTestProject()).project.id });
    const other = await createTestMember("Viewer", { projectId: (await createTestProject()).project.id });
    const invitation = await invite({ email: invited.user.email, role: "Viewer" });
    const wrongUser = await accept(other.user, invitation.token);
    expect(wrongUser.status).toBe(403);
    expect(((await wrongUser.json()) as { detail: string }).detail).toContain(`Sign in as ${invited.user.email}`);
    const viaToken = await acceptRoute(apiRequest("POST", "/x", { token: invited.token, body: { token: invitation.token } }), routeParams({}));
    expect(viaToken.status).toBe(403);
    const db = await getDb();
    expect(await db.select().from(memberships).where(and(eq(memberships.userId, invited.user.id), eq(memberships.organizationId, orgId())))).toEqual([]);
    expect((await list()).find((item) => item.id === invitation.id)?.status).toBe("pending");
  });

  it.each([
    { name: "a malformed token", body: { token: "nope" }, status: 422 },
    { name: "an unknown token", body: { token: `rbi_${"A".repeat(43)}` }, status: 404 },
    { name: "an extra field", body: { token: `rbi_${"A".repeat(43)}`, role: "OrganizationAdmin" }, status: 422 },
  ])("$name → $status", async ({ body, status }) => {
    const response = await acceptRoute(apiRequest("POST", "/x", { headers: await consoleSession(admin.user), body }), routeParams({}));
    expect(response.status).toBe(status);
  });
});

describe("POST /api/invitations/create-account – a new address chooses its password", () => {
  it("makes the account with that password and the membership (201)", async () => {
    const email = uniqueEmail("newcomer");
    const invitation = await invite({ email, role: "Viewer", projectId: home.project.id });
    const response = await createAccount({ token: invitation.token, password: "a good long password", name: "Newcomer" });
    expect(response.status).toBe(201);
    const body = (await response.json()) as { userId: string; membershipId: string };
    const user = await findUserByEmail(await getDb(), email);
    expect(user).toMatchObject({ id: body.userId, name: "Newcomer" });
    expect(await verifyPassword("a good long password", user!.passwordHash!)).toBe(true);
    expect((await createAccount({ token: invitation.token, password: "a good long password" })).status).toBe(410);
  });

  it("for an address that has an account → 409 (sign in instead): its password is never set this way; the invitation stays pending", async () => {
    const existing = await createTestMember("Viewer", { projectId: (await createTestProject()).project.id });
    const invitation = await invite({ email: existing.user.email, role: "Viewer" });
    const before = await findUserByEmail(await getDb(), existing.user.email);
    const response = await createAccount({ token: invitation.token, password: "attacker's choice" });
    expect(response.status).toBe(409);
    expect(((await response.json()) as { code: string }).code).toBe("account_exists");
    expect((await findUserByEmail(await getDb(), existing.user.email))!.passwordHash).toBe(before!.passwordHash);
    expect((await list()).find((item) => item.id === invitation.id)?.status).toBe("pending");
  });

  it.each([
    { name: "a short password", body: (token: string) => ({ token, password: "short" }), path: "password" },
    { name: "no password", body: (token: string) => ({ token }), path: "password" },
    { name: "a malformed token", body: () => ({ token: "rbi_short", password: "long enough password" }), path: "token" },
  ])("$name → 422 at $path", async ({ body, path }) => {
    const invitation = await invite({ email: uniqueEmail("bad-body"), role: "Viewer" });
    const response = await createAccount(body(invitation.token));
    expect(response.status).toBe(422);
    expect(((await response.json()) as { errors: { path: string }[] }).errors.map((error) => error.path)).toEqual([path]);
  });
});

describe("closing an invitation: revocation, expiry, a new invitation", () => {
  it("DELETE → 204 (again: 204); its URL → 410; it leaves the list; an accepted one → 409; unknown → 404", async () => {
    const invitation = await invite({ email: uniqueEmail("revoked"), role: "Viewer" });
    expect((await revoke(invitation.id)).status).toBe(204);
    expect((await revoke(invitation.id)).status).toBe(204);
    expect((await createAccount({ token: invitation.token, password: "long enough password" })).status).toBe(410);
    expect((await list()).map((item) => item.id)).not.toContain(invitation.id);

    const accepted = await invite({ email: uniqueEmail("accepted"), role: "Viewer" });
    expect((await createAccount({ token: accepted.token, password: "long enough password" })).status).toBe(201);
    expect((await revoke(accepted.id)).status).toBe(409);
    expect((await revoke(crypto.randomUUID())).status).toBe(404);
    expect((await revoke("not-a-uuid")).status).toBe(404);
  });

  it("past expiresAt: listed as expired, its URL → 410", async () => {
    const invitation = await invite({ email: uniqueEmail("expired"), role: "Viewer" });
    const db = await getDb();
    await db.update(memberInvitations).set({ expiresAt: new Date(Date.now() - 1000) }).where(eq(memberInvitations.id, invitation.id));
    expect((await list()).find((item) => item.id === invitation.id)?.status).toBe("expired");
    const response = await createAccount({ token: invitation.token, password: "long enough password" });
    expect(response.status).toBe(410);
    expect(((await response.json()) as { detail: string }).detail).toMatch(/expired/);
  });

  it("inviting the same address on the same scope again replaces the open invitation: the old URL → 410, the new one works", async () => {
    const email = uniqueEmail("again");
    const first = await invite({ email, role: "Viewer" });
    const second = await invite({ email, role: "Editor" });
    expect((await list()).filter((item) => item.email === email).map((item) => item.id)).toEqual([second.id]);
    expect((await createAccount({ token: first.token, password: "long enough password" })).status).toBe(410);
    const accepted = await createAccount({ token: second.token, password: "long enough password" });
    expect(((await accepted.json()) as { role: string }).role).toBe("Editor");
  });

  it("the organization's audit trail has the invitation, its acceptance and a revocation, each by who did it", async () => {
    const accepted = await invite({ email: uniqueEmail("audited"), role: "Viewer", projectId: home.project.id });
    const { userId } = (await (await createAccount({ token: accepted.token, password: "long enough password" })).json()) as { userId: string };
    const revoked = await invite({ email: uniqueEmail("audited-revoked"), role: "Viewer", projectId: home.project.id });
    await revoke(revoked.id);
    const db = await getDb();
    const events = await db.select().from(auditEvents).where(eq(auditEvents.projectId, home.project.id)).orderBy(auditEvents.seq);
    const of = (targetId: string) => events.filter((event) => event.targetId === targetId).map((event) => [event.action, event.actorUserId]);
    expect(of(accepted.id)).toEqual([
      ["member.invited", admin.user.id],
      ["member.invitation_accepted", userId],
    ]);
    expect(of(revoked.id)).toEqual([
      ["member.invited", admin.user.id],
      ["member.invitation_revoked", admin.user.id],
    ]);
  });
});

describe("GET …/invitations – role gates", () => {
  it("a ProjectManager of the organization → 403, a stranger → 404", async () => {
    const manager = await createTestMember("ProjectManager", { organizationId: orgId() });
    expect((await listRoute(apiRequest("GET", "/x", { token: manager.token }), routeParams({ orgId: orgId() }))).status).toBe(403);
    expect((await revoke(crypto.randomUUID(), manager.token)).status).toBe(403);
    const stranger = await createTestMember("OrganizationAdmin", { organizationId: (await createTestProject()).organization.id });
    expect((await listRoute(apiRequest("GET", "/x", { token: stranger.token }), routeParams({ orgId: orgId() }))).status).toBe(404);
  });
});
