import { and, desc, eq, sql } from "drizzle-orm";
import { ForbiddenError, NotFoundError } from "@/lib/errors";
import { isUuid } from "@/lib/auth/project-access";
import { maxTokenGenerations, revokeTokenDescendants, tokenAncestry } from "@/lib/auth/token-chain";
import type { TokenScope } from "@/lib/auth/token-scopes";
import { personalAccessTokens } from "@/lib/db/schema";
import { accountVerb } from "@/lib/services/account-verbs";
import { audited } from "@/lib/services/verbs";
import { generatePersonalAccessToken, sha256Hex } from "@/lib/auth/secrets";
import type { Db } from "@/lib/db";

// The signed-in user's own personal access tokens (/api/me/tokens): never another user's, and
// never the token or its hash after the create response. A token made with a token is its
// child: it gets at most its parent's scopes and dies with it.

type TokenRow = Pick<typeof personalAccessTokens.$inferSelect, "id" | "name" | "scopes" | "parentTokenId" | "createdAt" | "lastUsedAt" | "revokedAt">;

const presentToken = (row: TokenRow) => ({
  id: row.id,
  name: row.name,
  scopes: row.scopes,
  parentTokenId: row.parentTokenId,
  createdAt: row.createdAt,
  lastUsedAt: row.lastUsedAt,
  status: row.revokedAt ? ("Revoked" as const) : ("Active" as const),
  revokedAt: row.revokedAt,
});

const tokenColumns = {
  id: personalAccessTokens.id,
  name: personalAccessTokens.name,
  scopes: personalAccessTokens.scopes,
  parentTokenId: personalAccessTokens.parentTokenId,
  createdAt: personalAccessTokens.createdAt,
  lastUsedAt: personalAccessTokens.lastUsedAt,
  revokedAt: personalAccessTokens.revokedAt,
};

/**
 * When each token stopped working: its own revocation, or its nearest revoked ancestor's (a
 * child created while its parent was being revoked keeps no revokedAt of its own, yet is refused).
 */
function effectiveRevocations(rows: TokenRow[]): Map<string, Date | null> {
  const byId = new Map(rows.map((row) => [row.id, row]));
  const revokedAt = new Map<string, Date | null>();
  const resolve = (row: TokenRow, depth: number): Date | null => {
    const known = revokedAt.get(row.id);
    if (known !== undefined) return known;
    const parent = row.parentTokenId ? byId.get(row.parentTokenId) : undefined;
    const value = row.revokedAt ?? (parent && depth < maxTokenGenerations ? resolve(parent, depth + 1) : null);
    revokedAt.set(row.id, value);
    return value;
  };
  for (const row of rows) resolve(row, 0);
  return revokedAt;
}

/**
 * Stores a new token of the user (for the verbs that make one: the user's own and the operator's).
 * The plain token is returned once; only its SHA-256 is stored. Runs inside the verb's `write`.
 */
export async function insertPersonalAccessToken(tx: Db, values: { userId: string; name: string | null; scopes: readonly TokenScope[]; parentTokenId: string | null }) {
  const token = generatePersonalAccessToken();
  const [row] = await tx
    .insert(personalAccessTokens)
    .values({ ...values, tokenHash: sha256Hex(token), scopes: [...values.scopes] })
    .returning({ id: personalAccessTokens.id, createdAt: personalAccessTokens.createdAt, scopes: personalAccessTokens.scopes, parentTokenId: personalAccessTokens.parentTokenId });
  return { id: row!.id, token, name: values.name, scopes: row!.scopes, parentTokenId: row!.parentTokenId, createdAt: row!.createdAt };
}

export const listOwnTokens = accountVerb("account.read", async ({ db, actor }) => {
  const rows = await db.select(tokenColumns).from(personalAccessTokens).where(eq(personalAccessTokens.userId, actor.userId)).orderBy(desc(personalAccessTokens.createdAt));
  const revokedAt = effectiveRevocations(rows);
  return rows.map((row) => presentToken({ ...row, revokedAt: revokedAt.get(row.id) ?? null }));
});

/**
 * A new token for the caller. Made with a token, it is that token's child: `scopes` default to
 * the parent's and may not go beyond them (403), and chains stop at maxTokenGenerations.
 */
export const createOwnToken = accountVerb("token.write", async ({ db, actor, write }, { name, scopes }: { name: string; scopes?: TokenScope[] }) => {
  const wanted = scopes ?? [...actor.scopes];
  const beyond = wanted.filter((scope) => !actor.scopes.includes(scope));
  if (beyond.length > 0) {
    throw new ForbiddenError(`A token cannot create a token wider than itself: this token lacks ${beyond.join(", ")} (it has ${actor.scopes.join(", ")}).`);
  }
  if (actor.tokenId) {
    const { ancestors } = await tokenAncestry(db, actor.tokenId);
    if (ancestors >= maxTokenGenerations) {
      throw new ForbiddenError(`Tokens nest at most ${maxTokenGenerations} deep; create this one in the console or from a token nearer the first.`);
    }
  }
  const created = await write(async (tx) => audited(await insertPersonalAccessToken(tx, { userId: actor.userId, name, scopes: wanted, parentTokenId: actor.tokenId ?? null }), []));
  return { ...presentToken({ ...created, lastUsedAt: null, revokedAt: null }), token: created.token };
});

/**
 * Revokes one of the user's tokens and every token created from it, transitively, in one
 * transaction (idempotent: each first revokedAt stays); another user's is 404.
 */
export const revokeOwnToken = accountVerb("token.write", async ({ actor, write }, tokenId: string) => {
  const notFound = new NotFoundError(`Token ${tokenId} was not found.`);
  if (!isUuid(tokenId)) throw notFound;
  return write(async (tx) => {
    const [row] = await tx
      .update(personalAccessTokens)
      .set({ revokedAt: sql`coalesce(${personalAccessTokens.revokedAt}, now())` })
      .where(and(eq(personalAccessTokens.id, tokenId), eq(personalAccessTokens.userId, actor.userId)))
      .returning(tokenColumns);
    if (!row) throw notFound;
    await revokeTokenDescendants(tx, row.id);
    return audited(presentToken(row), []);
  });
});
