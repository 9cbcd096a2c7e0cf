import { and, eq, isNull } from "drizzle-orm";
import { parse as parseCookies } from "cookie";
import { ForbiddenError, UnauthorizedError } from "@/lib/errors";
import type { Db } from "@/lib/db";
import { lastUsedIsDue, lastUsedWasDue } from "@/lib/db/last-used";
import { personalAccessTokens, users } from "@/lib/db/schema";
import { consoleUserFromSessionToken, sessionCookieNames } from "./console-sessions";
import { sha256Hex } from "./secrets";
import { tokenAncestry } from "./token-chain";
import { isTwoFactorApiPath, sessionMustEnrol, TwoFactorEnrolmentRequiredError } from "./two-factor-enrolment";
import { tokenScopes, type TokenScope } from "./token-scopes";

/**
 * Who is calling. `scopes` bound what a token may do beside its user's roles (a console session
 * has them all); `tokenId` is the personal access token the call came with, if any.
 */
export type Actor = {
  userId: string;
  email: string;
  via: "token" | "session";
  scopes: readonly TokenScope[];
  tokenId: string | null;
  /** The console_sessions row of a console call; null for a token or the operator. */
  sessionId?: string | null;
};

/** The signed-in console user (or the operator acting as a user): every scope. */
export function sessionActor(user: { id: string; email: string; sessionId?: string }): Actor {
  return { userId: user.id, email: user.email, via: "session", scopes: tokenScopes, tokenId: null, sessionId: user.sessionId ?? null };
}

/** 403 unless the caller is a console session: the account's own sign-in settings are not for tokens (docs/adr/0162-account-page.md). */
export function requireConsoleSession(actor: Actor): void {
  if (actor.via !== "session") throw new ForbiddenError("Only a console session can change the account or list its sessions: sign in to the console; personal access tokens cannot.");
}

const invalidToken = () => new UnauthorizedError("The bearer token is invalid or revoked.");

async function actorFromBearer(db: Db, token: string): Promise<Actor> {
  const [row] = await db
    .select({
      tokenId: personalAccessTokens.id,
      parentTokenId: personalAccessTokens.parentTokenId,
      scopes: personalAccessTokens.scopes,
      lastUsedAt: personalAccessTokens.lastUsedAt,
      userId: users.id,
      email: users.email,
    })
    .from(personalAccessTokens)
    .innerJoin(users, eq(users.id, personalAccessTokens.userId))
    .where(and(eq(personalAccessTokens.tokenHash, sha256Hex(token)), isNull(personalAccessTokens.revokedAt), isNull(users.disabledAt)))
    .limit(1);
  if (!row) throw invalidToken();
  // A token dies with any token above it, even one whose own row the revocation did not reach.
  if (row.parentTokenId && (await tokenAncestry(db, row.parentTokenId)).revoked > 0) throw invalidToken();

  const now = new Date();
  if (lastUsedWasDue(row.lastUsedAt, now)) {
    await db
      .update(personalAccessTokens)
      .set({ lastUsedAt: now })
      .where(and(eq(personalAccessTokens.id, row.tokenId), lastUsedIsDue(personalAccessTokens.lastUsedAt, now)));
  }
  return { userId: row.userId, email: row.email, via: "token", scopes: row.scopes, tokenId: row.tokenId };
}

async function actorFromSessionCookie(db: Db, req: Request): Promise<Actor | null> {
  // From the headers alone: new NextRequest(req) would take over the body the handler still has to read.
  const cookies = parseCookies(req.headers.get("cookie") ?? "");
  const user = await consoleUserFromSessionToken(db, sessionCookieNames.map((name) => cookies[name]).find(Boolean));
  if (!user) return null;
  // A session held back by its organizations' two-factor requirement reaches only the enrolment routes.
  if (!isTwoFactorApiPath(new URL(req.url).pathname) && (await sessionMustEnrol(db, user))) throw new TwoFactorEnrolmentRequiredError();
  return sessionActor(user);
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
