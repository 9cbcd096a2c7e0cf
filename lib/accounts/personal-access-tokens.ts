import { and, desc, eq, sql } from "drizzle-orm";
import { NotFoundError } from "@/lib/api/errors";
import type { Actor } from "@/lib/auth/authenticate";
import { isUuid } from "@/lib/auth/project-access";
import type { Db } from "@/lib/db";
import { personalAccessTokens } from "@/lib/db/schema";
import { createPersonalAccessToken } from "./accounts";

// The signed-in user's own personal access tokens (/api/me/tokens): never another user's, and
// never the token or its hash after the create response.

type TokenRow = typeof personalAccessTokens.$inferSelect;

const presentToken = (row: Pick<TokenRow, "id" | "name" | "createdAt" | "lastUsedAt" | "revokedAt">) => ({
  id: row.id,
  name: row.name,
  createdAt: row.createdAt,
  lastUsedAt: row.lastUsedAt,
  status: row.revokedAt ? ("Revoked" as const) : ("Active" as const),
  revokedAt: row.revokedAt,
});

const tokenColumns = {
  id: personalAccessTokens.id,
  name: personalAccessTokens.name,
  createdAt: personalAccessTokens.createdAt,
  lastUsedAt: personalAccessTokens.lastUsedAt,
  revokedAt: personalAccessTokens.revokedAt,
};

export async function listOwnTokens(db: Db, actor: Actor) {
  const rows = await db.select(tokenColumns).from(personalAccessTokens).where(eq(personalAccessTokens.userId, actor.userId)).orderBy(desc(personalAccessTokens.createdAt));
  return rows.map(presentToken);
}

export async function createOwnToken(db: Db, actor: Actor, { name }: { name: string }) {
  const created = await createPersonalAccessToken(db, { userId: actor.userId, name });
  return { ...presentToken({ ...created, lastUsedAt: null, revokedAt: null }), token: created.token };
}

/** Revokes one of the user's tokens at once (idempotent: the first revokedAt stays); another user's is 404. */
export async function revokeOwnToken(db: Db, actor: Actor, tokenId: string) {
  const notFound = new NotFoundError(`Token ${tokenId} was not found.`);
  if (!isUuid(tokenId)) throw notFound;
  const [row] = await db
    .update(personalAccessTokens)
    .set({ revokedAt: sql`coalesce(${personalAccessTokens.revokedAt}, now())` })
    .where(and(eq(personalAccessTokens.id, tokenId), eq(personalAccessTokens.userId, actor.userId)))
    .returning(tokenColumns);
  if (!row) throw notFound;
  return presentToken(row);
}
