import { pgTable, text, uuid } from "drizzle-orm/pg-core";
import { timestamptz } from "./columns";
import { users } from "./users";

/** Bearer tokens for the management API; only the SHA-256 of the token is kept. */
export const personalAccessTokens = pgTable("personal_access_tokens", {
  id: uuid("id").primaryKey().defaultRandom(),
  userId: uuid("user_id")
    .notNull()
    .references(() => users.id, { onDelete: "cascade" }),
  name: text("name"),
  tokenHash: text("token_hash").notNull().unique("personal_access_tokens_hash_unique"),
  createdAt: timestamptz("created_at").notNull().defaultNow(),
  lastUsedAt: timestamptz("last_used_at"),
  revokedAt: timestamptz("revoked_at"),
});
