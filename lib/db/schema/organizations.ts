import { boolean, pgTable, text, uuid } from "drizzle-orm/pg-core";
import { timestamptz } from "./columns";

export const organizations = pgTable("organizations", {
  id: uuid("id").primaryKey().defaultRandom(),
  name: text("name").notNull(),
  createdAt: timestamptz("created_at").notNull().defaultNow(),
  // Members who sign in with a password must enrol in two-factor before using the console (docs/adr/0157-organizations-require-two-factor.md).
  requireTwoFactor: boolean("require_two_factor").notNull().default(false),
});
