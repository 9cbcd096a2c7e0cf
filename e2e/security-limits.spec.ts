import { randomUUID } from "node:crypto";
import { expect, test, type APIRequestContext } from "@playwright/test";
import { lightsUpload, setUpShare } from "./embed-helpers";
import { cli } from "./owned-project";
import { createProjectMember } from "./security-limits-helpers";

// Guard rails on the built server: an embed session ends with the credential that minted it,
// the audit log shows a Viewer only what a Viewer may read, other people's emails only to
// OrganizationAdmins; a campaign CSV the parser cannot read is a 422 naming its line.

type Credential = { id: string; apiKey: string; apiSecret: string };
type AuditPage = { items: { action: string; actor: { id: string; email: string } | null; data: Record<string, unknown> | null }[] };

// Hang guard: each test makes its users and projects (over the admin channel) and many requests.
test.describe.configure({ timeout: 300_000 });

const bearer = (token: string) => ({ Authorization: `Bearer ${token}` });

async function createCredential(request: APIRequestContext, token: string, projectId: string, name: string): Promise<Credential> {
  const response = await request.post("/api/credentials", { headers: bearer(token), data: { projectId, name } });
  expect(response.status(), await response.text()).toBe(201);
  return (await response.json()) as Credential;
}

async function mintSession(request: APIRequestContext, credential: Credential): Promise<string> {
  const basic = `Basic ${Buffer.from(`${credential.apiKey}:${credential.apiSecret}`).toString("base64")}`;
  const response = await request.post("/api/embed-sessions", { headers: { Authorization: basic }, data: { channel: "DEV" } });
  expect(response.status(), await response.text()).toBe(201);
  return ((await response.json()) as { token: string }).token;
}

const manifestStatus = async (request: APIRequestContext, session: string) =>
  (await request.get(`/api/embed/manifest?session=${encodeURIComponent(session)}`)).status();

test.describe("embed sessions and their credential", () => {
  test("GET /api/embed/manifest?session= – after POST /api/credentials/{id}/revoke of the minting credential → 401; /embed?session= shows the notice", async ({ request }) => {
    const setup = await setUpShare(request, "Revoked session", lightsUpload);
    // A second credential of the project mints the session; the share keeps its own (active) one.
    const minting = await createCredential(request, setup.token, setup.projectId, "Customer site");
    const session = await mintSession(request, minting);
    const other = await setup.session(request, {});
    expect(await manifestStatus(request, session)).toBe(200);

    const revoked = await request.post(`/api/credentials/${minting.id}/revoke`, { headers: bearer(setup.token) });
    expect(revoked.status(), await revoked.text()).toBe(200);

    const manifest = await request.get(`/api/embed/manifest?session=${encodeURIComponent(session)}`);
    expect(manifest.status()).toBe(401);
    expect(manifest.headers()["content-type"]).toBe("application/problem+json");
    expect(await manifest.json()).toMatchObject({ status: 401, code: "unauthorized", detail: "The token is invalid." });

    const page = await request.get(`/embed?session=${encodeURIComponent(session)}`);
    expect(page.status()).toBe(401);
    expect(page.headers()["content-type"]).toBe("text/html; charset=utf-8");
    expect(await page.text()).toContain("This video link has expired or is not valid.");

    // Sessions of the share's own credential are not affected.
    expect(await manifestStatus(request, other)).toBe(200);
    // A revoked credential cannot mint new sessions either.
    const basic = `Basic ${Buffer.from(`${minting.apiKey}:${minting.apiSecret}`).toString("base64")}`;
    expect((await request.post("/api/embed-sessions", { headers: { Authorization: basic }, data: { channel: "DEV" } })).status()).toBe(401);
  });
});

test.describe("GET /api/Projects/:id/audit-events by role", () => {
  test("GET …/audit-events – a Viewer sees no apiKey and no other member's email; the ProjectManager who acted sees the apiKeys and their own email", async ({ request }) => {
    const setup = await setUpShare(request, "Audit roles", lightsUpload);
    const credential = await createCredential(request, setup.token, setup.projectId, "Second site");
    const disabled = await request.post(`/api/Projects/${setup.projectId}/public-video-shares/DEV/disable`, { headers: bearer(setup.token) });
    expect(disabled.status(), await disabled.text()).toBe(200);
    const revoked = await request.post(`/api/credentials/${credential.id}/revoke`, { headers: bearer(setup.token) });
    expect(revoked.status()).toBe(200);
    const viewer = await createProjectMember(setup.projectId, "Viewer", "Audit viewer");

    const read = async (token: string) => {
      const response = await request.get(`/api/Projects/${setup.projectId}/audit-events`, { headers: bearer(token) });
      expect(response.status(), await response.text()).toBe(200);
      return { page: (await response.json()) as AuditPage, text: await response.text() };
    };
    const manager = await read(setup.token);
    const asViewer = await read(viewer.token);

    // The project was created at the command line: its first event is the operator's, with no actor.
    const actions = ["credential.revoked", "share.disabled", "credential.created", "share.created", "credential.created", "template.uploaded", "project.created"];
    expect(manager.page.items.map((event) => event.action)).toEqual(actions);
    expect(asViewer.page.items.map((event) => event.action)).toEqual(actions);
    expect([manager.page.items.at(-1)!.actor, asViewer.page.items.at(-1)!.actor]).toEqual([null, null]);
    const byMembers = (items: AuditPage["items"]) => items.slice(0, -1);

    const managerEmails = [...new Set(byMembers(manager.page.items).map((event) => event.actor!.email))];
    expect(managerEmails).toHaveLength(1);
    expect(managerEmails[0]).toMatch(/^audit-roles-.*@example\.com$/);
    const apiKeys = manager.page.items.filter((event) => event.action === "credential.created").map((event) => event.data!.apiKey);
    expect(apiKeys).toContain(credential.apiKey);
    expect(apiKeys.every((key) => typeof key === "string" && key.startsWith("pk_"))).toBe(true);

    for (const event of byMembers(asViewer.page.items)) expect(event.actor).toEqual({ id: manager.page.items[0]!.actor!.id, email: "a project member" });
    for (const event of asViewer.page.items) expect(event.data ?? {}).not.toHaveProperty("apiKey");
    expect(asViewer.page.items.find((event) => event.action === "credential.created")!.data).toEqual({ name: "Second site" });
    expect(asViewer.text).not.toContain(managerEmails[0]!);
    for (const key of apiKeys) expect(asViewer.text).not.toContain(key as string);
  });
});

test.describe("GET /api/Projects/:id/audit-events – members' emails", () => {
  test("member.invited, member.invitation_accepted, member.role_changed, member.removed → Viewers, Editors and ProjectManagers see no one else's email (their own only); an OrganizationAdmin sees every one", async ({ request }) => {
    const run = randomUUID().slice(0, 8);
    const org = await cli<{ id: string }>("org", "create", "--name", `Audit emails ${run}`);
    const { id: projectId } = await cli<{ id: string }>("project", "create", "--org", org.id, "--name", "Audit emails");
    const adminEmail = `audit-emails-admin-${run}@example.com`;
    await cli("user", "create", "--email", adminEmail);
    await cli("member", "add", "--user", adminEmail, "--org", org.id, "--role", "OrganizationAdmin");
    const admin = { email: adminEmail, token: (await cli<{ token: string }>("token", "create", "--user", adminEmail)).token };
    const readers = {
      Viewer: await createProjectMember(projectId, "Viewer", "Audit emails viewer"),
      Editor: await createProjectMember(projectId, "Editor", "Audit emails editor"),
      ProjectManager: await createProjectMember(projectId, "ProjectManager", "Audit emails manager"),
    };
    const invitee = `audit-emails-invitee-${run}@example.com`;

    // The admin invites a member to the project (who accepts with a password of their own),
    // changes their role and removes them; and changes the Viewer's role and back.
    const members = `/api/organizations/${org.id}/members`;
    const added = await request.post(members, { headers: bearer(admin.token), data: { email: invitee, role: "Editor", projectId } });
    expect(added.status(), await added.text()).toBe(201);
    const { acceptUrl } = (await added.json()) as { acceptUrl: string };
    const accepted = await request.post("/api/invitations/create-account", { data: { token: acceptUrl.split("/").pop(), password: `invitee-${run}-password` } });
    expect(accepted.status(), await accepted.text()).toBe(201);
    const membershipOf = async (email: string) => {
      const listed = await request.get(members, { headers: bearer(admin.token) });
      expect(listed.status()).toBe(200);
      return ((await listed.json()) as { items: { id: string; email: string }[] }).items.find((item) => item.email === email)!.id;
    };
    const inviteeMembership = await membershipOf(invitee);
    const viewerMembership = await membershipOf(readers.Viewer.email);
    for (const [membership, role] of [[inviteeMembership, "Viewer"], [viewerMembership, "Editor"], [viewerMembership, "Viewer"]] as const) {
      const changed = await request.patch(`${members}/${membership}`, { headers: bearer(admin.token), data: { role } });
      expect(changed.status(), await changed.text()).toBe(200);
    }
    const removed = await request.delete(`${members}/${inviteeMembership}`, { headers: bearer(admin.token) });
    expect(removed.status(), await removed.text()).toBe(204);

    const readAll = async (token: string) => {
      const response = await request.get(`/api/Projects/${projectId}/audit-events`, { headers: bearer(token) });
      expect(response.status(), await response.text()).toBe(200);
      const text = await response.text();
      return { items: (JSON.parse(text) as AuditPage).items, text };
    };
    // The project was created at the command line: its first event is the operator's `project.created`, no actor and no email.
    const actions = ["member.removed", "member.role_changed", "member.role_changed", "member.role_changed", "member.invitation_accepted", "member.invited"];
    const read = async (token: string) => {
      const page = await readAll(token);
      expect(page.items.at(-1)).toMatchObject({ action: "project.created", actor: null });
      return { items: page.items.slice(0, -1), text: page.text };
    };
    const asAdmin = await read(admin.token);
    expect(asAdmin.items.map((event) => event.action)).toEqual(actions);
    expect(asAdmin.items.map((event) => event.data!.email)).toEqual([invitee, readers.Viewer.email, readers.Viewer.email, invitee, invitee, invitee]);
    expect(asAdmin.items.map((event) => event.actor!.email)).toEqual([admin.email, admin.email, admin.email, admin.email, invitee, admin.email]);

    for (const [role, reader] of Object.entries(readers)) {
      const shown = await read(reader.token);
      expect(shown.items.map((event) => event.action), role).toEqual(actions);
      const others = [admin.email, invitee, ...Object.values(readers).map((member) => member.email)].filter((email) => email !== reader.email);
      for (const email of others) expect(shown.text, `${role} reads ${email}`).not.toContain(email);
      const aboutViewer = role === "Viewer" ? readers.Viewer.email : "a project member";
      expect(shown.items.map((event) => event.data!.email), role).toEqual(["a project member", aboutViewer, aboutViewer, "a project member", "a project member", "a project member"]);
      expect(shown.items.every((event) => event.actor!.email === "a project member"), role).toBe(true);
    }
  });
});

test.describe("POST /api/Projects/:id/campaigns/:id/recipients – CSV syntax errors", () => {
  test("a stray quote inside a field (a\"b), alone or after 4,500 good rows (two batches committed) → 422 naming the line; no recipient stored, the import failed with the line", async ({ request }) => {
    const setup = await setUpShare(request, "Stray quote", lightsUpload);
    const created = await request.post(`/api/Projects/${setup.projectId}/campaigns`, { headers: bearer(setup.token), data: { name: "Stray quote", channel: "DEV" } });
    expect(created.status(), await created.text()).toBe(201);
    const campaign = `/api/Projects/${setup.projectId}/campaigns/${((await created.json()) as { id: string }).id}`;
    const good = Array.from({ length: 4500 }, (_, i) => `r-${i},note ${i}`);
    const message = 'a field has a quote inside it without being quoted (quote the whole field and write the quote twice: "a""b")';

    for (const [csv, line] of [
      ['id,note\nr-1,plain\nr-2,a"b\nr-3,plain\n', 3],
      [`id,note\n${good.join("\n")}\nr-bad,a"b\nr-last,plain\n`, good.length + 2],
    ] as const) {
      const response = await request.post(`${campaign}/recipients`, { headers: { ...bearer(setup.token), "Content-Type": "text/csv" }, data: Buffer.from(csv) });
      expect(response.status(), await response.text()).toBe(422);
      expect(response.headers()["content-type"]).toBe("application/problem+json");
      expect(await response.json()).toMatchObject({ status: 422, detail: `The CSV cannot be read at line ${line}: ${message}.`, errors: [{ path: `line ${line}`, message }] });

      const recipients = await request.get(`${campaign}/recipients`, { headers: bearer(setup.token) });
      expect(recipients.status()).toBe(200);
      expect(((await recipients.json()) as { items: unknown[] }).items).toEqual([]);
      const detail = await request.get(campaign, { headers: bearer(setup.token) });
      const imports = ((await detail.json()) as { imports: { status: string; rowsImported: number; error: string | null }[] }).imports;
      expect(imports[0]).toMatchObject({ status: "failed", rowsImported: 0, error: `The CSV cannot be read at line ${line}: ${message}.` });
    }
  });
});
