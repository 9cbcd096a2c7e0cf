import { and, eq, like } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { POST as createAccountRoute } from "@/app/api/invitations/create-account/route";
import { actionLimits } from "@/lib/auth/action-limits";
import { getDb } from "@/lib/db";
import { auditEvents, memberInvitations, organizations, rateLimits } from "@/lib/db/schema";
import { apiRequest, createTestMember, createTestProject, routeParams } from "@/testing/factories";
import { linkIn, startMailServer, type MailServer } from "@/testing/mail-server";
import { POST as inviteRoute } from "../members/route";
import { DELETE as revokeRoute } from "./[invitationId]/route";
import { POST as resendRoute } from "./[invitationId]/resend/route";

// Invitations on an instance with mail (a real SMTP server on loopback): the accept link goes to
// the invited address and never into the answer; re-sending makes a new link and ends the old.

const configKey = Symbol.for("reelbind.config");
const resetConfig = () => delete (globalThis as Record<symbol, unknown>)[configKey];

type Created = { id: string; email: string; status: string; delivery: "email" | "link"; acceptUrl?: string };

let mail: MailServer;
let home: Awaited<ReturnType<typeof createTestProject>>;
let admin: Awaited<ReturnType<typeof createTestMember>>;

beforeAll(async () => {
  mail = await startMailServer();
  process.env.SMTP_URL = mail.url;
  resetConfig();
  home = await createTestProject();
  admin = await createTestMember("OrganizationAdmin", { organizationId: home.organization.id });
});

afterAll(async () => {
  delete process.env.SMTP_URL;
  resetConfig();
  await mail.stop();
});

const orgId = () => home.organization.id;
const invite = (body: unknown, token = admin.token) => inviteRoute(apiRequest("POST", "/x", { token, body }), routeParams({ orgId: orgId() }));
const resend = (invitationId: string, token = admin.token) => resendRoute(apiRequest("POST", "/x", { token }), routeParams({ orgId: orgId(), invitationId }));
const revoke = (invitationId: string) => revokeRoute(apiRequest("DELETE", "/x", { token: admin.token }), routeParams({ orgId: orgId(), invitationId }));
const createAccount = (token: string) =>
  createAccountRoute(apiRequest("POST", "/api/invitations/create-account", { body: { token, password: "a good long passphrase" } }), routeParams({}));
const uniqueEmail = (label: string) => `${label}-${crypto.randomUUID()}@test.example`;
const tokenOf = (link: string) => link.split("/").pop()!;

describe("POST …/members with mail configured", () => {
  it("201 with delivery email and no acceptUrl; the mail carries the accept link, the inviter and the organization, HTML escaped", async () => {
    const email = uniqueEmail("mailed");
    const response = await invite({ email, role: "Viewer", projectId: home.project.id });
    expect(response.status).toBe(201);
    const created = (await response.json()) as Created;
    expect(created).toMatchObject({ email, status: "pending", delivery: "email" });
    expect(created).not.toHaveProperty("acceptUrl");
    const message = await mail.next(email, { subject: /invited/ });
    expect(message.text).toContain(admin.user.email);
    expect(message.text).toContain(home.organization.name);
    const link = linkIn(message, "/invitations/");
    expect(link).toMatch(/\/invitations\/rbi_[\w-]{43}$/);
    expect(message.html).toContain(`href="${link}"`);
    expect((await createAccount(tokenOf(link))).status).toBe(201);
  });

  it("an organization name with markup is escaped in the HTML part", async () => {
    const org = await createTestProject();
    await (await getDb()).update(organizations).set({ name: `<b>Acme</b> & "Co"` }).where(eq(organizations.id, org.organization.id));
    const orgAdmin = await createTestMember("OrganizationAdmin", { organizationId: org.organization.id });
    const email = uniqueEmail("escaped");
    const response = await inviteRoute(apiRequest("POST", "/x", { token: orgAdmin.token, body: { email, role: "Viewer" } }), routeParams({ orgId: org.organization.id }));
    expect(response.status).toBe(201);
    const message = await mail.next(email);
    expect(message.html).toContain("&lt;b&gt;Acme&lt;/b&gt; &amp; &quot;Co&quot;");
    expect(message.html).not.toContain("<b>Acme</b>");
  });
});

describe("POST …/invitations/{id}/resend", () => {
  it("mails a new link (200, delivery email); the old link → 410, the new one works; the trail records member.invitation_resent", async () => {
    const email = uniqueEmail("resent");
    const created = (await (await invite({ email, role: "Editor" })).json()) as Created;
    const oldLink = linkIn(await mail.next(email), "/invitations/");
    const response = await resend(created.id);
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({ id: created.id, status: "pending", delivery: "email" });
    const newLink = linkIn(await mail.next(email), "/invitations/");
    expect(newLink).not.toBe(oldLink);
    expect((await createAccount(tokenOf(oldLink))).status).toBe(404);
    expect((await createAccount(tokenOf(newLink))).status).toBe(201);
    const db = await getDb();
    const trail = await db
      .select({ actorUserId: auditEvents.actorUserId, data: auditEvents.data })
      .from(auditEvents)
      .where(and(eq(auditEvents.targetId, created.id), eq(auditEvents.action, "member.invitation_resent")));
    expect(trail).toEqual([{ actorUserId: admin.user.id, data: { email, role: "Editor", delivery: "email" } }]);
  });

  it("an expired invitation is pending again for seven days", async () => {
    const email = uniqueEmail("expired");
    const created = (await (await invite({ email, role: "Viewer" })).json()) as Created;
    await mail.next(email);
    const db = await getDb();
    await db.update(memberInvitations).set({ expiresAt: new Date(Date.now() - 1000) }).where(eq(memberInvitations.id, created.id));
    const response = await resend(created.id);
    expect(((await response.json()) as Created).status).toBe("pending");
    await mail.next(email);
  });

  it("accepted → 409; revoked → 410; unknown → 404; by a Viewer → 403; nothing is mailed", async () => {
    const accepted = (await (await invite({ email: uniqueEmail("accepted"), role: "Viewer" })).json()) as Created;
    expect((await createAccount(tokenOf(linkIn(await mail.next(accepted.email), "/invitations/")))).status).toBe(201);
    expect((await resend(accepted.id)).status).toBe(409);
    const revoked = (await (await invite({ email: uniqueEmail("revoked"), role: "Viewer" })).json()) as Created;
    await mail.next(revoked.email);
    expect((await revoke(revoked.id)).status).toBe(204);
    expect((await resend(revoked.id)).status).toBe(410);
    expect((await resend(crypto.randomUUID())).status).toBe(404);
    expect((await resend("not-a-uuid")).status).toBe(404);
    const viewer = await createTestMember("Viewer", { organizationId: orgId() });
    expect((await resend(accepted.id, viewer.token)).status).toBe(403);
    expect(mail.to(accepted.email)).toHaveLength(1);
    expect(mail.to(revoked.email)).toHaveLength(1);
  });
});

describe("limits and a mail server that refuses", () => {
  it(`one admin invites or re-sends ${actionLimits.invitation.points} times an hour in an organization; then 429 with Retry-After; another admin is not held`, async () => {
    const org = await createTestProject();
    const [busy, other] = await Promise.all([
      createTestMember("OrganizationAdmin", { organizationId: org.organization.id }),
      createTestMember("OrganizationAdmin", { organizationId: org.organization.id }),
    ]);
    const inviteIn = (token: string) =>
      inviteRoute(apiRequest("POST", "/x", { token, body: { email: uniqueEmail("bulk"), role: "Viewer" } }), routeParams({ orgId: org.organization.id }));
    expect((await inviteIn(busy.token)).status).toBe(201);
    // The rest of the hour's points spent at once: the admin's row in rate_limits, as that many calls would leave it.
    const db = await getDb();
    const updated = await db
      .update(rateLimits)
      .set({ points: actionLimits.invitation.points - 1 })
      .where(like(rateLimits.key, `invite-actor:${org.organization.id}:${busy.user.id}`))
      .returning({ key: rateLimits.key });
    expect(updated).toHaveLength(1);
    const first = (await (await inviteIn(busy.token)).json()) as Created;
    expect(first.status).toBe("pending");
    expect((await resendRoute(apiRequest("POST", "/x", { token: busy.token }), routeParams({ orgId: org.organization.id, invitationId: first.id }))).status).toBe(429);
    const refused = await inviteIn(busy.token);
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(0);
    expect((await inviteIn(other.token)).status).toBe(201);
  });

  it("SMTP server gone → 503 and no invitation is made (nothing half-written)", async () => {
    const gone = await startMailServer();
    await gone.stop();
    process.env.SMTP_URL = gone.url;
    resetConfig();
    try {
      const email = uniqueEmail("unsent");
      const response = await invite({ email, role: "Viewer" });
      expect(response.status).toBe(503);
      expect(((await response.json()) as { detail: string }).detail).toMatch(/could not be sent/);
      const db = await getDb();
      expect(await db.select().from(memberInvitations).where(eq(memberInvitations.email, email))).toEqual([]);
    } finally {
      process.env.SMTP_URL = mail.url;
      resetConfig();
    }
  });
});
