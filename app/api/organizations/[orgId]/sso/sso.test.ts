import { randomUUID } from "node:crypto";
import { and, eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { findUserByEmail } from "@/lib/accounts/accounts";
import { resolveSsoSignIn, ssoRequiredFor } from "@/lib/accounts/sso";
import { getDb } from "@/lib/db";
import { auditEvents, memberships, organizationSso, users } from "@/lib/db/schema";
import { openSecret } from "@/lib/webhooks/secret-box";
import { apiRequest, createTestMember, createTestProject, routeParams } from "@/testing/factories";
import { POST as lookupRoute } from "@/app/api/sso/lookup/route";
import { DELETE as deleteRoute, GET as getRoute, PUT as putRoute } from "./route";

// The organization's single sign-on settings through the API (docs/adr/0159-organization-sso.md),
// and who an ID token's address signs in as; the sign-in itself, through a real OpenID provider,
// is e2e/sso.spec.ts.

type Project = Awaited<ReturnType<typeof createTestProject>>;
type Settings = { callbackUrl: string; settings: null | { issuer: string; clientId: string; clientSecretSet: true; emailDomain: string | null; defaultRole: string; requireSso: boolean } };

let home: Project;
let admin: Awaited<ReturnType<typeof createTestMember>>;
const orgId = () => home.organization.id;
const get = (token: string, org = orgId()) => getRoute(apiRequest("GET", `/api/organizations/${org}/sso`, { token }), routeParams({ orgId: org }));
const put = (token: string, body: unknown, org = orgId()) => putRoute(apiRequest("PUT", `/api/organizations/${org}/sso`, { token, body }), routeParams({ orgId: org }));
const remove = (token: string, org = orgId()) => deleteRoute(apiRequest("DELETE", `/api/organizations/${org}/sso`, { token }), routeParams({ orgId: org }));
const lookup = (email: string) => lookupRoute(apiRequest("POST", "/api/sso/lookup", { body: { email } }), routeParams({}));

const secret = `idp-secret-${randomUUID()}`;
const domain = () => `sso-${orgId().slice(0, 8)}.example`;
const validBody = () => ({ issuer: "https://login.example.com/realms/acme/", clientId: "reelbind", clientSecret: secret, emailDomain: domain().toUpperCase(), defaultRole: "Editor" });

beforeAll(async () => {
  home = await createTestProject();
  admin = await createTestMember("OrganizationAdmin", { organizationId: home.organization.id });
});

describe("PUT/GET /api/organizations/{orgId}/sso", () => {
  it("stores the settings with the secret sealed; neither answer nor audit row ever holds it", async () => {
    const saved = await put(admin.token, validBody());
    expect(saved.status).toBe(200);
    const text = await saved.text();
    expect(text).not.toContain(secret);
    const body = JSON.parse(text) as Settings;
    expect(body.settings).toMatchObject({ issuer: "https://login.example.com/realms/acme", clientId: "reelbind", clientSecretSet: true, emailDomain: domain(), defaultRole: "Editor", requireSso: false });
    expect(body.callbackUrl).toMatch(new RegExp(`/api/auth/callback/sso-${orgId()}$`));
    expect(body.settings).not.toHaveProperty("clientSecret");

    const read = await get(admin.token);
    expect(read.status).toBe(200);
    expect(await read.text()).not.toContain(secret);

    const [row] = await (await getDb()).select().from(organizationSso).where(eq(organizationSso.organizationId, orgId()));
    expect(row!.clientSecretCiphertext).not.toContain(secret);
    expect(openSecret(row!.clientSecretCiphertext, `sso:${orgId()}`)).toBe(secret);
    // Bound to its organization: the same ciphertext does not open as another's.
    expect(() => openSecret(row!.clientSecretCiphertext, `sso:${randomUUID()}`)).toThrow();

    const trail = await (await getDb()).select().from(auditEvents).where(and(eq(auditEvents.organizationId, orgId()), eq(auditEvents.action, "sso.configured")));
    expect(trail).toHaveLength(1);
    expect(trail[0]!.actorUserId).toBe(admin.user.id);
    expect(JSON.stringify(trail[0]!.data)).not.toContain(secret);
  });

  it("keeps the stored secret when a later PUT omits it, and records the change", async () => {
    const before = await (await getDb()).select().from(organizationSso).where(eq(organizationSso.organizationId, orgId()));
    const { clientSecret: _omitted, ...withoutSecret } = validBody();
    const saved = await put(admin.token, { ...withoutSecret, requireSso: true });
    expect(saved.status).toBe(200);
    expect(((await saved.json()) as Settings).settings).toMatchObject({ requireSso: true, clientSecretSet: true });
    const [after] = await (await getDb()).select().from(organizationSso).where(eq(organizationSso.organizationId, orgId()));
    expect(after!.clientSecretCiphertext).toBe(before[0]!.clientSecretCiphertext);
    const [updated] = await (await getDb()).select().from(auditEvents).where(and(eq(auditEvents.organizationId, orgId()), eq(auditEvents.action, "sso.updated")));
    expect(updated!.data).toMatchObject({ requireSso: true, clientSecretChanged: false });
    await put(admin.token, { ...withoutSecret, requireSso: false });
  });

  it("refuses a Viewer, an Editor and a ProjectManager of the organization (403) and changes nothing", async () => {
    for (const role of ["Viewer", "Editor", "ProjectManager"] as const) {
      const member = await createTestMember(role, { organizationId: orgId() });
      expect((await get(member.token)).status, role).toBe(403);
      expect((await put(member.token, { ...validBody(), clientId: "hijacked" })).status, role).toBe(403);
      expect((await remove(member.token)).status, role).toBe(403);
    }
    const [row] = await (await getDb()).select().from(organizationSso).where(eq(organizationSso.organizationId, orgId()));
    expect(row!.clientId).toBe("reelbind");
  });

  it("refuses another organization's admin (404/403, never the settings)", async () => {
    const other = await createTestProject();
    const otherAdmin = await createTestMember("OrganizationAdmin", { organizationId: other.organization.id });
    const response = await get(otherAdmin.token);
    expect([403, 404]).toContain(response.status);
    expect(await response.text()).not.toContain("clientId");
  });

  it("refuses bad bodies with 422 by field: OrganizationAdmin as the default role, plain http off loopback, a bad domain, unknown fields", async () => {
    for (const [body, path] of [
      [{ ...validBody(), defaultRole: "OrganizationAdmin" }, "defaultRole"],
      [{ ...validBody(), issuer: "http://login.example.com" }, "issuer"],
      [{ ...validBody(), issuer: "https://login.example.com/?tenant=1" }, "issuer"],
      [{ ...validBody(), issuer: "not a url" }, "issuer"],
      [{ ...validBody(), emailDomain: "@example.com" }, "emailDomain"],
      [{ ...validBody(), clientId: "" }, "clientId"],
      [{ ...validBody(), clientSecretSet: true }, ""],
    ] as const) {
      const response = await put(admin.token, body);
      expect(response.status, JSON.stringify(body)).toBe(422);
      const problem = (await response.json()) as { errors: { path: string }[] };
      if (path) expect(problem.errors.map((e) => e.path)).toContain(path);
    }
  });

  it("answers 409 for a first configuration without a secret, and for a domain another organization signs in", async () => {
    const fresh = await createTestProject();
    const freshAdmin = await createTestMember("OrganizationAdmin", { organizationId: fresh.organization.id });
    const { clientSecret: _omitted, ...withoutSecret } = validBody();
    const first = await put(freshAdmin.token, { ...withoutSecret, emailDomain: null }, fresh.organization.id);
    expect(first.status).toBe(409);
    expect(((await first.json()) as { detail: string }).detail).toMatch(/client secret is required/);
    const taken = await put(freshAdmin.token, validBody(), fresh.organization.id);
    expect(taken.status).toBe(409);
    expect(((await taken.json()) as { detail: string }).detail).toMatch(/a domain belongs to one organization/);
  });
});

describe("POST /api/sso/lookup", () => {
  it("finds the organization by the address's domain (any case); 404 for a domain nobody signs in", async () => {
    const found = await lookup(`Someone@${domain().toUpperCase()}`);
    expect(found.status).toBe(200);
    expect(await found.json()).toEqual({ providerId: `sso-${orgId()}`, organizationName: home.organization.name });
    expect((await lookup(`someone@not-${domain()}`)).status).toBe(404);
  });
});

describe("resolveSsoSignIn – who a verified ID token's address signs in as", () => {
  it("an existing member signs in as themselves; nothing is written", async () => {
    const viewer = await createTestMember("Viewer", { projectId: home.project.id });
    const outcome = await resolveSsoSignIn(await getDb(), orgId(), { email: viewer.user.email.toUpperCase(), email_verified: true });
    expect(outcome).toEqual({ ok: true, user: expect.objectContaining({ id: viewer.user.id }) });
  });

  it("a new address of the domain gets an account without a password and a membership with the default role, audited", async () => {
    const email = `jit-${randomUUID()}@${domain()}`;
    const outcome = await resolveSsoSignIn(await getDb(), orgId(), { email, email_verified: true, name: "Jit Member" });
    expect(outcome.ok).toBe(true);
    const user = await findUserByEmail(await getDb(), email);
    expect(user).toMatchObject({ passwordHash: null, name: "Jit Member" });
    const rows = await (await getDb()).select().from(memberships).where(eq(memberships.userId, user!.id));
    expect(rows).toEqual([expect.objectContaining({ organizationId: orgId(), projectId: null, role: "Editor" })]);
    const [joined] = await (await getDb()).select().from(auditEvents).where(and(eq(auditEvents.action, "member.joined_by_sso"), eq(auditEvents.targetId, rows[0]!.id)));
    expect(joined).toMatchObject({ organizationId: orgId(), actorUserId: user!.id });
    // Again: the same account, no second membership.
    expect(await resolveSsoSignIn(await getDb(), orgId(), { email })).toEqual({ ok: true, user: expect.objectContaining({ id: user!.id }) });
    expect(await (await getDb()).select().from(memberships).where(eq(memberships.userId, user!.id))).toHaveLength(1);
  });

  it("refuses an address outside the domain that is not a member, an unverified or missing address, a disabled account; writes nothing", async () => {
    const stranger = `stranger-${randomUUID()}@elsewhere.example`;
    expect(await resolveSsoSignIn(await getDb(), orgId(), { email: stranger })).toEqual({ ok: false, refusal: "SsoNotMember" });
    expect(await findUserByEmail(await getDb(), stranger)).toBeNull();
    expect(await resolveSsoSignIn(await getDb(), orgId(), { email: `x-${randomUUID()}@${domain()}`, email_verified: false })).toEqual({ ok: false, refusal: "SsoNoEmail" });
    expect(await resolveSsoSignIn(await getDb(), orgId(), {})).toEqual({ ok: false, refusal: "SsoNoEmail" });
    const disabled = await createTestMember("Viewer", { organizationId: orgId() });
    await (await getDb()).update(users).set({ disabledAt: new Date() }).where(eq(users.id, disabled.user.id));
    expect(await resolveSsoSignIn(await getDb(), orgId(), { email: disabled.user.email })).toEqual({ ok: false, refusal: "SsoUserDisabled" });
  });
});

describe("require SSO", () => {
  it("refuses members' passwords (on the organization or one of its projects), never an OrganizationAdmin's; off again, nobody's", async () => {
    const orgViewer = await createTestMember("Viewer", { organizationId: orgId() });
    const projectEditor = await createTestMember("Editor", { projectId: home.project.id });
    const db = await getDb();
    for (const user of [orgViewer.user, projectEditor.user, admin.user]) expect(await ssoRequiredFor(db, user.id)).toBeNull();
    const { clientSecret: _omitted, ...withoutSecret } = validBody();
    expect((await put(admin.token, { ...withoutSecret, requireSso: true })).status).toBe(200);
    expect(await ssoRequiredFor(db, orgViewer.user.id)).toEqual({ organizationName: home.organization.name });
    expect(await ssoRequiredFor(db, projectEditor.user.id)).toEqual({ organizationName: home.organization.name });
    expect(await ssoRequiredFor(db, admin.user.id)).toBeNull();
    expect((await remove(admin.token)).status).toBe(204);
    expect(await ssoRequiredFor(db, orgViewer.user.id)).toBeNull();
    expect(((await (await get(admin.token)).json()) as Settings).settings).toBeNull();
    const [removed] = await db.select().from(auditEvents).where(and(eq(auditEvents.organizationId, orgId()), eq(auditEvents.action, "sso.removed")));
    expect(removed!.actorUserId).toBe(admin.user.id);
  });
});
