import { sql } from "drizzle-orm";
import { bigint, index, jsonb, pgTable, text, uuid } from "drizzle-orm/pg-core";
import { timestamptz } from "./columns";
import { organizations } from "./organizations";
import { projects } from "./projects";
import { users } from "./users";

/**
 * Who did what to which resource, written in the same transaction as the change.
 * seq orders the trail: it is taken at insert, after the change's row locks, so it follows
 * the order in which changes to one resource happened (created_at is a wall clock).
 */
export const auditEvents = pgTable(
  "audit_events",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    seq: bigint("seq", { mode: "number" }).generatedAlwaysAsIdentity(),
    organizationId: uuid("organization_id")
      .notNull()
      .references(() => organizations.id, { onDelete: "cascade" }),
    projectId: uuid("project_id").references(() => projects.id, { onDelete: "cascade" }),
    actorUserId: uuid("actor_user_id").references(() => users.id, { onDelete: "set null" }),
    action: text("action").notNull(),
    targetType: text("target_type").notNull(),
    targetId: text("target_id").notNull(),
    data: jsonb("data").$type<Record<string, unknown>>(),
    createdAt: timestamptz("created_at").notNull().default(sql`clock_timestamp()`),
  },
  (t) => [index("audit_events_project_seq_idx").on(t.projectId, t.seq)],
);
