import { sql } from "drizzle-orm";
import { check, index, integer, jsonb, pgTable, text, uuid } from "drizzle-orm/pg-core";
import { timestamptz } from "./columns";
import { projects } from "./projects";
import { templates } from "./templates";
import { users } from "./users";

/** One declared file of an upload session and where its bytes are staged (docs/direct-uploads.md). */
export type UploadSessionFile = {
  role: string;
  name: string;
  size: number;
  type: string;
  /** s3: the staging object and its multipart upload. */
  s3?: { key: string; uploadId: string };
  /** uploadthing: the file as UploadThing reported it to the app's callback. */
  uploadthing?: { key: string; url: string; size: number };
};

/**
 * A template upload whose files go straight to storage (S3 presigned multipart, the app's own
 * part route, or UploadThing) and are validated when the client completes the session.
 */
export const templateUploadSessions = pgTable(
  "template_upload_sessions",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    projectId: uuid("project_id")
      .notNull()
      .references(() => projects.id, { onDelete: "cascade" }),
    createdBy: uuid("created_by").references(() => users.id, { onDelete: "set null" }),
    provider: text("provider").notNull(),
    status: text("status").notNull().default("open"),
    fields: jsonb("fields").$type<Record<string, string>>().notNull(),
    files: jsonb("files").$type<UploadSessionFile[]>().notNull(),
    partSize: integer("part_size").notNull(),
    templateId: uuid("template_id").references(() => templates.id, { onDelete: "set null" }),
    /** The 201 body of the completion, replayed when the session is completed again. */
    response: jsonb("response"),
    /** Why the session failed: the problem+json body of the refusal. */
    problem: jsonb("problem"),
    expiresAt: timestamptz("expires_at").notNull(),
    createdAt: timestamptz("created_at").notNull().defaultNow(),
    updatedAt: timestamptz("updated_at").notNull().defaultNow(),
  },
  (t) => [
    index("template_upload_sessions_project_idx").on(t.projectId, t.createdAt),
    index("template_upload_sessions_open_idx").on(t.expiresAt).where(sql`${t.status} in ('open', 'completing')`),
    check("template_upload_sessions_provider_check", sql`${t.provider} in ('s3', 'local', 'uploadthing')`),
    check("template_upload_sessions_status_check", sql`${t.status} in ('open', 'completing', 'completed', 'failed', 'cancelled', 'expired')`),
  ],
);
