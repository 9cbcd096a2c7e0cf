import { sql } from "drizzle-orm";
import { pgTable, text, uniqueIndex, uuid } from "drizzle-orm/pg-core";
import { timestamptz } from "./columns";

export const users = pgTable(
  "users",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    email: text("email").notNull(),
    name: text("name"),
    passwordHash: text("password_hash"),
    createdAt: timestamptz("created_at").notNull().defaultNow(),
    // A disabled user cannot sign in, and neither their sessions nor their tokens authenticate.
    disabledAt: timestamptz("disabled_at"),
  },
  // Emails are compared case-insensitively, so uniqueness is on the lowered form.
  (t) => [uniqueIndex("users_email_unique").on(sql`lower(${t.email})`)],
);
