import { and, eq, inArray } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { findUserByEmail } from "@/lib/accounts/accounts";
import { disableUser, setUserPassword } from "@/lib/accounts/operator";
import { actionLimits } from "@/lib/auth/action-limits";
import { findConsoleSessionUser, startConsoleSession } from "@/lib/auth/console-sessions";
import { verifyPassword } from "@/lib/auth/secrets";
import { getDb } from "@/lib/db";
import { operatorContext } from "@/lib/services/operator-verbs";
import { auditEvents, passwordResets } from "@/lib/db/schema";
import { apiRequest, createTestMember, createTestProject, routeParams } from "@/testing/factories";
import { linkIn, startMailServer, type MailServer } from "@/testing/mail-server";
import { POST as completeRoute } from "./complete/route";
import { POST as requestRoute } from "./route";

// Password reset by mail, against a real SMTP server on loopback: the same answer for any
// address, a link that works once and for a limited time, every session ended, the trail of each
// of the user's organizations, and the limits per address asked for and per client address.

const configKey = Symbol.for("reelbind.config");
const resetConfig = () => delete (globalThis as Record<symbol, unknown>)[configKey];

let mail: MailServer;
let clientCounter = 0;
/** A client address of its own per test, so that the per-client limit is only met where a test means to. */
const newClient = () => `203.0.113.${++clientCounter}`;

beforeAll(async () => {
  mail = await startMailServer();
  process.env.SMTP_URL = mail.url;
  process.env.MAIL_FROM = "Reelbind tests <reelbind@test.example>";
  resetConfig();
});

afterAll(async () => {
  delete process.env.SMTP_URL;
  delete process.env.MAIL_FROM;
  resetConfig();
  await mail.stop();
});

const request = (email: unknown, client = newClient()) =>
  requestRoute(apiRequest("POST", "/api/password-resets", { body: { email }, headers: { "x-forwarded-for": client } }), routeParams({}));
const complete = (body: unknown) => completeRoute(apiRequest("POST", "/api/password-resets/complete", { body }), routeParams({}));
const tokenOf = (link: string) => link.split("/").pop()!;

async function member() {
  const project = await createTestProject();
  return { project, ...(await createTestMember("Editor", { organizationId: project.organization.id })) };
}

describe("POST /api/password-resets – the same answer whether or not the address has an account", () => {
  it("a known and an unknown address: 202 with the same body; only the known one gets a mail, with a reset link", async () => {
    const { user } = await member();
    const unknown = `nobody-${crypto.randomUUID()}@test.example`;
    const [known, stranger] = await Promise.all([request(user.email.toUpperCase()), request(unknown)]);
    expect([known.status, stranger.status]).toEqual([202, 202]);
    expect(await known.json()).toEqual(await stranger.json());
    const message = await mail.next(user.email, { subject: /new Reelbind password/ });
    expect(message.from).toBe("reelbind@test.example");
    expect(linkIn(message, "/reset-password/")).toMatch(/^http:\/\/localhost:3000\/reset-password\/rbr_[\w-]{43}$/);
    expect(message.html).toContain("Choose a new password");
    expect(mail.to(unknown)).toEqual([]);
  });

  it("a disabled account gets no mail, and the same answer", async () => {
    const { user } = await member();
    await disableUser(operatorContext(await getDb()), { userId: user.id });
    const response = await request(user.email);
    expect(response.status).toBe(202);
    const db = await getDb();
    expect(await db.select().from(passwordResets).where(eq(passwordResets.userId, user.id))).toEqual([]);
  });

  it.each([
    { name: "not an address", body: { email: "nope" } },
    { name: "an extra field", body: { email: "a@test.example", userId: crypto.randomUUID() } },
    { name: "no address", body: {} },
  ])("$name → 422", async ({ body }) => {
    const response = await requestRoute(apiRequest("POST", "/x", { body, headers: { "x-forwarded-for": newClient() } }), routeParams({}));
    expect(response.status).toBe(422);
  });
});

describe("POST /api/password-resets/complete – the link works once, for a limited time", () => {
  it("sets the password (200), ends every console session, uses up every open link; the trail of the user's organizations says so, with the user as actor", async () => {
    const { user, project } = await member();
    const db = await getDb();
    const sessions = await Promise.all([startConsoleSession(db, user.id), startConsoleSession(db, user.id)]);
    await request(user.email);
    const first = tokenOf(linkIn(await mail.next(user.email), "/reset-password/"));
    await request(user.email);
    const second = tokenOf(linkIn(await mail.next(user.email), "/reset-password/"));

    const response = await complete({ token: second, password: "a brand new passphrase" });
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ email: user.email });
    const after = await findUserByEmail(db, user.email);
    expect(await verifyPassword("a brand new passphrase", after!.passwordHash!)).toBe(true);
    for (const sid of sessions) expect(await findConsoleSessionUser(db, sid, user.id)).toBeNull();

    expect((await complete({ token: second, password: "another new passphrase" })).status).toBe(410);
    const older = await complete({ token: first, password: "another new passphrase" });
    expect(older.status).toBe(410);
    expect(((await older.json()) as { detail: string }).detail).toMatch(/used already/);

    const trail = await db
      .select({ actorUserId: auditEvents.actorUserId, targetId: auditEvents.targetId, data: auditEvents.data })
      .from(auditEvents)
      .where(and(eq(auditEvents.organizationId, project.organization.id), eq(auditEvents.action, "user.password_reset")));
    expect(trail).toEqual([{ actorUserId: user.id, targetId: user.id, data: { email: user.email } }]);
  });

  it("past its expiry → 410 and the password is unchanged", async () => {
    const { user } = await member();
    await request(user.email);
    const token = tokenOf(linkIn(await mail.next(user.email), "/reset-password/"));
    const db = await getDb();
    await db.update(passwordResets).set({ expiresAt: new Date(Date.now() - 1000) }).where(eq(passwordResets.userId, user.id));
    const response = await complete({ token, password: "a brand new passphrase" });
    expect(response.status).toBe(410);
    expect(((await response.json()) as { detail: string }).detail).toMatch(/expired/);
    expect(await verifyPassword("correct horse battery", (await findUserByEmail(db, user.email))!.passwordHash!)).toBe(true);
  });

  it("a password the operator sets meanwhile (reelbind user set-password) uses up the open link → 410", async () => {
    const { user } = await member();
    await request(user.email);
    const token = tokenOf(linkIn(await mail.next(user.email), "/reset-password/"));
    await setUserPassword(operatorContext(await getDb()), { userId: user.id, password: "set by the operator" });
    expect((await complete({ token, password: "a brand new passphrase" })).status).toBe(410);
  });

  it("expires 30 minutes after the request (PASSWORD_RESET_TTL's default)", async () => {
    const { user } = await member();
    await request(user.email);
    await mail.next(user.email);
    const db = await getDb();
    const [row] = await db.select({ createdAt: passwordResets.createdAt, expiresAt: passwordResets.expiresAt }).from(passwordResets).where(eq(passwordResets.userId, user.id));
    expect(row!.expiresAt.getTime() - row!.createdAt.getTime()).toBe(30 * 60 * 1000);
  });

  it("a guessable password → 422 and the link still works; an unknown token → 404; a malformed one → 422", async () => {
    const { user } = await member();
    await request(user.email);
    const token = tokenOf(linkIn(await mail.next(user.email), "/reset-password/"));
    const weak = await complete({ token, password: "password1" });
    expect(weak.status).toBe(422);
    expect((await complete({ token, password: "a brand new passphrase" })).status).toBe(200);
    expect((await complete({ token: `rbr_${"A".repeat(43)}`, password: "a brand new passphrase" })).status).toBe(404);
    expect((await complete({ token: "rbr_short", password: "a brand new passphrase" })).status).toBe(422);
  });
});

describe("POST /api/password-resets – limits", () => {
  it(`one address asked for ${actionLimits.passwordResetAccount.points} times an hour from different clients; then 429 with Retry-After, and no more mail`, async () => {
    const { user } = await member();
    for (let i = 0; i < actionLimits.passwordResetAccount.points; i++) expect((await request(user.email)).status).toBe(202);
    for (let i = 0; i < actionLimits.passwordResetAccount.points; i++) await mail.next(user.email);
    const refused = await request(user.email);
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(0);
    expect(refused.headers.get("content-type")).toMatch(/application\/problem\+json/);
    const db = await getDb();
    expect(await db.select().from(passwordResets).where(eq(passwordResets.userId, user.id))).toHaveLength(actionLimits.passwordResetAccount.points);
  });

  it(`one client ${actionLimits.passwordResetAddress.points} requests an hour, whatever the addresses; then 429`, async () => {
    const client = newClient();
    const emails = Array.from({ length: actionLimits.passwordResetAddress.points }, () => `nobody-${crypto.randomUUID()}@test.example`);
    for (const email of emails) expect((await request(email, client)).status).toBe(202);
    const refused = await request(`nobody-${crypto.randomUUID()}@test.example`, client);
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(0);
    expect((await request(`nobody-${crypto.randomUUID()}@test.example`)).status).toBe(202);
  });
});

describe("without mail (no SMTP_URL)", () => {
  it("the answer says to ask an administrator; the link is only in the server log", async () => {
    delete process.env.SMTP_URL;
    resetConfig();
    const logged: string[] = [];
    const original = console.log;
    console.log = (...args: unknown[]) => void logged.push(args.map(String).join(" "));
    try {
      const { user } = await member();
      const response = await request(user.email);
      expect(response.status).toBe(202);
      expect(((await response.json()) as { message: string }).message).toMatch(/ask an administrator/);
      const line = logged.find((entry) => entry.includes(user.email));
      expect(line).toMatch(/password reset for .*\/reset-password\/rbr_/);
      const db = await getDb();
      expect(await db.select().from(passwordResets).where(inArray(passwordResets.userId, [user.id]))).toHaveLength(1);
    } finally {
      console.log = original;
      process.env.SMTP_URL = mail.url;
      resetConfig();
    }
  });
});
