import { and, desc, eq, isNotNull, isNull, lt, ne } from "drizzle-orm";
import { decode } from "next-auth/jwt";
import { getConfig } from "@/lib/config";
import type { Db } from "@/lib/db";
import { consoleSessions, users } from "@/lib/db/schema";

// A console session is a row per sign-in; the JWT cookie carries its id (`sid`). The cookie
// alone proves nothing once the row is revoked or the user disabled.

/** A signed-in console user and the console_sessions row their cookie names. */
export type ConsoleUser = { id: string; email: string; sessionId: string };
/** A console user with how the session signed in: "password", or the provider of another method (SSO). */
export type ConsoleSessionUser = ConsoleUser & { signInMethod: string };

export const sessionCookieNames = ["__Secure-next-auth.session-token", "next-auth.session-token"];

/** How long revoked rows are kept: past the JWT's lifetime they cannot matter any more. */
const revokedRetentionMs = 12 * 3600 * 1000;

/** Records a sign-in and returns the session id to put in the JWT; drops the user's long-dead rows. */
export async function startConsoleSession(db: Db, userId: string, details: { userAgent?: string | null } = {}): Promise<string> {
  return db.transaction(async (tx) => {
    const cutoff = new Date(Date.now() - revokedRetentionMs);
    await tx
      .delete(consoleSessions)
      .where(and(eq(consoleSessions.userId, userId), isNotNull(consoleSessions.revokedAt), lt(consoleSessions.revokedAt, cutoff)));
    const userAgent = details.userAgent ? details.userAgent.slice(0, 512) : null;
    const [row] = await tx.insert(consoleSessions).values({ userId, userAgent }).returning({ id: consoleSessions.id });
    return row!.id;
  });
}

/** The user of a live session: the row exists, is not revoked, belongs to `userId`, and the user is not disabled. */
export async function findConsoleSessionUser(db: Db, sessionId: unknown, userId: unknown): Promise<ConsoleUser | null> {
  if (typeof sessionId !== "string" || typeof userId !== "string" || !isUuid(sessionId) || !isUuid(userId)) return null;
  const [row] = await db
    .select({ id: users.id, email: users.email, sessionId: consoleSessions.id })
    .from(consoleSessions)
    .innerJoin(users, eq(users.id, consoleSessions.userId))
    .where(and(eq(consoleSessions.id, sessionId), eq(consoleSessions.userId, userId), isNull(consoleSessions.revokedAt), isNull(users.disabledAt)))
    .limit(1);
  return row ?? null;
}

/** The user behind a session cookie's value, or null for a bad, expired, revoked or disabled one. */
export async function consoleUserFromSessionToken(db: Db, token: string | undefined): Promise<ConsoleSessionUser | null> {
  if (!token) return null;
  const jwt = await decode({ token, secret: getConfig().authSecret }).catch(() => null);
  const user = jwt ? await findConsoleSessionUser(db, jwt.sid, jwt.sub) : null;
  // Sessions from before the claim existed were password sign-ins.
  return user && { ...user, signInMethod: typeof jwt?.signInMethod === "string" ? jwt.signInMethod : "password" };
}

export async function revokeConsoleSession(db: Db, sessionId: unknown): Promise<void> {
  if (typeof sessionId !== "string" || !isUuid(sessionId)) return;
  await db
    .update(consoleSessions)
    .set({ revokedAt: new Date() })
    .where(and(eq(consoleSessions.id, sessionId), isNull(consoleSessions.revokedAt)));
}

/** Ends every session of the user; call inside the transaction that makes the change requiring it. */
export async function revokeUserConsoleSessions(db: Db, userId: string): Promise<void> {
  await db
    .update(consoleSessions)
    .set({ revokedAt: new Date() })
    .where(and(eq(consoleSessions.userId, userId), isNull(consoleSessions.revokedAt)));
}

/** The user's live sessions, newest first. */
export async function listLiveConsoleSessions(db: Db, userId: string) {
  return db
    .select({ id: consoleSessions.id, createdAt: consoleSessions.createdAt, userAgent: consoleSessions.userAgent })
    .from(consoleSessions)
    .where(and(eq(consoleSessions.userId, userId), isNull(consoleSessions.revokedAt)))
    .orderBy(desc(consoleSessions.createdAt), desc(consoleSessions.id));
}

/** Ends every live session of the user but `keepSessionId`; returns how many ended. */
export async function revokeOtherConsoleSessions(db: Db, userId: string, keepSessionId: string | null): Promise<number> {
  const ended = await db
    .update(consoleSessions)
    .set({ revokedAt: new Date() })
    .where(and(eq(consoleSessions.userId, userId), isNull(consoleSessions.revokedAt), keepSessionId ? ne(consoleSessions.id, keepSessionId) : undefined))
    .returning({ id: consoleSessions.id });
  return ended.length;
}

/** Ends one live session of the user; false when the user has no such live session. */
export async function revokeOwnConsoleSession(db: Db, userId: string, sessionId: string): Promise<boolean> {
  if (!isUuid(sessionId)) return false;
  const ended = await db
    .update(consoleSessions)
    .set({ revokedAt: new Date() })
    .where(and(eq(consoleSessions.id, sessionId), eq(consoleSessions.userId, userId), isNull(consoleSessions.revokedAt)))
    .returning({ id: consoleSessions.id });
  return ended.length > 0;
}

function isUuid(value: string): boolean {
  return /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(value);
}
