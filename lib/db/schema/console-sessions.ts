import { index, pgTable, text, uuid } from "drizzle-orm/pg-core";
import { timestamptz } from "./columns";
import { users } from "./users";

/**
 * One row per console sign-in; its id travels in the session JWT. The cookie is honoured only
 * while the row exists and is not revoked, so sign-out, a password change, disabling the user
 * and removing a membership end sessions at once instead of when the JWT expires.
 */
export const consoleSessions = pgTable(
  "console_sessions",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    createdAt: timestamptz("created_at").notNull().defaultNow(),
    /** The browser's User-Agent at sign-in (cut to 512 characters), for the account page's session list. */
    userAgent: text("user_agent"),
    revokedAt: timestamptz("revoked_at"),
  },
  (t) => [index("console_sessions_user_idx").on(t.userId)],
);
