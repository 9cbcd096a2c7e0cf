import { and, eq, isNull } from "drizzle-orm";
import { RequestCookies } from "next/dist/server/web/spec-extension/cookies";
import { UnauthorizedError } from "@/lib/api/errors";
import type { Db } from "@/lib/db";
import { lastUsedIsDue, lastUsedWasDue } from "@/lib/db/last-used";
import { personalAccessTokens, users } from "@/lib/db/schema";
import { consoleUserFromSessionToken, sessionCookieNames } from "./console-sessions";
import { sha256Hex } from "./secrets";

export type Actor = { userId: string; email: string; via: "token" | "session" };

async function actorFromBearer(db: Db, token: string): Promise<Actor> {
  const [row] = await db
    .select({ tokenId: personalAccessTokens.id, lastUsedAt: personalAccessTokens.lastUsedAt, userId: users.id, email: users.email })
    .from(personalAccessTokens)
    .innerJoin(users, eq(users.id, personalAccessTokens.userId))
    .where(and(eq(personalAccessTokens.tokenHash, sha256Hex(token)), isNull(personalAccessTokens.revokedAt), isNull(users.disabledAt)))
    .limit(1);
  if (!row) throw new UnauthorizedError("The bearer token is invalid or revoked.");

  const now = new Date();
  if (lastUsedWasDue(row.lastUsedAt, now)) {
    await db
      .update(personalAccessTokens)
      .set({ lastUsedAt: now })
      .where(and(eq(personalAccessTokens.id, row.tokenId), lastUsedIsDue(personalAccessTokens.lastUsedAt, now)));
  }
  return { userId: row.userId, email: row.email, via: "token" };
}

async function actorFromSessionCookie(db: Db, req: Request): Promise<Actor | null> {
  // From the headers alone: new NextRequest(req) would take over the body the handler still has to read.
  const cookies = new RequestCookies(req.headers);
  const user = await consoleUserFromSessionToken(db, sessionCookieNames.map((name) => cookies.get(name)?.value).find(Boolean));
  return user ? { userId: user.id, email: user.email, via: "session" } : null;
}

/**
 * Who is calling: a personal access token (Authorization: Bearer rbk_…) or, for the
 * console, the next-auth session cookie. Anything else is a 401.
 */
export async function authenticate(db: Db, req: Request): Promise<Actor> {
  const authorization = req.headers.get("authorization");
  if (authorization) {
    const match = /^Bearer\s+(\S+)\s*$/i.exec(authorization);
    if (!match) throw new UnauthorizedError("The Authorization header must be 'Bearer <token>'.");
    return actorFromBearer(db, match[1]!);
  }
  const actor = await actorFromSessionCookie(db, req);
  if (!actor) throw new UnauthorizedError();
  return actor;
}
