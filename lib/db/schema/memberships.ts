import { sql } from "drizzle-orm";
import { check, index, pgTable, uniqueIndex, uuid } from "drizzle-orm/pg-core";
import { timestamptz } from "./columns";
import { roleEnum } from "./enums";
import { organizations } from "./organizations";
import { projects } from "./projects";
import { users } from "./users";

/** A role held either on a whole organization or on one project, never both. */
export const memberships = pgTable(
  "memberships",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    organizationId: uuid("organization_id").references(() => organizations.id, { onDelete: "cascade" }),
    projectId: uuid("project_id").references(() => projects.id, { onDelete: "cascade" }),
    role: roleEnum("role").notNull(),
    createdAt: timestamptz("created_at").notNull().defaultNow(),
  },
  (t) => [
    check("memberships_scope_check", sql`(${t.organizationId} is null) <> (${t.projectId} is null)`),
    uniqueIndex("memberships_user_org_unique").on(t.userId, t.organizationId).where(sql`${t.organizationId} is not null`),
    uniqueIndex("memberships_user_project_unique").on(t.userId, t.projectId).where(sql`${t.projectId} is not null`),
    index("memberships_project_idx").on(t.projectId),
  ],
);
