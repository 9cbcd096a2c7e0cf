import { sql } from "drizzle-orm";
import { check, integer, pgTable, text, uniqueIndex, uuid } from "drizzle-orm/pg-core";
import { timestamptz } from "./columns";
import { users } from "./users";

/**
 * A user's TOTP authenticator (docs/adr/0156-two-factor-totp.md). The secret is sealed like a
 * webhook signing secret (AES-256-GCM under TOKEN_SECRETS, the user id bound to it). Pending
 * (enabled_at null) from enrolment until a code confirms it; only then does sign-in ask for codes.
 * last_used_step is the time step of the last code accepted: a code of that step or an earlier
 * one is refused, so an overheard code cannot be replayed.
 */
export const userTwoFactor = pgTable(
  "user_two_factor",
  {
    userId: uuid("user_id")
      .primaryKey()
      .references(() => users.id, { onDelete: "cascade" }),
    secretSealed: text("secret_sealed").notNull(),
    createdAt: timestamptz("created_at").notNull().defaultNow(),
    enabledAt: timestamptz("enabled_at"),
    lastUsedStep: integer("last_used_step"),
  },
  (t) => [check("user_two_factor_step_positive", sql`${t.lastUsedStep} is null or ${t.lastUsedStep} >= 0`)],
);

/** The one-time recovery codes of an enrolled user: only their SHA-256 is kept; used_at set when spent. */
export const twoFactorRecoveryCodes = pgTable(
  "two_factor_recovery_codes",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    codeHash: text("code_hash").notNull(),
    createdAt: timestamptz("created_at").notNull().defaultNow(),
    usedAt: timestamptz("used_at"),
  },
  (t) => [uniqueIndex("two_factor_recovery_codes_user_hash_unique").on(t.userId, t.codeHash)],
);
