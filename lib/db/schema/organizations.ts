import { pgTable, text, uuid } from "drizzle-orm/pg-core";
import { timestamptz } from "./columns";

export const organizations = pgTable("organizations", {
  id: uuid("id").primaryKey().defaultRandom(),
  name: text("name").notNull(),
  createdAt: timestamptz("created_at").notNull().defaultNow(),
});
