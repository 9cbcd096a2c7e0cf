import { sql } from "drizzle-orm";
import type { Db } from "@/lib/db";

// A personal access token may create tokens, which may create tokens: a chain back to the one
// made in the console or with the CLI. Revoking a token revokes its descendants in the same
// transaction (revokeTokenDescendants); authentication also walks the chain up (tokenAncestry), so a
// child created while its parent was being revoked is refused as soon as the revocation commits,
// on every app process.

/** Tokens nest at most this deep (the console's or the CLI's token is the first generation): each authentication walks the chain. */
export const maxTokenGenerations = 10;

type Row = Record<string, unknown>;

/** postgres.js returns the rows, PGlite `{ rows }`. */
function rowsOf<T extends Row>(result: unknown): T[] {
  return (Array.isArray(result) ? result : (result as { rows: T[] }).rows) as T[];
}

/** How many ancestors the token with this parent has, and how many of them are revoked. */
export async function tokenAncestry(db: Db, parentTokenId: string): Promise<{ ancestors: number; revoked: number }> {
  const result = await db.execute(sql`
    with recursive chain(id, parent_token_id, revoked_at, generation) as (
      select id, parent_token_id, revoked_at, 1 from personal_access_tokens where id = ${parentTokenId}
      union all
      select t.id, t.parent_token_id, t.revoked_at, c.generation + 1
      from personal_access_tokens t join chain c on t.id = c.parent_token_id
      where c.generation < ${maxTokenGenerations}
    )
    select count(*)::int as ancestors, count(revoked_at)::int as revoked from chain`);
  const [row] = rowsOf<{ ancestors: number; revoked: number }>(result);
  return { ancestors: Number(row?.ancestors ?? 0), revoked: Number(row?.revoked ?? 0) };
}

/** Marks every descendant of the token revoked (the first revokedAt of each stays); their ids. Run it in the root's revocation transaction. */
export async function revokeTokenDescendants(tx: Db, tokenId: string): Promise<string[]> {
  const result = await tx.execute(sql`
    with recursive tree(id) as (
      select id from personal_access_tokens where parent_token_id = ${tokenId}
      union
      select t.id from personal_access_tokens t join tree on t.parent_token_id = tree.id
    )
    update personal_access_tokens set revoked_at = coalesce(revoked_at, now())
    where id in (select id from tree)
    returning id`);
  return rowsOf<{ id: string }>(result).map((row) => row.id);
}
