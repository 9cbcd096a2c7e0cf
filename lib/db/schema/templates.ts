import { sql } from "drizzle-orm";
import { boolean, check, doublePrecision, index, integer, jsonb, pgTable, text, uniqueIndex, uuid } from "drizzle-orm/pg-core";
import { timestamptz } from "./columns";
import { templateKindEnum, templateStatusEnum } from "./enums";
import { projects } from "./projects";
import { users } from "./users";

/** An immutable uploaded template; only its lifecycle columns change after upload. */
export const templates = pgTable(
  "templates",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    projectId: uuid("project_id")
      .notNull()
      .references(() => projects.id, { onDelete: "cascade" }),
    name: text("name").notNull(),
    version: text("version").notNull().default("1.0"),
    kind: templateKindEnum("kind").notNull(),
    status: templateStatusEnum("status").notNull().default("Testing"),
    manifest: jsonb("manifest").$type<Record<string, unknown>>(),
    fields: jsonb("fields").$type<unknown[]>().notNull().default([]),
    overlay: jsonb("overlay").$type<Record<string, unknown>>(),
    // From the Lottie file (the overlay's, for Raster); null for a Raster template without one.
    width: integer("width"),
    height: integer("height"),
    frameRate: doublePrecision("frame_rate"),
    inPoint: doublePrecision("in_point"),
    outPoint: doublePrecision("out_point"),
    createdAt: timestamptz("created_at").notNull().defaultNow(),
    createdBy: uuid("created_by").references(() => users.id, { onDelete: "set null" }),
    deployedAt: timestamptz("deployed_at"),
    archivedAt: timestamptz("archived_at"),
    everProduction: boolean("ever_production").notNull().default(false),
    /** A scheduled go-live: from this instant the template is deployed (once, by any app process); null when none is scheduled. */
    deployAt: timestamptz("deploy_at"),
    deployScheduledBy: uuid("deploy_scheduled_by").references(() => users.id, { onDelete: "set null" }),
  },
  (t) => [
    // At most one Production template per project, under any concurrency.
    uniqueIndex("templates_one_production_per_project").on(t.projectId).where(sql`${t.status} = 'Production'`),
    index("templates_project_status_idx").on(t.projectId, t.status, t.createdAt),
    index("templates_deploy_at_idx").on(t.deployAt).where(sql`${t.deployAt} is not null`),
    check("templates_version_format_check", sql`${t.version} ~ '^[0-9]+\\.[0-9]+$'`),
    check("templates_production_flag_check", sql`${t.status} <> 'Production' or ${t.everProduction}`),
  ],
);
