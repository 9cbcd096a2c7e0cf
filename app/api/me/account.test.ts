import { eq } from "drizzle-orm";
import { encode } from "next-auth/jwt";
import { beforeAll, describe, expect, it } from "vitest";
import { startConsoleSession } from "@/lib/auth/console-sessions";
import { verifySignIn } from "@/lib/auth/sign-in";
import { signInLimits } from "@/lib/auth/sign-in-throttle";
import { getConfig } from "@/lib/config";
import { getDb } from "@/lib/db";
import { passwordResets } from "@/lib/db/schema";
import { apiRequest, createTestMember, createTestProject, routeParams } from "@/testing/factories";
import { PUT as changePasswordRoute } from "./password/route";
import { GET as meRoute, PATCH as updateMeRoute } from "./route";
import { DELETE as endSessionRoute } from "./sessions/[sessionId]/route";
import { GET as listSessionsRoute } from "./sessions/route";
import { POST as endOthersRoute } from "./sessions/sign-out-others/route";

type Problem = { status: number; detail: string; errors?: { path: string; message: string }[] };
type Session = { id: string; browser: string | null; current: boolean };

const chromeOnLinux = "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36";
const password = "correct horse battery";

let projectId: string;
beforeAll(async () => {
  projectId = (await createTestProject()).project.id;
});

/** A member signed in to the console `count` times: one cookie per sign-in. */
async function signedIn(count = 1) {
  const member = await createTestMember("Viewer", { projectId });
  const sessions = [];
  for (let i = 0; i < count; i++) {
    const sid = await startConsoleSession(await getDb(), member.user.id, { userAgent: chromeOnLinux });
    const cookie = `next-auth.session-token=${await encode({ token: { sub: member.user.id, sid }, secret: getConfig().authSecret })}`;
    sessions.push({ sid, cookie });
  }
  return { ...member, sessions };
}

const call = (route: (req: Request, ctx: { params: Promise<Record<string, string>> }) => Promise<Response>, method: string, path: string, auth: { cookie?: string; token?: string }, body?: unknown, params = {}) =>
  route(apiRequest(method, path, { token: auth.token, headers: auth.cookie ? { cookie: auth.cookie, origin: "http://localhost:3000" } : {}, body }), routeParams(params));
const meStatus = async (cookie: string) => (await call(meRoute, "GET", "/api/me", { cookie })).status;
const listSessions = async (cookie: string) => ((await (await call(listSessionsRoute, "GET", "/api/me/sessions", { cookie })).json()) as { items: Session[] }).items;

describe("/api/me: the account page's API", () => {
  it("changes the display name, and an empty one clears it", async () => {
    const member = await signedIn();
    const cookie = member.sessions[0]!.cookie;
    const response = await call(updateMeRoute, "PATCH", "/api/me", { cookie }, { name: "  Ana Rivera " });
    expect(await response.json()).toMatchObject({ id: member.user.id, name: "Ana Rivera" });
    const me = (await (await call(meRoute, "GET", "/api/me", { cookie })).json()) as { user: { name: string | null } };
    expect(me.user.name).toBe("Ana Rivera");
    expect(await (await call(updateMeRoute, "PATCH", "/api/me", { cookie }, { name: "" })).json()).toMatchObject({ name: null });
    expect((await call(updateMeRoute, "PATCH", "/api/me", { cookie }, { name: "x".repeat(121) })).status).toBe(422);
  });

  it("changes the password: the current one is required, a weak one is refused, the other sessions end", async () => {
    const member = await signedIn(3);
    const [current, other, third] = member.sessions;
    const change = (body: unknown) => call(changePasswordRoute, "PUT", "/api/me/password", { cookie: current!.cookie }, body);

    const wrong = await change({ currentPassword: "not it at all", newPassword: "a brand new long passphrase" });
    expect(wrong.status).toBe(422);
    expect(((await wrong.json()) as Problem).errors).toEqual([{ path: "currentPassword", message: "is not your current password" }]);

    const weak = await change({ currentPassword: password, newPassword: "password123" });
    expect(weak.status).toBe(422);
    expect(((await weak.json()) as Problem).errors?.[0]).toMatchObject({ path: "newPassword", message: expect.stringMatching(/too easy to guess/) });
    const same = await change({ currentPassword: password, newPassword: password });
    expect(((await same.json()) as Problem).errors?.[0]).toEqual({ path: "newPassword", message: "must differ from the current password" });
    // Nothing changed by the refusals: every session still works, the old password still signs in.
    expect(await meStatus(other!.cookie)).toBe(200);
    expect(await verifySignIn(await getDb(), { email: member.user.email, password })).not.toBeNull();

    // An open reset link asked for before the change must not set the password again after it.
    await (await getDb()).insert(passwordResets).values({ userId: member.user.id, tokenHash: `test-${member.user.id}`, expiresAt: new Date(Date.now() + 1_800_000) });
    const changed = await change({ currentPassword: password, newPassword: "a brand new long passphrase" });
    expect(changed.status).toBe(200);
    expect(await changed.json()).toEqual({ endedSessions: 2 });
    const [reset] = await (await getDb()).select({ usedAt: passwordResets.usedAt }).from(passwordResets).where(eq(passwordResets.userId, member.user.id));
    expect(reset!.usedAt).not.toBeNull();
    expect(await meStatus(current!.cookie)).toBe(200);
    expect(await meStatus(other!.cookie)).toBe(401);
    expect(await meStatus(third!.cookie)).toBe(401);
    expect(await verifySignIn(await getDb(), { email: member.user.email, password })).toBeNull();
    expect(await verifySignIn(await getDb(), { email: member.user.email, password: "a brand new long passphrase" })).not.toBeNull();
  });

  it("limits guesses of the current password like sign-in attempts", async () => {
    const member = await signedIn();
    const cookie = member.sessions[0]!.cookie;
    const guess = () => call(changePasswordRoute, "PUT", "/api/me/password", { cookie }, { currentPassword: "a wrong guess", newPassword: "a brand new long passphrase" });
    let response = await guess();
    for (let i = 0; i < signInLimits.pair.points + 1 && response.status === 422; i++) response = await guess();
    expect(response.status).toBe(429);
    expect(Number(response.headers.get("retry-after"))).toBeGreaterThan(0);
  });

  it("lists the live sessions with the browser, and signs one or all others out", async () => {
    const member = await signedIn(3);
    const [current, second, third] = member.sessions;
    const listed = await listSessions(current!.cookie);
    expect(listed.map((session) => session.id).sort()).toEqual(member.sessions.map((session) => session.sid).sort());
    expect(listed.find((session) => session.current)?.id).toBe(current!.sid);
    expect(listed[0]!.browser).toBe("Chrome 131 on Linux");

    const ended = await call(endSessionRoute, "DELETE", `/api/me/sessions/${second!.sid}`, { cookie: current!.cookie }, undefined, { sessionId: second!.sid });
    expect(await ended.json()).toEqual({ endedSessions: 1 });
    expect(await meStatus(second!.cookie)).toBe(401);
    expect((await call(endSessionRoute, "DELETE", "/x", { cookie: current!.cookie }, undefined, { sessionId: second!.sid })).status).toBe(404);
    expect((await call(endSessionRoute, "DELETE", "/x", { cookie: current!.cookie }, undefined, { sessionId: "nope" })).status).toBe(404);

    expect(await (await call(endOthersRoute, "POST", "/api/me/sessions/sign-out-others", { cookie: current!.cookie })).json()).toEqual({ endedSessions: 1 });
    expect(await meStatus(third!.cookie)).toBe(401);
    expect((await listSessions(current!.cookie)).map((session) => session.id)).toEqual([current!.sid]);
  });

  it("a cookie-authenticated change from another origin is refused", async () => {
    const member = await signedIn(2);
    const request = apiRequest("POST", "/api/me/sessions/sign-out-others", { headers: { cookie: member.sessions[0]!.cookie, origin: "https://evil.example" } });
    expect((await endOthersRoute(request, routeParams({}))).status).toBe(403);
    expect(await meStatus(member.sessions[1]!.cookie)).toBe(200);
  });

  it("another user's session is 404 and stays signed in", async () => {
    const member = await signedIn();
    const stranger = await signedIn();
    const response = await call(endSessionRoute, "DELETE", "/x", { cookie: member.sessions[0]!.cookie }, undefined, { sessionId: stranger.sessions[0]!.sid });
    expect(response.status).toBe(404);
    expect(await meStatus(stranger.sessions[0]!.cookie)).toBe(200);
  });

  it("a personal access token cannot change the account (403), though it reads /api/me", async () => {
    const member = await signedIn(2);
    const token = { token: member.token };
    expect((await call(meRoute, "GET", "/api/me", token)).status).toBe(200);
    const refusals = [
      await call(updateMeRoute, "PATCH", "/api/me", token, { name: "Mallory" }),
      await call(changePasswordRoute, "PUT", "/api/me/password", token, { currentPassword: password, newPassword: "a brand new long passphrase" }),
      await call(listSessionsRoute, "GET", "/api/me/sessions", token),
      await call(endOthersRoute, "POST", "/api/me/sessions/sign-out-others", token),
      await call(endSessionRoute, "DELETE", "/x", token, undefined, { sessionId: member.sessions[0]!.sid }),
    ];
    expect(refusals.map((response) => response.status)).toEqual([403, 403, 403, 403, 403]);
    expect(await meStatus(member.sessions[1]!.cookie)).toBe(200);
    expect(await verifySignIn(await getDb(), { email: member.user.email, password })).not.toBeNull();
  });
});
