import { eq } from "drizzle-orm";
import { encode } from "next-auth/jwt";
import { beforeAll, describe, expect, it } from "vitest";
import { insertPersonalAccessToken } from "@/lib/accounts/personal-access-tokens";
import { getConfig } from "@/lib/config";
import { getDb } from "@/lib/db";
import { personalAccessTokens } from "@/lib/db/schema";
import { apiRequest, createTestMember, createTestProject } from "@/testing/factories";
import { authenticate } from "./authenticate";
import { revokeConsoleSession, startConsoleSession } from "./console-sessions";
import { sha256Hex } from "./secrets";
import { tokenScopes } from "./token-scopes";

let member: Awaited<ReturnType<typeof createTestMember>>;

beforeAll(async () => {
  const { project } = await createTestProject();
  member = await createTestMember("Viewer", { projectId: project.id });
});

const lastUsedAt = async (token: string) => {
  const db = await getDb();
  const [row] = await db.select().from(personalAccessTokens).where(eq(personalAccessTokens.tokenHash, sha256Hex(token)));
  return row?.lastUsedAt ?? null;
};

describe("authenticate – personal access token", () => {
  it("a valid token → the user; lastUsedAt recorded once and not rewritten within the minute", async () => {
    const db = await getDb();
    expect(await lastUsedAt(member.token)).toBeNull();
    const actor = await authenticate(db, apiRequest("GET", "/api/x", { token: member.token }));
    const [row] = await db.select().from(personalAccessTokens).where(eq(personalAccessTokens.tokenHash, sha256Hex(member.token)));
    expect(actor).toEqual({ userId: member.user.id, email: member.user.email, via: "token", scopes: [...tokenScopes], tokenId: row!.id });

    const first = await lastUsedAt(member.token);
    expect(first).toBeInstanceOf(Date);
    await authenticate(db, apiRequest("GET", "/api/x", { token: member.token }));
    expect(await lastUsedAt(member.token)).toEqual(first);
  });

  it("a token's scopes as stored; its parent recorded in the actor's tokenId for the children it creates", async () => {
    const db = await getDb();
    const readOnly = await insertPersonalAccessToken(db, { userId: member.user.id, name: null, scopes: ["read"], parentTokenId: null });
    expect(await authenticate(db, apiRequest("GET", "/api/x", { token: readOnly.token }))).toMatchObject({ scopes: ["read"], tokenId: readOnly.id });
  });

  it("a token whose grandparent is revoked → 401, though its own row and its parent's are not", async () => {
    const db = await getDb();
    const grandparent = await insertPersonalAccessToken(db, { userId: member.user.id, name: null, scopes: tokenScopes, parentTokenId: null });
    const parent = await insertPersonalAccessToken(db, { userId: member.user.id, name: null, scopes: tokenScopes, parentTokenId: grandparent.id });
    const child = await insertPersonalAccessToken(db, { userId: member.user.id, name: null, scopes: tokenScopes, parentTokenId: parent.id });
    expect((await authenticate(db, apiRequest("GET", "/api/x", { token: child.token }))).userId).toBe(member.user.id);
    await db.update(personalAccessTokens).set({ revokedAt: new Date() }).where(eq(personalAccessTokens.id, grandparent.id));
    await expect(authenticate(db, apiRequest("GET", "/api/x", { token: child.token }))).rejects.toMatchObject({ kind: "unauthorized" });
    await expect(authenticate(db, apiRequest("GET", "/api/x", { token: parent.token }))).rejects.toMatchObject({ kind: "unauthorized" });
  });

  it("lowercase 'bearer' scheme is accepted (schemes are case-insensitive)", async () => {
    const actor = await authenticate(await getDb(), apiRequest("GET", "/api/x", { headers: { authorization: `bearer ${member.token}` } }));
    expect(actor.userId).toBe(member.user.id);
  });
});

describe("authenticate – console session cookie", () => {
  const sessionCookie = async (sub: string, secret = getConfig().authSecret, sid?: string) =>
    `next-auth.session-token=${await encode({ token: { sub, sid: sid ?? (await startConsoleSession(await getDb(), member.user.id)), email: "x@example.com" }, secret })}`;

  it("a session cookie signed with AUTH_SECRET → the user, via session, with the session it names", async () => {
    const sid = await startConsoleSession(await getDb(), member.user.id);
    const request = apiRequest("GET", "/api/x", { headers: { cookie: await sessionCookie(member.user.id, undefined, sid) } });
    expect(await authenticate(await getDb(), request)).toEqual({ userId: member.user.id, email: member.user.email, via: "session", scopes: [...tokenScopes], tokenId: null, sessionId: sid });
  });

  it.each([
    { name: "signed with another secret", cookie: () => sessionCookie(member.user.id, "another-secret-0123456789abcdef0123456789") },
    { name: "for a user that does not exist", cookie: () => sessionCookie("00000000-0000-4000-8000-000000000000") },
    { name: "garbage", cookie: async () => "next-auth.session-token=not-a-jwt" },
    { name: "without a session id (issued before sessions were recorded)", cookie: async () => `next-auth.session-token=${await encode({ token: { sub: member.user.id }, secret: getConfig().authSecret })}` },
    {
      name: "whose session was revoked",
      cookie: async () => {
        const sid = await startConsoleSession(await getDb(), member.user.id);
        await revokeConsoleSession(await getDb(), sid);
        return sessionCookie(member.user.id, undefined, sid);
      },
    },
  ])("a session cookie $name → 401", async ({ cookie }) => {
    const request = apiRequest("GET", "/api/x", { headers: { cookie: await cookie() } });
    await expect(authenticate(await getDb(), request)).rejects.toMatchObject({ kind: "unauthorized" });
  });
});
