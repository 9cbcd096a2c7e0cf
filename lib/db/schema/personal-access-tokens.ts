import { sql } from "drizzle-orm";
import { check, index, pgTable, text, uuid, type AnyPgColumn } from "drizzle-orm/pg-core";
import { timestamptz } from "./columns";
import { users } from "./users";

/** What a token may be used for, in the order stored and shown; lib/auth/token-scopes.ts maps actions onto them. */
export const tokenScopes = [
  "read",
  "templates:write",
  "renders:write",
  "campaigns:write",
  "shares:write",
  "credentials:write",
  "webhooks:write",
  "projects:write",
  "members:write",
  "tokens:write",
] as const;

export type TokenScope = (typeof tokenScopes)[number];

const allScopes = sql.raw(`array[${tokenScopes.map((scope) => `'${scope}'`).join(", ")}]::text[]`);

/** Bearer tokens for the management API; only the SHA-256 of the token is kept. */
export const personalAccessTokens = pgTable(
  "personal_access_tokens",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    name: text("name"),
    tokenHash: text("token_hash").notNull().unique("personal_access_tokens_hash_unique"),
    // The token this one was created with (null: the console or the CLI). Revoking a token
    // revokes its descendants, and a revoked ancestor stops a token at authentication.
    parentTokenId: uuid("parent_token_id").references((): AnyPgColumn => personalAccessTokens.id, { onDelete: "cascade" }),
    // What the token may be used for (lib/auth/token-scopes.ts); tokens made before scopes existed have them all.
    scopes: text("scopes").array().$type<TokenScope[]>().notNull().default(allScopes),
    createdAt: timestamptz("created_at").notNull().defaultNow(),
    lastUsedAt: timestamptz("last_used_at"),
    revokedAt: timestamptz("revoked_at"),
  },
  (t) => [
    index("personal_access_tokens_parent_idx").on(t.parentTokenId),
    check("personal_access_tokens_scopes_check", sql`cardinality(${t.scopes}) > 0 and ${t.scopes} <@ ${allScopes}`),
  ],
);
