import { and, eq } from "drizzle-orm";
import { encode } from "next-auth/jwt";
import { beforeAll, describe, expect, it } from "vitest";
import { GET as meRoute } from "@/app/api/me/route";
import { GET as getOrgRoute, PUT as putOrgRoute } from "@/app/api/organizations/[orgId]/two-factor/route";
import { resetUserTwoFactor } from "@/lib/accounts/operator";
import { verifySecondFactor } from "@/lib/accounts/two-factor";
import { startConsoleSession } from "@/lib/auth/console-sessions";
import { hashPassword } from "@/lib/auth/secrets";
import { totpCodeAt, totpPeriodSeconds } from "@/lib/auth/totp";
import { mintTwoFactorChallenge, userOfTwoFactorChallenge } from "@/lib/auth/two-factor-challenge";
import { needsTwoFactorEnrolment } from "@/lib/auth/two-factor-enrolment";
import { twoFactorLimit } from "@/lib/auth/two-factor-throttle";
import { getConfig } from "@/lib/config";
import { getDb } from "@/lib/db";
import { auditEvents, userTwoFactor, users } from "@/lib/db/schema";
import { operatorContext } from "@/lib/services/operator-verbs";
import { apiRequest, createTestMember, createTestProject, routeParams } from "@/testing/factories";
import { POST as confirmRoute } from "./confirm/route";
import { POST as disableRoute } from "./disable/route";
import { POST as enrolRoute } from "./enrolment/route";
import { GET as statusRoute } from "./route";

type Enrolment = { secret: string; otpauthUri: string; qrCode: string };
type Problem = { status: number; code: string; detail: string };

let organizationId: string;

beforeAll(async () => {
  const { organization } = await createTestProject();
  organizationId = organization.id;
});

/** The headers of a console session of the user (signed in with a password unless `signInMethod` says otherwise), from the app's origin. */
async function session(user: { id: string; email: string }, signInMethod = "password") {
  const sid = await startConsoleSession(await getDb(), user.id);
  const cookie = `next-auth.session-token=${await encode({ token: { sub: user.id, sid, email: user.email, signInMethod }, secret: getConfig().authSecret })}`;
  return { cookie, origin: new URL(getConfig().publicBaseUrl).origin };
}

type Route = (req: Request, ctx: { params: Promise<Record<string, string>> }) => Promise<Response>;
const call = async (route: Route, method: string, path: string, headers: Record<string, string>, body?: unknown, params: Record<string, string> = {}) =>
  route(apiRequest(method, path, { headers, body }), routeParams(params));

/** Enrols the user through the API as the console does; the recovery codes and the secret. */
async function enrol(user: { id: string; email: string }) {
  const headers = await session(user);
  const started = await call(enrolRoute, "POST", "/api/me/two-factor/enrolment", headers);
  expect(started.status).toBe(201);
  const { secret } = (await started.json()) as Enrolment;
  const confirmed = await call(confirmRoute, "POST", "/api/me/two-factor/confirm", headers, { code: totpCodeAt(secret, new Date()) });
  expect(confirmed.status, await confirmed.clone().text()).toBe(200);
  return { secret, headers, recoveryCodes: ((await confirmed.json()) as { recoveryCodes: string[] }).recoveryCodes };
}

describe("POST /api/me/two-factor/enrolment and /confirm", () => {
  it("a new secret (otpauth URI, SVG QR code, sealed at rest) → a wrong code 422 → the right code turns it on with 10 recovery codes", async () => {
    const { user } = await createTestMember("Viewer", { organizationId });
    const headers = await session(user);
    const started = await call(enrolRoute, "POST", "/api/me/two-factor/enrolment", headers);
    expect(started.status).toBe(201);
    const enrolment = (await started.json()) as Enrolment;
    expect(enrolment.otpauthUri).toMatch(/^otpauth:\/\/totp\/Reelbind:.+secret=[A-Z2-7]{32}/);
    expect(enrolment.qrCode).toMatch(/^data:image\/svg\+xml;base64,/);
    const [row] = await (await getDb()).select().from(userTwoFactor).where(eq(userTwoFactor.userId, user.id));
    expect(row!.secretSealed).toMatch(/^v1:/);
    expect(row!.secretSealed).not.toContain(enrolment.secret);
    expect(row!.enabledAt).toBeNull();

    const wrongCode = String((Number(totpCodeAt(enrolment.secret, new Date())) + 500_000) % 1_000_000).padStart(6, "0");
    const refused = await call(confirmRoute, "POST", "/api/me/two-factor/confirm", headers, { code: wrongCode });
    expect(refused.status).toBe(422);
    expect(((await (await call(statusRoute, "GET", "/api/me/two-factor", headers)).json()) as { enabled: boolean }).enabled).toBe(false);

    const confirmed = await call(confirmRoute, "POST", "/api/me/two-factor/confirm", headers, { code: totpCodeAt(enrolment.secret, new Date()) });
    expect(confirmed.status).toBe(200);
    const { recoveryCodes } = (await confirmed.json()) as { recoveryCodes: string[] };
    expect(recoveryCodes).toHaveLength(10);
    expect(await (await call(statusRoute, "GET", "/api/me/two-factor", headers)).json()).toMatchObject({ enabled: true, recoveryCodesLeft: 10 });
    // On: starting over would move it to another phone without a code.
    expect((await call(enrolRoute, "POST", "/api/me/two-factor/enrolment", headers)).status).toBe(409);
  });

  it("with a personal access token → 403: two-factor is set up in the console only", async () => {
    const { token } = await createTestMember("Viewer", { organizationId });
    const response = await enrolRoute(apiRequest("POST", "/api/me/two-factor/enrolment", { token }), routeParams({}));
    expect(response.status).toBe(403);
  });

  it("confirm without a started enrolment → 409; a body without a code → 422", async () => {
    const { user } = await createTestMember("Viewer", { organizationId });
    const headers = await session(user);
    expect((await call(confirmRoute, "POST", "/api/me/two-factor/confirm", headers, { code: "123456" })).status).toBe(409);
    expect((await call(confirmRoute, "POST", "/api/me/two-factor/confirm", headers, {})).status).toBe(422);
  });
});

describe("verifySecondFactor – replay and recovery codes", () => {
  it("a code is accepted once per time step; an older step's after a newer one → refused", async () => {
    const { user } = await createTestMember("Viewer", { organizationId });
    const { secret } = await enrol(user);
    const db = await getDb();
    // Steps ahead of the one the enrolment used, so the test's clock decides.
    const later = new Date(Date.now() + 10 * totpPeriodSeconds * 1000);
    expect(await verifySecondFactor(db, user.id, totpCodeAt(secret, later), later)).toBe(true);
    expect(await verifySecondFactor(db, user.id, totpCodeAt(secret, later), later)).toBe(false);
    const oneStepOn = new Date(later.getTime() + totpPeriodSeconds * 1000);
    expect(await verifySecondFactor(db, user.id, totpCodeAt(secret, later), oneStepOn)).toBe(false);
    expect(await verifySecondFactor(db, user.id, totpCodeAt(secret, oneStepOn), oneStepOn)).toBe(true);
  });

  it("two requests with the same code at once → exactly one accepted", async () => {
    const { user } = await createTestMember("Viewer", { organizationId });
    const { secret } = await enrol(user);
    const db = await getDb();
    const later = new Date(Date.now() + 20 * totpPeriodSeconds * 1000);
    const code = totpCodeAt(secret, later);
    const results = await Promise.all([verifySecondFactor(db, user.id, code, later), verifySecondFactor(db, user.id, code, later)]);
    expect(results.filter(Boolean)).toHaveLength(1);
  });

  it("a recovery code works once, typed in any case; the count of those left drops", async () => {
    const { user } = await createTestMember("Viewer", { organizationId });
    const { recoveryCodes, headers } = await enrol(user);
    const db = await getDb();
    expect(await verifySecondFactor(db, user.id, recoveryCodes[0]!.toUpperCase())).toBe(true);
    expect(await verifySecondFactor(db, user.id, recoveryCodes[0]!)).toBe(false);
    expect(await verifySecondFactor(db, user.id, "aaaaa-aaaaa")).toBe(false);
    expect(await (await call(statusRoute, "GET", "/api/me/two-factor", headers)).json()).toMatchObject({ recoveryCodesLeft: 9 });
  });
});

describe("POST /api/me/two-factor/disable", () => {
  it.each([
    ["a wrong password", { password: "not it" }],
    ["a wrong code", { code: "000000" }],
    ["both a code and the password", { code: "000000", password: "correct horse battery" }],
    ["neither", {}],
  ])("%s → 422, still on", async (_, body) => {
    const { user } = await createTestMember("Viewer", { organizationId });
    const { headers } = await enrol(user);
    expect((await call(disableRoute, "POST", "/api/me/two-factor/disable", headers, body)).status).toBe(422);
    expect(await (await call(statusRoute, "GET", "/api/me/two-factor", headers)).json()).toMatchObject({ enabled: true });
  });

  it("the password → off, secret and recovery codes gone; again → 409", async () => {
    const { user } = await createTestMember("Viewer", { organizationId });
    const { headers } = await enrol(user);
    const response = await call(disableRoute, "POST", "/api/me/two-factor/disable", headers, { password: "correct horse battery" });
    expect(response.status).toBe(200);
    expect(await (await getDb()).select().from(userTwoFactor).where(eq(userTwoFactor.userId, user.id))).toEqual([]);
    expect((await call(disableRoute, "POST", "/api/me/two-factor/disable", headers, { password: "correct horse battery" })).status).toBe(409);
  });

  it(`a recovery code → off; past ${twoFactorLimit.points} wrong ones → 429 with Retry-After, even with the right password`, async () => {
    const { user } = await createTestMember("Viewer", { organizationId });
    const { headers, recoveryCodes } = await enrol(user);
    for (let i = 0; i < twoFactorLimit.points; i++) {
      expect((await call(disableRoute, "POST", "/api/me/two-factor/disable", headers, { password: `guess ${i}` })).status).toBe(422);
    }
    const limited = await call(disableRoute, "POST", "/api/me/two-factor/disable", headers, { code: recoveryCodes[0] });
    expect(limited.status).toBe(429);
    expect(Number(limited.headers.get("retry-after"))).toBeGreaterThan(0);
  });
});

describe("two-factor sign-in challenge", () => {
  it("names its user until it expires; a changed password or a tampered one → null", async () => {
    const { user } = await createTestMember("Viewer", { organizationId });
    const db = await getDb();
    const now = new Date();
    const challenge = await mintTwoFactorChallenge(db, user.id, now);
    expect(await userOfTwoFactorChallenge(db, challenge, now)).toMatchObject({ id: user.id, email: user.email });
    expect(await userOfTwoFactorChallenge(db, challenge, new Date(now.getTime() + 5 * 60_000 + 1000))).toBeNull();
    const [payload, mac] = challenge.split(".");
    const other = await createTestMember("Viewer", { organizationId });
    const forged = `${Buffer.from(JSON.stringify({ u: other.user.id, e: 9_999_999_999 })).toString("base64url")}.${mac}`;
    expect(await userOfTwoFactorChallenge(db, forged, now)).toBeNull();
    expect(await userOfTwoFactorChallenge(db, `${payload}.x${mac!.slice(1)}`, now)).toBeNull();
    expect(await userOfTwoFactorChallenge(db, "garbage", now)).toBeNull();
    await db.update(users).set({ passwordHash: await hashPassword("another long password 42") }).where(eq(users.id, user.id));
    expect(await userOfTwoFactorChallenge(db, challenge, now)).toBeNull();
  });
});

describe("PUT /api/organizations/{orgId}/two-factor – require two-factor", () => {
  const put = (headers: Record<string, string>, required: unknown, orgId = organizationId) =>
    call(putOrgRoute, "PUT", `/api/organizations/${orgId}/two-factor`, headers, { required }, { orgId });

  it("a Viewer → 403; a bad body → 422; an OrganizationAdmin → set, audited once per change", async () => {
    const { organization } = await createTestProject();
    const orgAdmin = await createTestMember("OrganizationAdmin", { organizationId: organization.id });
    const viewer = await createTestMember("Viewer", { organizationId: organization.id });
    expect((await put({ authorization: `Bearer ${viewer.token}` }, true, organization.id)).status).toBe(403);
    expect((await put({ authorization: `Bearer ${orgAdmin.token}` }, "yes", organization.id)).status).toBe(422);
    const set = await put({ authorization: `Bearer ${orgAdmin.token}` }, true, organization.id);
    expect(await set.json()).toEqual({ required: true });
    expect((await put({ authorization: `Bearer ${orgAdmin.token}` }, true, organization.id)).status).toBe(200);
    const got = await getOrgRoute(apiRequest("GET", "/x", { token: orgAdmin.token }), routeParams({ orgId: organization.id }));
    expect(await got.json()).toEqual({ required: true });
    const trail = await (await getDb())
      .select({ action: auditEvents.action })
      .from(auditEvents)
      .where(and(eq(auditEvents.organizationId, organization.id), eq(auditEvents.targetId, organization.id)));
    expect(trail.filter((row) => row.action === "organization.two_factor_required")).toHaveLength(1);
  });

  it("holds back a member's password session until they enrol: 403 two_factor_enrolment_required but for the two-factor routes; tokens and SSO sessions pass", async () => {
    const { organization, project } = await createTestProject();
    const orgAdmin = await createTestMember("OrganizationAdmin", { organizationId: organization.id });
    const member = await createTestMember("Editor", { projectId: project.id });
    expect((await put({ authorization: `Bearer ${orgAdmin.token}` }, true, organization.id)).status).toBe(200);
    const db = await getDb();
    expect(await needsTwoFactorEnrolment(db, member.user.id)).toBe(true);

    const headers = await session(member.user);
    const held = await call(meRoute, "GET", "/api/me", headers);
    expect(held.status).toBe(403);
    expect(((await held.json()) as Problem).code).toBe("two_factor_enrolment_required");
    expect((await call(statusRoute, "GET", "/api/me/two-factor", headers)).status).toBe(200);
    expect((await meRoute(apiRequest("GET", "/api/me", { token: member.token }), routeParams({}))).status).toBe(200);
    expect((await call(meRoute, "GET", "/api/me", await session(member.user, "oidc-acme"))).status).toBe(200);

    await enrol(member.user);
    expect(await needsTwoFactorEnrolment(db, member.user.id)).toBe(false);
    expect((await call(meRoute, "GET", "/api/me", headers)).status).toBe(200);
  });
});

describe("resetUserTwoFactor – the operator's way back for a lost phone", () => {
  it("turns two-factor off and ends the user's sessions; audited once", async () => {
    const { user } = await createTestMember("Viewer", { organizationId });
    const { headers } = await enrol(user);
    const db = await getDb();
    const reset = await resetUserTwoFactor(operatorContext(db), { userId: user.id });
    expect(reset).toMatchObject({ id: user.id, twoFactor: false });
    expect((await call(statusRoute, "GET", "/api/me/two-factor", headers)).status).toBe(401);
    expect(await resetUserTwoFactor(operatorContext(db), { userId: user.id })).toMatchObject({ twoFactor: false });
    const trail = await db.select({ action: auditEvents.action }).from(auditEvents).where(and(eq(auditEvents.organizationId, organizationId), eq(auditEvents.targetId, user.id)));
    expect(trail.filter((row) => row.action === "user.two_factor_reset")).toHaveLength(1);
    expect(await (await call(statusRoute, "GET", "/api/me/two-factor", await session(user))).json()).toMatchObject({ enabled: false });
  });
});
